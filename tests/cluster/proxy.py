"""The shipped proxy configurations (deploy/nginx/parlour.conf, deploy/haproxy/parlour.cfg) rendered for a
test's ports, certificate and logs, and run by Debian's nginx or HAProxy from a temporary folder, in front
of test nodes."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path

from .services import Missing

DEPLOY = Path(__file__).parents[2] / "deploy"
SITE = DEPLOY / "nginx" / "parlour.conf"
HAPROXY_CONFIG = DEPLOY / "haproxy" / "parlour.cfg"
NGINX = "/usr/sbin/nginx"
HAPROXY = "/usr/sbin/haproxy"
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def _sub(pattern: str, replacement: str, text: str, count: int) -> str:
    """Replaces ``pattern`` exactly ``count`` times in ``text`` (the shipped file's form is checked)."""
    found, made = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    if made != count:
        raise AssertionError(f"the site should have {count} of {pattern!r}, it has {made}")
    return found


def render(site: str, https: int, http: int, nodes: Sequence[int], folder: Path) -> str:
    """Returns the site with its listening ports, its upstream's nodes, its certificate and its logs
    replaced by the test's (everything else as shipped); the IPv6 listens are left out."""
    site = _sub(r"^\s*listen \[::\]:\d+.*\n", "", site, 2)
    site = _sub(r"^(\s*)listen 443 ", rf"\g<1>listen 127.0.0.1:{https} ", site, 1)
    site = _sub(r"^(\s*)listen 80;", rf"\g<1>listen 127.0.0.1:{http};", site, 1)
    upstream = re.search(r"^upstream parlour_nodes \{\n(.*?)^\}", site, flags=re.MULTILINE | re.DOTALL)
    assert upstream is not None, "the site has no upstream parlour_nodes"
    lines = upstream.group(1).splitlines(keepends=True)
    servers = [line for line in lines if re.match(r"\s*server 127\.0\.0\.1:\d+ ", line)]
    assert len(servers) == 3, "the upstream should name three nodes"
    first = lines.index(servers[0])
    mine = [re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", servers[0]) for port in nodes]
    kept = [line for line in lines if line not in servers]
    body = "".join(kept[:first] + mine + kept[first:])
    site = site[: upstream.start(1)] + body + site[upstream.end(1) :]
    live = r"/etc/letsencrypt/live/parlour\.example\.org/"
    site = _sub(live + r"fullchain\.pem", str(folder / "cert.pem"), site, 1)
    site = _sub(live + r"privkey\.pem", str(folder / "key.pem"), site, 1)
    return _sub(r"/var/log/nginx/", f"{folder}/", site, 2)


def render_haproxy(config: str, https: int, http: int, nodes: Sequence[int], folder: Path) -> str:
    """Returns the HAProxy configuration with its binds, its nodes and its certificate replaced by the
    test's, logging to standard error, in the foreground, without chroot, user or stats socket, and
    fewer connections at once (HAProxy needs two open files for each)."""
    config = _sub(r"^\s*log /dev/log local0\n", "    log stderr format raw local0\n", config, 1)
    for line in (r"chroot /var/lib/haproxy", r"stats socket /run/haproxy/\S+ .*", "user haproxy"):
        config = _sub(rf"^\s*{line}\n", "", config, 1)
    config = _sub(r"^\s*(group haproxy|daemon)\n", "", config, 2)
    config = _sub(r"^\s*bind \[::\]:.*\n", "", config, 2)
    config = _sub(r"^(\s*)maxconn 20000$", r"\g<1>maxconn 2000", config, 1)  # within a test's open files
    config = _sub(r"^(\s*)bind :443 ", rf"\g<1>bind 127.0.0.1:{https} ", config, 1)
    config = _sub(r"^(\s*)bind :80$", rf"\g<1>bind 127.0.0.1:{http}", config, 1)
    config = _sub(r"/etc/haproxy/certs/parlour\.pem", str(folder / "both.pem"), config, 2)  # and a comment
    servers = re.findall(r"^\s*server node\d+ 127\.0\.0\.1:\d+\n", config, flags=re.MULTILINE)
    assert len(servers) == 3, "the backend should name three nodes"
    mine = "".join(f"    server node{port} 127.0.0.1:{port}\n" for port in nodes)
    return config.replace("".join(servers), mine)


def main_config(folder: Path, site: Path) -> str:
    """Returns an nginx.conf that keeps everything in ``folder`` and includes ``site`` in its http block
    (what Debian's /etc/nginx/nginx.conf does with sites-enabled)."""
    user = "user www-data;\n" if os.geteuid() == 0 else ""  # as root the workers drop to Debian's user
    temp = "".join(f"    {name}_temp_path {folder}/{name};\n" for name in TEMP_PATHS)
    return (
        f"{user}worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/main.error.log info;\n"
        "events { worker_connections 512; }\n"
        f"http {{\n{temp}    access_log off;\n    include {site};\n}}\n"
    )


def self_signed(folder: Path) -> Path:
    """Makes a certificate for 127.0.0.1 and its key in ``folder``; returns the certificate."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    key.chmod(0o600)
    return cert


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Proxy(ABC):
    """A proxy running a shipped configuration from a new temporary folder (its certificate, logs and
    temporary files there), in the foreground, in front of the nodes on ``nodes``."""

    name = ""

    def __init__(self, nodes: Sequence[int]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix=f"parlour-{self.name}-"))
        self.cert = self_signed(self.folder)
        self.https, self.http = _free_port(), _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    @abstractmethod
    def command(self) -> list[str]:
        """Returns the command line that runs the proxy in the foreground (each proxy its own)."""

    @abstractmethod
    def check(self) -> subprocess.CompletedProcess[str]:
        """Runs the proxy's own check of its configuration (each proxy its own)."""

    def start(self, wait: float = 10.0) -> Proxy:
        """Starts the proxy and waits for it to accept connections on its HTTPS port."""
        out = self.folder / "proxy.out"
        with out.open("wb") as log:
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + wait
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} stopped: " + out.read_text(errors="replace"))
            try:
                socket.create_connection(("127.0.0.1", self.https), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"{self.name} did not start")

    def stop(self) -> None:
        """Stops the proxy at once (open WebSockets closed) and removes its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


class Nginx(Proxy):
    """Debian's nginx serving the shipped site: a master process in the foreground (pid, logs and
    temporary files in the folder). As root its workers run as www-data, as Debian's do, so the
    folder is made readable."""

    name = "nginx"

    def __init__(self, nodes: Sequence[int]) -> None:
        if not Path(NGINX).exists() or shutil.which("openssl") is None:
            raise Missing("nginx or openssl is not installed (apt-get install nginx; `make test` does)")
        super().__init__(nodes)
        if os.geteuid() == 0:
            self.folder.chmod(0o755)  # the workers write the proxy's temporary files under it
        site = self.folder / "parlour.conf"
        site.write_text(render(SITE.read_text(), self.https, self.http, nodes, self.folder))
        self.config = self.folder / "nginx.conf"
        self.config.write_text(main_config(self.folder, site))

    def command(self) -> list[str]:
        return [NGINX, "-c", str(self.config), "-p", str(self.folder), "-g", "daemon off;"]

    def check(self) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [NGINX, "-t", "-c", str(self.config), "-p", str(self.folder)], capture_output=True, text=True
        )


class HAProxy(Proxy):
    """Debian's HAProxy running the shipped configuration in the foreground (``-db``), its certificate
    and key in one file as HAProxy takes them."""

    name = "haproxy"

    def __init__(self, nodes: Sequence[int]) -> None:
        if not Path(HAPROXY).exists() or shutil.which("openssl") is None:
            raise Missing("haproxy or openssl is not installed (apt-get install haproxy; `make test` does)")
        super().__init__(nodes)
        both = self.folder / "both.pem"
        both.write_text(self.cert.read_text() + (self.folder / "key.pem").read_text())
        both.chmod(0o600)
        self.config = self.folder / "haproxy.cfg"
        rendered = render_haproxy(HAPROXY_CONFIG.read_text(), self.https, self.http, nodes, self.folder)
        self.config.write_text(rendered)

    def command(self) -> list[str]:
        return [HAPROXY, "-db", "-f", str(self.config)]

    def check(self) -> subprocess.CompletedProcess[str]:
        return subprocess.run([HAPROXY, "-c", "-f", str(self.config)], capture_output=True, text=True)


KINDS: dict[str, type[Proxy]] = {"nginx": Nginx, "haproxy": HAProxy}

"""The shipped nginx site (deploy/nginx/parlour.conf) rendered for a test's ports, certificate and logs,
and run by Debian's nginx from a temporary folder, in front of test nodes."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from .services import Missing

SITE = Path(__file__).parents[2] / "deploy" / "nginx" / "parlour.conf"
NGINX = "/usr/sbin/nginx"
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


class Nginx:
    """Debian's nginx serving the shipped site from a new temporary folder (pid, logs, temporary files,
    certificate there), in front of the nodes on ``nodes``; a master process in the foreground, stopped
    with SIGTERM. As root its workers run as www-data, as Debian's do, so the folder is readable."""

    def __init__(self, nodes: Sequence[int]) -> None:
        if not Path(NGINX).exists() or shutil.which("openssl") is None:
            raise Missing("nginx or openssl is not installed (apt-get install nginx; `make test` does)")
        self.folder = folder = Path(tempfile.mkdtemp(prefix="parlour-nginx-"))
        if os.geteuid() == 0:
            folder.chmod(0o755)  # the workers write the proxy's temporary files under it
        self.cert = self_signed(folder)
        self.https, self.http = _free_port(), _free_port()
        site = folder / "parlour.conf"
        site.write_text(render(SITE.read_text(), self.https, self.http, nodes, folder))
        self.config = folder / "nginx.conf"
        self.config.write_text(main_config(folder, site))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    def check(self) -> subprocess.CompletedProcess[str]:
        """Runs ``nginx -t`` on the configuration."""
        return subprocess.run(
            [NGINX, "-t", "-c", str(self.config), "-p", str(self.folder)], capture_output=True, text=True
        )

    def start(self, wait: float = 10.0) -> Nginx:
        """Starts nginx and waits for it to accept connections on its HTTPS port."""
        log = (self.folder / "nginx.out").open("wb")
        self.process = subprocess.Popen(
            [NGINX, "-c", str(self.config), "-p", str(self.folder), "-g", "daemon off;"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        end = time.monotonic() + wait
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise AssertionError("nginx stopped: " + (self.folder / "nginx.out").read_text())
            try:
                socket.create_connection(("127.0.0.1", self.https), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError("nginx did not start")

    def stop(self) -> None:
        """Stops nginx (its fast shutdown: open WebSockets are closed) and removes its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)

    def error_log(self) -> str:
        """Returns what nginx logged about the site's requests."""
        path = self.folder / "parlour.error.log"
        return path.read_text(errors="replace") if path.exists() else ""

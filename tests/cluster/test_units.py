"""The shipped systemd units (deploy/systemd): systemd-analyze finds nothing to say about them and rates
the node's hardening, and the node's command line, with the example settings, is one that
``parlour serve`` accepts."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.cli.main import build_parser

UNITS = Path(__file__).parents[2] / "deploy" / "systemd"
INSTALLED = "/opt/parlour/venv/bin/parlour"


def analyze() -> str:
    """Returns systemd-analyze's path, or skips the test saying why."""
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package has it)")
    return found


def rendered(folder: Path) -> Path:
    """Copies the units into ``folder`` with the node's program where this test's Python has it (the
    one thing systemd-analyze checks on disk); returns the node's instance for port 8001."""
    program = Path(sys.executable).parent / "parlour"
    assert program.exists(), program
    for unit in ("parlour@.service", "parlour.target"):
        text = (UNITS / unit).read_text()
        if unit == "parlour@.service":
            assert text.count(INSTALLED) == 1
            text = text.replace(INSTALLED, str(program))
        (folder / unit).write_text(text)
    return folder / "parlour@8001.service"


def test_systemd_analyze_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    tool = analyze()
    node = rendered(tmp_path)
    checked = subprocess.run(
        [tool, "verify", "--man=no", str(node), str(tmp_path / "parlour.target")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr  # not even a warning


def test_the_node_is_hardened(tmp_path: Path) -> None:
    tool = analyze()
    node = rendered(tmp_path)
    checked = subprocess.run(
        [tool, "security", "--offline=true", "--no-pager", str(node)], capture_output=True, text=True
    )
    found = re.search(r"Overall exposure level for parlour@8001\.service: ([\d.]+)", checked.stdout)
    assert found is not None, checked.stdout[-2000:] + checked.stderr
    assert float(found.group(1)) <= 2.0, checked.stdout  # 0 is the best, 10 none at all ("UNSAFE")
    text = (UNITS / "parlour@.service").read_text()
    for line in ("User=parlour", "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes"):
        assert re.search(rf"^{re.escape(line)}$", text, flags=re.MULTILINE), line
    assert re.search(r"^Restart=on-failure$", text, flags=re.MULTILINE)


def settings() -> dict[str, str]:
    """Returns the example environment file's variables."""
    found = {}
    for line in (UNITS / "parlour.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            found[name] = value
    return found


def command_line(port: int) -> list[str]:
    """Returns the node's ExecStart as systemd runs it for ``port`` with the example settings:
    ``${VAR}`` one word, ``$VAR`` split on spaces, %i the port, %l the host, %d the credentials."""
    text = (UNITS / "parlour@.service").read_text().replace("\\\n", " ")
    line = re.search(r"^ExecStart=(.*)$", text, flags=re.MULTILINE)
    assert line is not None
    values = settings()
    words = []
    for word in shlex.split(line.group(1)):
        word = word.replace("%i", str(port)).replace("%l", "host")
        word = word.replace("%d", f"/run/credentials/parlour@{port}.service")
        if re.fullmatch(r"\$[A-Z_]+", word):
            words += values[word[1:]].split()
            continue
        words.append(re.sub(r"\$\{([A-Z_]+)\}", lambda m: values[m.group(1)], word))
    return words


def test_the_node_command_line_is_one_parlour_serve_accepts() -> None:
    words = command_line(8001)
    assert words[0] == INSTALLED and words[1] == "serve"
    text = (UNITS / "parlour@.service").read_text()
    used = set(re.findall(r"\$\{?([A-Z_]+)\}?", text.split("ExecStart=")[1].split("\n# ")[0]))
    assert used <= set(settings()), used - set(settings())  # every variable has an example
    args = build_parser().parse_args(words[1:])
    assert (args.port, args.host) == (8001, "127.0.0.1")
    assert args.database_url == settings()["PARLOUR_DATABASE_URL"]
    assert args.seed_key_file == "/run/credentials/parlour@8001.service/seed.key"
    assert args.forwarded_allow_ips == "127.0.0.1"
    assert args.redis_url == settings()["PARLOUR_REDIS_URL"] and args.node_id.endswith("-8001")
    assert ":" not in args.database_url.split("//")[1].split("@")[0]  # no password on the command line

"""The Ray backend (parlour.bots.ray_backend): the same results as the local one, retries without losing
or doubling a game, stopping, clear refusals. The checks that need a Ray are subtests of one test, so
that one local Ray of two CPUs serves them all, in one pytest-xdist worker."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from ray import cloudpickle

from parlour.bots import ray_backend
from parlour.bots.ray_backend import BackendError
from parlour.bots.simulation import Batch, GameOutcome, _play_chunk, chunks, simulate
from parlour.bots.tournament import tournament
from parlour.bots.workers import check_backend, cpu_count, open_runner
from parlour.cli.main import main
from parlour.core.errors import OptionError

from .processes import descendants, kill_all, linux_only, start_cli, wait_until

SEATS = ["random", "random", "random"]
"""Embers with random bots: about a millisecond a game."""


def timeless(summary: dict[str, Any]) -> dict[str, Any]:
    """Returns a summary without its wall-clock time."""
    return {k: v for k, v in summary.items() if k != "seconds"}


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray of two CPUs for the module (the backend uses a Ray already running as it is)."""
    # This module is imported by pytest under its file name, which Ray's workers cannot import: its
    # job functions travel by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
    try:
        yield
    finally:
        ray.shutdown()
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


@pytest.fixture
def no_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    """No RAY_ADDRESS from the environment the tests run in."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)


# ---------------------------------------------------------------- stopping (first: before the module's Ray)
@pytest.mark.slow
@linux_only
def test_sigterm_stops_the_games_and_the_local_ray() -> None:
    """SIGTERM while Ray plays: one line, status 143, and the Ray the command started ends."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    argv = [
        "simulate",
        "venture",
        "-n",
        "5000",
        "--seats",
        "greedy,greedy",
        "--backend",
        "ray",
        "--workers",
        "2",
    ]
    proc = start_cli(argv, env)
    seen: dict[int, str] = {}
    try:
        wait_until(lambda: "ray::run_job" in descendants(proc.pid).values(), "Ray playing games")
        seen = descendants(proc.pid)
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=120) == 128 + signal.SIGTERM
        assert proc.stderr is not None and proc.stderr.read().splitlines()[-1] == "parlour: terminated"
        wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in seen), "Ray's processes to end")
    finally:
        kill_all(proc, list(seen))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_signals_during_a_ray_call_are_held_then_acted_on(signum: int) -> None:
    """Ray runs Python's signal handlers inside its waits, mangling their errors: they are held till after."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers belong to the main thread")

    class Stop(BaseException):
        pass

    def stop(number: int, frame: object) -> None:
        raise Stop

    previous = signal.signal(signum, stop)
    reached = False
    try:
        with pytest.raises(Stop), ray_backend.held_signals():
            os.kill(os.getpid(), signum)
            time.sleep(0.2)  # a handler would have run by now
            reached = True
        assert reached and signal.getsignal(signum) is stop
    finally:
        signal.signal(signum, previous)


# ---------------------------------------------------------------- on a local Ray of two CPUs
@pytest.mark.slow  # the Ray alone takes several seconds to start (ten on a busy machine)
def test_the_ray_backend_on_a_local_ray(
    local_ray: None,
    no_cluster: None,
    subtests: pytest.Subtests,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every check that needs a Ray, as subtests of one test: one Ray, started once, in one worker."""
    checks: list[tuple[str, Callable[[], None]]] = [
        ("simulate equals the local backend", simulate_equals_local),
        ("tournament equals the local backend", tournament_equals_local),
        ("the command prints the local summary", lambda: command_equals_local(capsys)),
        ("the scale bench plays the same games", scale_bench_agrees),
        ("a dead worker is retried", lambda: dead_worker_is_retried(tmp_path / "once")),
        ("Ray giving up is one line", lambda: giving_up_is_one_line(tmp_path / "always", monkeypatch)),
        ("a game's own error comes back as it is", own_error_comes_back),
    ]
    for name, check in checks:
        with subtests.test(msg=name):
            check()


def simulate_equals_local() -> None:
    """The same summary (but the time) as two local processes; progress comes chunk by chunk."""
    seen: list[int] = []
    here = simulate("embers", SEATS, 90, seed=7, batch=Batch(workers=2, workers_max=2))
    there = simulate("embers", SEATS, 90, seed=7, batch=Batch(workers=2, backend="ray", progress=seen.append))
    assert timeless(there) == timeless(here)
    assert sum(seen) == 90 and len(seen) == len(chunks(90, 2)) > 1
    other = simulate("embers", SEATS, 90, seed=8, batch=Batch(workers=2, backend="ray"))
    assert timeless(other) != timeless(here)


def tournament_equals_local() -> None:
    """The same ratings and results as in this process; progress game by game."""
    bots = ["random", "ismcts:8it"]
    here = tournament("embers", bots, 12, 3, seed=5)
    seen: list[int] = []
    there = tournament("embers", bots, 12, 3, seed=5, batch=Batch(backend="ray", progress=seen.append))
    assert timeless(there) == timeless(here)
    assert seen == [1] * 12
    assert {row["bot"] for row in there["bots"]} == set(bots)


def command_equals_local(capsys: pytest.CaptureFixture[str]) -> None:
    """`parlour simulate --backend ray --json` prints the local backend's summary."""
    argv = ["simulate", "embers", "-n", "40", "--seats", "random,random", "--seed", "3", "--json"]
    assert main([*argv, "--workers", "2"]) == 0
    here = json.loads(capsys.readouterr().out)
    assert main([*argv, "--backend", "ray", "--workers", "2"]) == 0
    there = json.loads(capsys.readouterr().out)
    assert timeless(there) == timeless(here) and there["games"] == 40


def scale_bench_agrees() -> None:
    """bench/scale_bench.py's row: both backends' games per second, and their summaries equal."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from scale_bench import scale_row

    row = scale_row("embers", SEATS, 30, workers=2, seed=1)
    assert row["identical"] is True and row["games"] == 30
    assert row["local_games_per_second"] > 0 and row["ray_games_per_second"] > 0


def crash_once(job: tuple[str, tuple[Any, ...]]) -> list[GameOutcome]:
    """Plays a chunk, noting each attempt in a log; the worker playing game 5 dies the first time."""
    folder, chunk = job
    with open(os.path.join(folder, "attempts"), "a", encoding="utf-8") as log:
        log.write(f"{chunk[3][0]}\n")
    if 5 in chunk[3] and not os.path.exists(os.path.join(folder, "crashed")):
        open(os.path.join(folder, "crashed"), "w").close()
        os._exit(1)  # the worker process dies: no exception, no result
    return _play_chunk(chunk)


def crash_always(job: tuple[str, tuple[Any, ...]]) -> list[GameOutcome]:
    """Plays a chunk, except that the worker playing game 5 always dies."""
    if 5 in job[1][3]:
        os._exit(1)
    return _play_chunk(job[1])


def chunk_jobs(folder: Path, games: int) -> list[tuple[str, tuple[Any, ...]]]:
    """Returns simulation chunks of Embers (seed 4, three random bots), each with a folder of its own."""
    folder.mkdir()
    return [(str(folder), ("embers", SEATS, 4, c, {"chain": "on"}, None, False)) for c in chunks(games, 2)]


def dead_worker_is_retried(folder: Path) -> None:
    """A chunk whose worker dies runs again; every game comes back once, as played in this process."""
    jobs = chunk_jobs(folder, 40)
    with open_runner("ray", 2) as runner:
        played = [o for outcomes in runner.run(crash_once, jobs) for o in outcomes]
    assert (folder / "crashed").exists()
    attempts = (folder / "attempts").read_text(encoding="utf-8").split()
    first_of_crashed = next(c[0] for _, (_, _, _, c, _, _, _) in jobs if 5 in c)
    assert attempts.count(str(first_of_crashed)) == 2
    assert sorted(o.index for o in played) == list(range(40))
    expected = [o for _, chunk in jobs for o in _play_chunk(chunk)]
    assert sorted(played, key=lambda o: o.index) == expected


def giving_up_is_one_line(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk whose worker dies every time ends the run with one line, once the retries are spent."""
    with monkeypatch.context() as patch:
        patch.setattr(ray_backend, "MAX_RETRIES", 1)
        with open_runner("ray", 2) as runner, pytest.raises(BackendError) as err:
            list(runner.run(crash_always, chunk_jobs(folder, 20)))
    message = str(err.value)
    assert message.startswith("Ray gave up on job ") and "after 1 retries" in message
    assert "\n" not in message


def own_error_comes_back() -> None:
    """A game's error (deterministic) is not retried and reaches the caller as the local backend's would."""
    bad = ("embers", SEATS, 4, [0], {"chain": "sideways"}, None, False)
    with open_runner("ray", 2) as runner, pytest.raises(Exception) as err:
        list(runner.run(_play_chunk, [bad]))
    with pytest.raises(type(err.value)) as here:
        _play_chunk(bad)
    assert str(err.value) == str(here.value) and "chain" in str(err.value)


# ---------------------------------------------------------------- refusals (no Ray started)
@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_an_unknown_backend_is_refused(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    who = ["--seats", "random,random"] if command == "simulate" else ["--bots", "random,random"]
    out = ["--out", str(tmp_path / "t")] if command == "tournament" else []
    with pytest.raises(SystemExit) as exit_:
        main([command, "embers", "-n", "2", *who, "--backend", "spark", *out])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --backend: invalid choice: 'spark'" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "t").exists()


def test_the_python_api_refuses_an_unknown_backend() -> None:
    with pytest.raises(OptionError, match="--backend must be one of local, ray, not 'spark'"):
        simulate("embers", SEATS, 2, batch=Batch(backend="spark"))


def test_ray_missing_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    assert main(["simulate", "embers", "-n", "2", "--seats", "random,random", "--backend", "ray"]) == 2
    assert capsys.readouterr().err == f"parlour: error: {ray_backend.INSTALL_HINT}\n"


def test_an_unreachable_cluster_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")  # nothing listens on port 1
    argv = ["tournament", "embers", "-n", "2", "--bots", "random,random", "--backend", "ray"]
    assert main([*argv, "--out", str(tmp_path / "t")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("parlour: error: cannot reach the Ray cluster at RAY_ADDRESS=127.0.0.1:1: ")
    assert len(err.splitlines()) == 1 and not (tmp_path / "t").exists()
    monkeypatch.setenv("RAY_ADDRESS", "nowhere")
    assert main(["simulate", "embers", "-n", "2", "--seats", "random,random", "--backend", "ray"]) == 2
    assert "RAY_ADDRESS must be host:port" in capsys.readouterr().err


def test_workers_on_a_cluster_are_not_capped_by_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a cluster --workers is how many jobs run at once, not this machine's CPUs; locally it is capped."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with pytest.raises(OptionError, match="--workers-max"):
        check_backend("ray", cpu_count() + 1)
    monkeypatch.setattr(ray_backend, "check_reachable", lambda address: None)
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    check_backend("ray", cpu_count() + 100)
    with pytest.raises(OptionError, match="at least 1"):
        check_backend("ray", 0)


def test_importing_parlour_does_not_import_ray() -> None:
    code = (
        "import sys, parlour.cli.main, parlour.cli.commands, parlour.bots.simulation, "
        "parlour.bots.tournament, parlour.bots.workers\n"
        "from parlour.bots.simulation import Batch, simulate\n"
        "simulate('embers', ['random', 'random'], 3, batch=Batch(workers=1))\n"
        "print('ray' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"

"""The researcher's quick start runs as written: the Python block of docs/environments.md's "Training in
one line", and the two training scripts in examples/ with a few hundred steps."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "environments.md").read_text(encoding="utf-8")


def run(*argv: str, timeout: float = 600) -> str:
    """Runs a Python program of the checkout; returns what it printed (it must succeed)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_AUTH_MODE": "disabled"}
    command = [sys.executable, *argv]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def quick_start() -> str:
    """Returns the Python block of the section "Training in one line"."""
    section = DOC[DOC.index("## Training in one line") : DOC.index("## Agents, turns and rewards")]
    found = re.search(r"^```python\n(.*?)^```$", section, re.M | re.S)
    assert found is not None
    return found.group(1)


@pytest.mark.slow
def test_the_quick_start_runs_as_written() -> None:
    printed = run("-c", quick_start())
    assert re.fullmatch(r"reward (0\.0|1\.0|0\.5|0\.333\d*|0\.25)\n", printed), printed


@pytest.mark.slow
def test_the_sb3_example_trains_and_plays() -> None:
    pytest.importorskip("sb3_contrib")
    example = "examples/sb3_maskable_ppo.py"
    printed = run(example, "venture", "--steps", "256", "--games", "2", "--players", "3")
    assert re.fullmatch(r"venture: after 256 steps, [01]\.\d{3} of the wins in 2 games\n", printed), printed


@pytest.mark.slow
def test_the_sb3_example_imitates_pays_the_score_and_exports_a_policy_parlour_plays(tmp_path: Path) -> None:
    """``--imitate`` first fits the policy to a teacher's choices (its loss falls below a uniform
    guess's), ``--reward score`` trains on the score difference (the games after training are still
    judged by the win), and ``--export`` writes a policy the ``learned`` bot reads, saying how it was
    trained."""
    pytest.importorskip("sb3_contrib")
    from parlour.bots.networks import read_network
    from parlour.bots.policies import FORMAT

    out = tmp_path / "venture.npz"
    example = "examples/sb3_maskable_ppo.py"
    argv = (
        "venture",
        "--steps",
        "256",
        "--games",
        "2",
        "--players",
        "3",
        "--reward",
        "score",
        "--imitate",
        "2",
    )
    printed = run(
        example, *argv, "--dagger", "1", "--epochs", "30", "--opponents", "greedy", "--export", str(out)
    )
    lines = printed.splitlines()
    imitated = re.fullmatch(
        r"venture: imitated 2 games of greedy, (\d+) choices "
        r"\(loss (\d+\.\d{3}); a uniform guess (\d+\.\d{3})\)",
        lines[0],
    )
    assert imitated is not None, printed
    # Fitted: well below what a uniform guess among the legal ids costs (an untrained policy's).
    assert float(imitated.group(2)) < 0.8 * float(imitated.group(3)), printed
    # DAgger: two more games played by the policy, labelled by the teacher, added to the first two's.
    dagger = re.fullmatch(r"venture: DAgger round 1, (\d+) choices \(loss \d+\.\d{3}\)", lines[1])
    assert dagger is not None, printed
    assert int(dagger.group(1)) > int(imitated.group(1))
    assert re.fullmatch(r"venture: after 256 steps, [01]\.\d{3} of the wins in 2 games", lines[2]), printed
    net = read_network(out, FORMAT, "venture")
    assert net.about["reward"] == "score"
    assert net.about["opponents"] == "greedy"
    assert net.about["steps"] == 256
    assert net.about["imitated"] == 2 and net.about["teacher"] == "greedy" and net.about["dagger"] == 1
    assert "--reward score" in str(net.about["command"]) and "--export" not in str(net.about["command"])
    assert net.about["players"] == 3 and net.about["epochs"] == 30


@pytest.mark.slow
def test_the_rllib_example_trains_an_iteration() -> None:
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")
    printed = run("examples/rllib_ppo.py", "im-the-boss", "--iterations", "1", "--batch", "200")
    assert printed.startswith("im-the-boss: iteration 1, mean episode return"), printed

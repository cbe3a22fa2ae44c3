"""``make bench``: engine speed beside OpenSpiel, optimiser times, greedy against random, per game.

Prints the figures and writes them to bench/results.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accounts_bench import accounts_figures
from analysis_bench import analysis_figures
from baselines import baseline_figures
from boss_bench import bot_games
from cluster_bench import bots_figures
from evaluator_bench import evaluator_figures
from optimiser_bench import optimiser_timings
from page_weight import page_weight_figures
from playouts import random_playouts
from profiles import print_profiles
from scale_bench import scale_figures
from search_bench import search_figures
from server_bench import server_figures
from speed import openspiel_playouts, speed_table
from turns_bench import turns_figures

from parlour.bots.simulation import Batch, simulate
from parlour.core.registry import load_game
from parlour.games.venture.optimiser import OptimiserCard

SECONDS = 10.0
SEARCH: dict[str, Any] = {"games": 200, "duel_games": 4, "seconds": 0.2, "duel": 0.25}
"""The search figures' settings: issue 15's goal (ismcts:200ms against three greedy, at least 100 games each;
200 games halve the variance of a 100-game run)."""
RESULTS = Path(__file__).resolve().parent / "results.json"
PARTS = (
    "server",
    "scale",
    "speed",
    "search",
    "pages",
    "windows",
    "turns",
    "accounts",
    "analysis",
    "cluster",
    "evaluator",
    "baselines",
)
"""The parts ``--only`` measures alone, keeping the other figures of bench/results.json (``evaluator``
and ``baselines`` take hours on two cores: only ``--only`` runs them)."""


def optimiser_figures() -> dict[str, float]:
    """Median optimiser times (ms) for random hands of 8, 16, 24 corporations and the whole deck."""
    deck = load_game("venture").new_state(4, 0).deck  # type: ignore[attr-defined]
    cards = [OptimiserCard(c.name, c.industry, c.letters) for c in deck.corporations]
    return optimiser_timings(cards, sizes=(8, 16, 24), repeats=25, seed=1, deck_repeats=3)


def greedy_vs_random(games: int = 200) -> dict[str, Any]:
    """Greedy in seat 0 against three random bots over four-player games."""
    summary = simulate(
        "venture", ["greedy", "random", "random", "random"], games, seed=2026, batch=Batch(workers=2)
    )
    row = summary["seats"][0]
    return {
        "games": games,
        "win_rate": row["win_rate"],
        "ci95": row["ci95"],
        "mean_length": summary["mean_length"],
        "seconds": summary["seconds"],
    }


def main() -> None:
    """Runs every measurement (or, with ``--only PART``, one of PARTS alone, keeping the other figures
    of bench/results.json), prints it and writes bench/results.json; ``--only playouts`` and ``--only
    profiles`` print their figures alone."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument(
        "--only",
        choices=[*PARTS, "playouts", "profiles"],
        help="measure only this part",
    )
    results: dict[str, Any]
    only = parser.parse_args().only
    if only == "playouts":
        playout_ratios({}, seconds=5.0)
        return
    if only == "profiles":
        print_profiles(seconds=5.0, top=12)
        return
    if only in PARTS:
        results = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
        if only == "server":
            server_bench(results)
        elif only == "pages":
            page_weight_figures(results)
        elif only == "speed":
            results["speed"] = speed_table(SECONDS / 2)
        elif only == "search":
            search_figures(results, **SEARCH)
        elif only == "evaluator":
            evaluator_figures(results)
        elif only == "baselines":
            baseline_figures(results)
        elif only == "windows":
            window_bench(results)
        elif only == "turns":
            turns_bench(results)
        elif only == "accounts":
            accounts_bench(results)
        elif only == "analysis":
            analysis_figures(results)
        elif only == "cluster":
            cluster_bench(results)
        else:
            scale_figures(results)
        RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {RESULTS}")
        return
    results = {"python": platform.python_version(), "machine": platform.machine()}
    print(f"Random playouts, {SECONDS:g} s each, one core:")
    results["venture_playout"] = random_playouts("venture", 4, SECONDS, checked=False)
    results["venture_playout_checked"] = random_playouts("venture", 4, SECONDS, checked=True)
    for name in ("python_block_dominoes", "gin_rummy"):
        results[f"openspiel_{name}"] = openspiel_playouts(name, SECONDS)
    for key in (
        "venture_playout",
        "venture_playout_checked",
        "openspiel_python_block_dominoes",
        "openspiel_gin_rummy",
    ):
        value = results[key]
        if isinstance(value, dict):
            print(
                f"  {key:36s} {value['actions_per_second']:>9,.0f} actions/s"
                f" {value['games_per_second']:>8,.1f} games/s"
            )
        else:
            print(f"  {key:36s} {value}")
    playout_ratios(results, SECONDS / 2)
    print("Issue 15's speed table (every figure from this one run):")
    results["speed"] = speed_table(SECONDS / 2)
    print("Reorganisation optimiser, median ms:")
    results["optimiser_ms"] = optimiser_figures()
    for size, ms in results["optimiser_ms"].items():
        print(f"  {size:>5} corporations: {ms:8.1f} ms")
    print("Greedy against three random bots (four players):")
    results["greedy_vs_random"] = greedy_vs_random()
    g = results["greedy_vs_random"]
    print(
        f"  win rate {g['win_rate']:.1%} (95% CI {g['ci95'][0]:.1%}–{g['ci95'][1]:.1%})"
        f" over {g['games']} games"
    )
    boss_figures(results)
    venus_figures(results)
    env_figures(results)
    search_figures(results, **SEARCH)
    scale_figures(results)
    server_bench(results)
    page_weight_figures(results)
    window_bench(results)
    turns_bench(results)
    accounts_bench(results)
    analysis_figures(results)
    cluster_bench(results)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")


WINDOW_SETTINGS: tuple[tuple[str, list[str]], ...] = (
    ("playable", []),
    ("playable, nobody else watching", ["--no-spectators"]),
    ("only Deflector Shield", ["--ask", "only:Deflector Shield"]),
    ("only Deflector Shield, nobody else watching", ["--ask", "only:Deflector Shield", "--no-spectators"]),
    ("never", ["--ask", "never"]),
)
"""The person's settings the window bench plays the same game with (each game in its own process)."""


def window_bench(results: dict[str, Any]) -> None:
    """Measures the share of a game's time in reaction windows (bench/window_bench.py), one game per
    setting, all at once (each takes its real time, some 6 to 10 minutes)."""
    import subprocess

    print("Reaction windows: Enhanced Venus Needs Men!, one person (2 s a turn's decision, 1.5 s a window's)")
    print("and three greedy bots, seed 7, at the server's pace:")
    script = str(Path(__file__).resolve().parent / "window_bench.py")
    running = [
        (label, subprocess.Popen([sys.executable, script, *extra], stdout=subprocess.PIPE, text=True))
        for label, extra in WINDOW_SETTINGS
    ]
    results["windows"] = {}
    for label, process in running:
        out, _ = process.communicate()
        found = json.loads(out)
        game = found["games"][0]
        results["windows"][label] = found
        print(
            f"  {label:44s} windows {game['window_seconds']:6.1f} s of {game['seconds']:6.1f} s"
            f" ({game['window_share']:.0%}), {game['windows']} windows,"
            f" the person asked in {game['person_asked']}"
        )


PLAYOUT_TABLES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("venture", 4, {}),
    ("im-the-boss", 4, {}),
    ("venus-needs-men", 4, {"game": "basic"}),
    ("venus-needs-men", 4, {"game": "enhanced"}),
    ("embers", 4, {}),
)
"""The tables whose random playouts are compared with OpenSpiel's (four players, each game and mode)."""


def playout_ratios(results: dict[str, Any], seconds: float) -> None:
    """Random playouts of every game and mode beside OpenSpiel's python_block_dominoes in one run, as
    ratios of actions per second, and the copies (clone, determinize) search makes, per second."""
    from playouts import copies_per_second

    base = openspiel_playouts("python_block_dominoes", seconds)
    if not isinstance(base, dict):
        print(f"  python_block_dominoes {base}")
        return
    print(
        f"Random playouts, {seconds:g} s each, ratio to python_block_dominoes"
        f" ({base['actions_per_second']:,.0f} actions/s):"
    )
    for name, players, options in PLAYOUT_TABLES:
        label = name + "".join(f" {v}" for v in options.values())
        row = random_playouts(name, players, seconds, False, options)
        row["ratio"] = row["actions_per_second"] / base["actions_per_second"]
        row.update(copies_per_second(name, players, options))
        results[f"ratio {label}"] = row
        print(
            f"  {label:28s} {row['actions_per_second']:>9,.0f} actions/s  ratio {row['ratio']:.2f}"
            f"  clone {row['clones_per_second']:>8,.0f}/s"
            f"  determinize {row['determinizations_per_second']:>7,.0f}/s"
        )


def server_bench(results: dict[str, Any]) -> None:
    """Measures the table server at its own pace (the latency goal) and flat out (throughput)."""
    print("Table server, 50 tables of random bots at once, a spectator socket on each (20 s):")
    for key, think, pass_delay in (("server", 0.6, 1.5), ("server_flat_out", 0.05, 0.05)):
        results[key] = server_figures(50, 20.0, think=think, pass_delay=pass_delay)
        print(f"  {key}: " + ", ".join(f"{k} {v}" for k, v in results[key].items()))


CLUSTER: dict[str, Any] = {"tables": 150, "seconds": 30.0}
"""The cluster part's settings: issue 34's 150 tables of bots, each with a spectator, over 30 s."""


def cluster_bench(results: dict[str, Any]) -> None:
    """Measures 150 tables of bots on one server (SQLite), then on three nodes over PostgreSQL and Redis
    (bench/cluster_bench.py): update latency, moves stored per second, takeover of a killed node."""
    print(
        f"Cluster: {CLUSTER['tables']} tables of random bots, a spectator each, {CLUSTER['seconds']:g} s;"
        " one server on SQLite, then three nodes (PostgreSQL, Redis), spectators off the owner:"
    )
    found = results["cluster"] = bots_figures(CLUSTER["tables"], CLUSTER["seconds"])
    for label in ("one server (SQLite)", "three nodes (PostgreSQL, Redis)"):
        row = found[label]
        print(
            f"  {label:32s} update latency median {row['latency_ms_median']} ms,"
            f" p99 {row['latency_ms_p99']} ms (goal under 50 ms);"
            f" {row['moves_stored_per_second']} moves stored/s"
        )
    print(
        f"  a killed node's tables all another's {found['takeover_seconds_after_the_lease']} s after its"
        f" lease ran out (in real time: lease {found['lease_seconds']:g} s + up to one renewal,"
        f" {found['renew_seconds']:g} s)"
    )


def turns_bench(results: dict[str, Any]) -> None:
    """Measures turn-based tables at scale (bench/turns_bench.py): deadline to auto action, status p99."""
    print("Turn-based tables: 5,000 in the database, a real server; 100 deadlines pass 0.05 s apart:")
    found = results["turns"] = turns_figures(5000, 100, 2000)
    print(
        f"  deadline to auto action: median {found['deadline_to_action_median_s']} s,"
        f" p99 {found['deadline_to_action_p99_s']} s, max {found['deadline_to_action_max_s']} s"
        f" ({found['acted']} of {found['due']} acted; goal under 2 s)"
    )
    print(
        f"  GET /api/tables/T/status over {found['status_requests']} random tables:"
        f" median {found['status_p50_ms']} ms, p99 {found['status_p99_ms']} ms"
        f" (server start with {found['tables']} tables: {found['server_start_seconds']} s)"
    )


def accounts_bench(results: dict[str, Any]) -> None:
    """Measures "my games" and the table page over 10,000 accounts and 5,000 turn-based tables
    (bench/accounts_bench.py): p50 and p99 of each request (goal: p99 under 50 ms)."""
    print("My games: 10,000 accounts, 5,000 turn-based tables of four kept seats, a real server:")
    found = results["accounts"] = accounts_figures(10_000, 5_000, 2_000)
    for name, what in (
        ("me_tables", "GET /api/me/tables"),
        ("games_page", "GET /games"),
        ("table_page", "GET /t/T"),
        ("first_view", "a seat's first view over the WebSocket (account hello)"),
    ):
        print(
            f"  {what}: p50 {found[f'{name}_p50_ms']} ms, p99 {found[f'{name}_p99_ms']} ms"
            f" ({found['requests']} requests; goal p99 under 50 ms)"
        )
    print(
        f"  first views of tables in memory: p50 {found['first_view_in_memory_p50_ms']} ms,"
        f" p99 {found['first_view_in_memory_p99_ms']} ms; of tables read from storage at their first"
        f" opening ({found['first_views_from_storage']}): p50 {found['first_view_from_storage_p50_ms']} ms,"
        f" p99 {found['first_view_from_storage_p99_ms']} ms"
    )
    print(
        f"  {found['tables_listed_mean']} tables an account on average;"
        f" server start {found['server_start_seconds']} s, database filled in {found['fill_seconds']} s"
    )


def boss_figures(results: dict[str, Any]) -> None:
    """Measures and prints I'm the Boss!'s figures into ``results``."""
    print("I'm the Boss! random playouts (five players, default options), one core:")
    for key, checked in (("boss_playout", False), ("boss_playout_checked", True)):
        value = results[key] = random_playouts("im-the-boss", 5, SECONDS, checked)
        print(
            f"  {key:36s} {value['actions_per_second']:>9,.0f} actions/s"
            f" {value['games_per_second']:>8,.1f} games/s"
        )
    tables = (
        ("boss_greedy_vs_random", ["greedy", "random", "random", "random", "random"], 200),
        ("boss_greedy_only", ["greedy"] * 5, 1000),
    )
    for key, seats, games in tables:
        g = results[key] = bot_games(seats, games, seed=2026)
        print(
            f"  {','.join(seats)} x {games}: seat 0 wins {g['seat0_win_rate']:.1%}"
            f" (95% CI {g['seat0_ci95'][0]:.1%}–{g['seat0_ci95'][1]:.1%});"
            f" {g['negotiations']} negotiations, mean {g['mean_negotiation_actions']:.1f} actions,"
            f" longest {g['longest_negotiation_actions']}, {g['deals_closed_rate']:.1%} closed;"
            f" {g['mean_turns']:.1f} turns a game"
        )


def venus_figures(results: dict[str, Any]) -> None:
    """Measures and prints Venus Needs Men!'s figures into ``results``."""
    print("Venus Needs Men! random playouts (four players), one core:")
    for version in ("basic", "enhanced"):
        key = f"venus_playout_{version}"
        value = results[key] = random_playouts("venus-needs-men", 4, SECONDS, False, {"game": version})
        print(
            f"  {key:36s} {value['actions_per_second']:>9,.0f} actions/s"
            f" {value['games_per_second']:>8,.1f} games/s"
        )
    seats = ["greedy", "random", "random", "random"]
    summary = simulate("venus-needs-men", seats, 200, seed=2026, batch=Batch(workers=2))
    row = summary["seats"][0]
    results["venus_greedy_vs_random"] = {
        "games": 200,
        "win_rate": row["win_rate"],
        "ci95": row["ci95"],
        "mean_turns": summary["mean_turns"],
        "seconds": summary["seconds"],
    }
    low, high = row["ci95"]
    print(
        f"  greedy against three random bots (Basic): win rate {row['win_rate']:.1%}"
        f" (95% CI {low:.1%}–{high:.1%})"
        f" over 200 games, {summary['mean_turns']:.1f} turns a game"
    )


def env_figures(results: dict[str, Any]) -> None:
    """Measures environment throughput and ISMCTS iterations per game (four players): PettingZoo steps
    beside PettingZoo's own connect_four_v3, measured just before each game in the same run (a shared
    machine's load changes), with the ratio."""
    from envs_bench import connect_four_steps, ismcts_iterations, openspiel_steps, pettingzoo_steps

    print("Environments and search (four players, default options; connect_four_v3 beside each game):")
    for name in ("venture", "im-the-boss", "venus-needs-men", "embers"):
        yardstick = connect_four_steps(SECONDS / 4)
        row: dict[str, Any] = {
            "pettingzoo_steps_per_second": pettingzoo_steps(name, 4, SECONDS / 2),
            "connect_four_v3_steps_per_second": yardstick,
            "openspiel_steps_per_second": openspiel_steps(name, 4, SECONDS / 2),
            "ismcts_iterations_per_second": ismcts_iterations(name, 4),
        }
        ratio = f" (connect_four_v3 {yardstick})"
        if isinstance(yardstick, float):
            row["pettingzoo_ratio_to_connect_four_v3"] = row["pettingzoo_steps_per_second"] / yardstick
            ratio = f" ({row['pettingzoo_ratio_to_connect_four_v3']:.2f}x connect_four_v3's {yardstick:,.0f})"
        results[f"envs_{name}"] = row
        print(
            f"  {name:16s} PettingZoo {row['pettingzoo_steps_per_second']:>8,.0f} steps/s{ratio}"
            f"  OpenSpiel {row['openspiel_steps_per_second']:>8,.0f} steps/s"
            f"  ISMCTS {row['ismcts_iterations_per_second']:>6,.0f} iterations/s"
        )


if __name__ == "__main__":
    main()

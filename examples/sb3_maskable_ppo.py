"""Trains sb3-contrib's MaskablePPO for one seat of a Parlour game against Parlour's bots, then plays
games with the trained policy (docs/environments.md, "Training in one line").

    python examples/sb3_maskable_ppo.py venture --steps 50000 --games 200 --export venture-policy.npz
    python examples/sb3_maskable_ppo.py venture --opponents greedy --imitate 200 --steps 100000

``--imitate N`` first teaches the policy by imitation: it plays N games in which a teacher bot
(``--teacher``, default greedy) takes the learner's seat, and fits the policy to the teacher's choices
(cross-entropy over the legal ids), before PPO trains on from there.

``--export`` writes the trained policy as a ``parlour-policy/1`` file, which Parlour plays as its
``learned`` bot once it lies at ``parlour/bots/data/policies/GAME.npz`` (docs/environments.md).

Needs the ``rl`` extra and sb3-contrib (``pip install 'parlour[rl]' sb3-contrib``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import parlour.envs  # noqa: F401  (registers parlour/Venture-v0, parlour/ImTheBoss-v0, parlour/VenusNeedsMen-v0)
from parlour.bots.networks import Network
from parlour.bots.policies import FORMAT
from parlour.bots.registry import make_bot
from parlour.envs.registration import ENV_IDS
from parlour.envs.single_seat import SingleSeatEnv


def export(model: MaskablePPO, game: str, path: Path, about: dict[str, object]) -> None:
    """Writes the policy's network (two tanh layers, then one logit a catalogue id) as parlour-policy/1."""
    state = {k: v.detach().cpu().numpy() for k, v in model.policy.state_dict().items()}
    layers = (
        state["mlp_extractor.policy_net.0.weight"].T,
        state["mlp_extractor.policy_net.0.bias"],
        state["mlp_extractor.policy_net.2.weight"].T,
        state["mlp_extractor.policy_net.2.bias"],
        state["action_net.weight"].T,
        state["action_net.bias"],
    )
    Network(FORMAT, game, tuple(layer.astype("float32") for layer in layers), about).save(path)


def teacher_games(
    env: gymnasium.Env[Any, Any],
    teacher: str,
    games: int,
    seed: int,
    model: MaskablePPO | None = None,
) -> tuple[np.ndarray, ...]:
    """Plays ``games`` games in which ``teacher`` names its choice for every decision of the learner's
    seat; returns the observations, masks and those choices (the data the policy imitates). With
    ``model``, the model's own choice is played instead (DAgger: the teacher labels the positions the
    learner reaches)."""
    inner = env.unwrapped
    assert isinstance(inner, SingleSeatEnv)
    observations, masks, chosen = [], [], []
    for game in range(games):
        observation, info = env.reset(seed=seed * 100_003 + 50_000 + game)
        bot = make_bot(inner.game, teacher, seed * 8 + game, options=inner.options)
        done = False
        while not done:
            state = inner.state_
            action = bot.choose(state, inner.seat)
            number = inner.adapter.ids.of([action], state.format_action)[0]
            mask = info["action_mask"] > 0
            if mask[number]:  # a choice outside the listed ids (accepted all the same) is not imitated
                observations.append(observation)
                masks.append(mask)
                chosen.append(number)
            if model is not None:
                played, _ = model.predict(observation, action_masks=mask, deterministic=True)
                number = int(played)
            observation, _, terminated, truncated, info = env.step(number)
            done = terminated or truncated
    return np.asarray(observations), np.asarray(masks), np.asarray(chosen)


def uniform_loss(data: tuple[np.ndarray, ...]) -> float:
    """Returns what a uniform guess among the legal ids would cost on the teacher's choices (the mean
    log of the number of legal ids): the loss an imitating policy must fall below."""
    return float(np.log(data[1].sum(axis=1)).mean())


def imitate(model: MaskablePPO, data: tuple[np.ndarray, ...], epochs: int = 10, batch: int = 256) -> float:
    """Fits the policy to the teacher's choices (the mean negative log-likelihood over the legal ids);
    returns the last epoch's loss."""
    policy = model.policy
    observations, masks, chosen = (torch.as_tensor(part).to(policy.device) for part in data)
    policy.set_training_mode(True)
    generator = torch.Generator().manual_seed(0)
    loss_sum = 0.0
    for _ in range(epochs):
        order = torch.randperm(len(chosen), generator=generator)
        loss_sum, batches = 0.0, 0
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            _, log_prob, _ = policy.evaluate_actions(
                observations[rows].float(), chosen[rows], action_masks=masks[rows]
            )
            loss = -log_prob.mean()
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
            loss_sum, batches = loss_sum + float(loss.detach()), batches + 1
        loss_sum /= max(batches, 1)
    policy.set_training_mode(False)
    return loss_sum


def main() -> None:
    """Trains, then reports the learner's share of the wins over ``--games`` games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(ENV_IDS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="random", help="a bot name, or one a seat, comma-separated")
    parser.add_argument("--reward", choices=("win", "score"), default="win", help="what the learner is paid")
    parser.add_argument("--steps", type=int, default=50_000, help="the learner's steps of training")
    parser.add_argument("--games", type=int, default=100, help="games played after training")
    parser.add_argument("--imitate", type=int, default=0, help="games of the teacher to imitate first")
    parser.add_argument("--teacher", default="greedy", help="the bot imitated (with --imitate)")
    parser.add_argument("--epochs", type=int, default=10, help="passes over the teacher's choices")
    parser.add_argument(
        "--dagger", type=int, default=0, help="rounds of --imitate games more, played by the policy, labelled"
    )
    parser.add_argument("--hidden", type=int, default=64, help="units in each of the two hidden layers")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--export", type=Path, help="write the trained policy here (parlour-policy/1)")
    args = parser.parse_args()
    env = gymnasium.make(
        ENV_IDS[args.game],
        players=args.players,
        opponents=args.opponents.split(","),
        seat="rotate",
        reward=args.reward,
    )
    layers = [args.hidden, args.hidden]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        seed=args.seed,
        n_steps=min(2048, max(64, args.steps)),
        policy_kwargs={"net_arch": {"pi": layers, "vf": layers}},
        verbose=0,
    )
    if args.imitate:
        data = teacher_games(env, args.teacher, args.imitate, args.seed)
        loss = imitate(model, data, args.epochs)
        print(
            f"{args.game}: imitated {args.imitate} games of {args.teacher}, {len(data[2])} choices "
            f"(loss {loss:.3f}; a uniform guess {uniform_loss(data):.3f})"
        )
        for round_ in range(1, args.dagger + 1):
            more = teacher_games(env, args.teacher, args.imitate, args.seed + round_, model)
            data = tuple(np.concatenate([old, new]) for old, new in zip(data, more, strict=True))
            loss = imitate(model, data, args.epochs)
            print(f"{args.game}: DAgger round {round_}, {len(data[2])} choices (loss {loss:.3f})")
    if args.steps:
        model.learn(total_timesteps=args.steps)
    wins = 0.0
    judge = gymnasium.make(  # the games after training are judged by the win, whatever the pay was
        ENV_IDS[args.game], players=args.players, opponents=args.opponents.split(","), seat="rotate"
    )
    for game in range(args.games):
        observation, info = judge.reset(seed=args.seed * 100_003 + game)
        done = False
        while not done:
            action, _ = model.predict(observation, action_masks=info["action_mask"] > 0, deterministic=True)
            observation, reward, terminated, truncated, info = judge.step(int(action))
            done = terminated or truncated
        wins += float(reward)
    print(f"{args.game}: after {args.steps} steps, {wins / args.games:.3f} of the wins in {args.games} games")
    if args.export:
        # The command as run, but for where the file went (a path of the machine that trained it).
        kept = [
            a
            for i, a in enumerate(sys.argv[1:])
            if a != "--export" and sys.argv[i] != "--export" and not a.startswith("--export=")
        ]
        command = "python examples/sb3_maskable_ppo.py " + " ".join(kept)
        about = {
            "command": command,
            "seed": args.seed,
            "steps": args.steps,
            "opponents": args.opponents,
            "players": args.players,
            "reward": args.reward,
            "imitated": args.imitate,
            "teacher": args.teacher if args.imitate else None,
            "epochs": args.epochs if args.imitate else None,
            "dagger": args.dagger if args.imitate else None,
            "hidden": args.hidden,
        }
        export(model, args.game, args.export, about)


if __name__ == "__main__":
    main()

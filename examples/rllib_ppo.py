"""Trains RLlib's PPO (with RLlib's action-masking module) for one seat of a Parlour game against
Parlour's bots on a local Ray (docs/environments.md, "Training in one line").

    python examples/rllib_ppo.py venture --iterations 20

Needs the ``rl`` extra, PyTorch and RLlib (``pip install 'parlour[rl]' torch 'ray[rllib]'``).
"""

from __future__ import annotations

import argparse

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from parlour.envs.registration import ENV_IDS
from parlour.envs.single_seat import SingleSeatEnv


def make_env(config: dict[str, object]) -> SingleSeatEnv:
    """Returns the environment RLlib asks for: the observation as RLlib's masking module reads it."""
    settings = dict(config)
    return SingleSeatEnv(observations="dict", **settings)  # type: ignore[arg-type]


def main() -> None:
    """Trains for ``--iterations`` PPO iterations and prints each one's mean episode return."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(ENV_IDS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="random", help="a bot name, or one a seat, comma-separated")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--batch", type=int, default=4000, help="the learner's steps per iteration")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    register_env("parlour", make_env)
    config = (
        PPOConfig()
        .environment(
            "parlour",
            env_config={
                "game_name": args.game,
                "players": args.players,
                "opponents": args.opponents.split(","),
            },
        )
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
        .env_runners(num_env_runners=0)
        .training(train_batch_size=args.batch, minibatch_size=min(128, args.batch), num_epochs=2)
        .debugging(seed=args.seed)
    )
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        algo = config.build_algo()
        for iteration in range(1, args.iterations + 1):
            result = algo.train()
            mean = result.get("env_runners", {}).get("episode_return_mean")
            print(f"{args.game}: iteration {iteration}, mean episode return {mean}", flush=True)
        algo.stop()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()

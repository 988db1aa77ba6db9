"""SCOUT for reinforcement learning: a PettingZoo AEC environment (extra `rl`; docs/rl.md).

    from scoutlab.rl import env
    game = env("official", players=4)
    game.reset(seed=1)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        game.step(None if terminated else game.action_space(agent).sample(obs["action_mask"]))

and `Games`, many games stepped at once for self-play, in arrays made once (rl/batch.py).
"""

from scoutlab.rl.batch import Games
from scoutlab.rl.encoding import Encoding
from scoutlab.rl.env import env, raw_env

__all__ = ["Encoding", "Games", "env", "raw_env"]

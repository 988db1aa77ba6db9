"""scoutlab: the card game SCOUT with its rules as data.

The package is in layers, each importing only the ones below it (docs/architecture.md):
base (shared values and errors) < engine (cards, actions, state) < host (plugins) < spec
(variant files) < rules (the compiler) < text (words for people) < the clients: records,
bots, match, protocol, play, web, sim, rl, testing, commands and cli. docs/api.md lists
the public names.
"""

from scoutlab import _moved

__version__ = "0.1.0"

_moved.install()

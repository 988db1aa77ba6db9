"""scoutlab: the card game SCOUT with its rules as data."""

__version__ = "0.1.0"

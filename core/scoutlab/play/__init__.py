"""Playing a match against bots in the terminal (`scoutlab play`): terminal.py runs it, screen.py draws it."""

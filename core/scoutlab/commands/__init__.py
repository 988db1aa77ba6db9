"""The subcommands of `scoutlab`, one module each (see scoutlab.cli)."""

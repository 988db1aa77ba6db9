"""The plugin host: the hookspecs, finding and loading plugins, guarding their answers, and the official rules as the `builtin` plugin."""

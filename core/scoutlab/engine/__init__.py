"""The engine: cards, actions and their notation, the compiled legal-action loop, and the game state.

It plays whatever a compiled `scoutlab.rules.Rules` says and knows no file, screen, plugin
manager or process pool: those are above it. `state.GameState` is the one way to play.
"""

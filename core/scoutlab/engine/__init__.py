"""The engine: cards, actions and their notation, the compiled legal-action loop, and the game state.

It plays whatever compiled rules say, through its own typed contract (`contract.CompiledRules`,
which `scoutlab.rules.Rules` fulfils), and knows no file, screen, plugin manager or process
pool: those are above it. `state.GameState` is the one way to play.
"""

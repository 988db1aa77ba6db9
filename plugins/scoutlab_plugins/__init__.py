"""House-rule plugins shipped with scoutlab as examples; each is a module of hook implementations."""

"""A plugin that implements every hook and changes nothing: it measures what the hooks cost.

A spec that lists `noop` plays exactly the rules it would play without it, but the
engine can no longer use its integer fast path for shows (a plugin implements the
show hooks), calls the observer after every action, and asks for score adjustments
at every round end. Comparing a benchmark with and without it gives the hook overhead.
"""

from __future__ import annotations

from scoutlab.hookspecs import hookimpl

summary = "changes nothing; it makes the engine call every hook, to measure their cost"


@hookimpl
def scoutlab_classify_show(values):
    return None


@hookimpl
def scoutlab_show_beats(show, active):
    return None


@hookimpl
def scoutlab_end_conditions():
    return None


@hookimpl
def scoutlab_score_round(state, end):
    return None


@hookimpl
def scoutlab_game_event(event, state):
    return None


@hookimpl
def scoutlab_bots():
    return None

"""Holding plugins to account: a hook implementation that raises, or answers with the wrong
kind of value, is reported by plugin name, hook and what it was asked.

`guard(pm)` wraps every hook implementation of every plugin but `builtin` (the official
rules are trusted and stay on the fast path) so that a failure becomes a `HookError`.
The engine adds the position (variant, round, turn, seat, action) when the error passes
through `GameState.legal_actions` or `GameState.apply`, and puts the state back as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

from scoutlab.base.errors import PLUGIN_FAILURES, HookError
from scoutlab.base.limits import excerpt
from scoutlab.base.values import EndCondition, RoundEnd

TRUSTED = "builtin"


def _kind_string(value: Any, kwargs: dict[str, Any]) -> str | None:
    return None if isinstance(value, str) else "expected a kind string such as 'set', 'run' or 'invalid'"


def _boolean(value: Any, kwargs: dict[str, Any]) -> str | None:
    return None if isinstance(value, bool) else "expected True or False"


#: The most a plugin may add to or take from a seat's round score: a total of 10**5000 breaks every statistic read from it.
MAX_ADJUSTMENT = 1_000_000


def _score_adjustments(value: Any, kwargs: dict[str, Any]) -> str | None:
    players = kwargs["state"].players
    ints = isinstance(value, (list, tuple)) and all(type(x) is int and -MAX_ADJUSTMENT <= x <= MAX_ADJUSTMENT for x in value)
    return None if ints and len(value) == players else (
        f"expected a list of {players} ints, one per seat, each from {-MAX_ADJUSTMENT:,} to {MAX_ADJUSTMENT:,}")


def _end_conditions(value: Any, kwargs: dict[str, Any]) -> str | None:
    ok = isinstance(value, dict) and all(
        isinstance(name, str) and isinstance(c, EndCondition) and callable(c.check) for name, c in value.items()
    )
    return None if ok else "expected a dict of name -> EndCondition(check, exempts_last_show_owner, description)"


def _bot_factories(value: Any, kwargs: dict[str, Any]) -> str | None:
    ok = isinstance(value, dict) and all(isinstance(n, str) and callable(f) for n, f in value.items())
    return None if ok else "expected a dict of bot name -> factory(rules, rng, options)"


def _nothing(value: Any, kwargs: dict[str, Any]) -> str | None:
    return "expected None: observers return nothing"


CHECKS: dict[str, Callable[[Any, dict[str, Any]], str | None]] = {
    "scoutlab_classify_show": _kind_string,
    "scoutlab_show_beats": _boolean,
    "scoutlab_end_conditions": _end_conditions,
    "scoutlab_score_round": _score_adjustments,
    "scoutlab_game_event": _nothing,
    "scoutlab_bots": _bot_factories,
}


def describe_arguments(kwargs: dict[str, Any]) -> str:
    """The arguments a person needs to reproduce the call; the whole state would drown them."""
    shown = []
    for key, value in kwargs.items():
        if key == "event":
            details = ", ".join(f"{k}={_brief(v)}" for k, v in value.data.items())
            shown.append(f"event={value.kind}" + (f" ({details})" if details else ""))
        elif key != "state":
            shown.append(f"{key}={_brief(value)}")
    return ", ".join(shown)


def _brief(value: Any) -> str:
    if isinstance(value, RoundEnd):  # its counts per seat are in the state; the outcome is what matters
        return f"round {value.round + 1} ended by {value.reason}, scores {list(value.scores)}"
    return repr(value)


# -- wrapping ------------------------------------------------------------------------------------------


def guard(pm: pluggy.PluginManager) -> pluggy.PluginManager:
    """Wrap every hook implementation in `pm` but the trusted built-in rules'; returns `pm`."""
    for caller in vars(pm.hook).values():
        if not isinstance(caller, pluggy.HookCaller):
            continue
        for impl in caller.get_hookimpls():
            if impl.plugin_name != TRUSTED and not (impl.hookwrapper or impl.wrapper):
                # pluggy offers no way to wrap an implementation, and marks the attribute final.
                impl.function = _guarded(impl.plugin_name, caller.name, impl.argnames, impl.function)  # type: ignore[misc]
    return pm


def _guarded(plugin: str, hook: str, argnames: tuple[str, ...], function: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        result = call_checked(plugin, hook, function, argnames, dict(zip(argnames, args)))
        if hook == "scoutlab_end_conditions" and result is not None:
            return {name: _guarded_condition(plugin, name, c) for name, c in result.items()}
        return result

    # The engine calls observers and score adjusters unwrapped, checking them itself (call_checked).
    call.__wrapped__ = function  # type: ignore[attr-defined]
    return call


def call_checked(plugin: str, hook: str, function: Callable[..., Any], argnames: tuple[str, ...], arguments: dict[str, Any]) -> Any:
    """Call an unwrapped hook implementation as pluggy would, with the checks of `guard`."""
    try:
        result = function(*map(arguments.__getitem__, argnames))
    except HookError:
        raise  # already names its plugin (e.g. a game played inside an observer)
    except PLUGIN_FAILURES as exc:
        raise raised(plugin, hook, arguments, exc) from exc
    if result is not None:  # None, no answer, is always allowed: the usual case costs no check
        error = wrong_answer(plugin, hook, arguments, result)
        if error:
            raise error
    return result


def raised(plugin: str, hook: str, arguments: dict[str, Any], exc: BaseException) -> HookError:
    """The error for a hook implementation that raised `exc` when called with `arguments`."""
    return HookError(plugin, hook, describe_arguments(arguments), f"raised {type(exc).__name__}: {exc}")


def wrong_answer(plugin: str, hook: str, arguments: dict[str, Any], result: Any) -> HookError | None:
    """The error for an answer of the wrong kind (None is never one: it means no answer), else None."""
    check = CHECKS.get(hook)
    problem = None if result is None or check is None else check(result, arguments)
    return HookError(plugin, hook, describe_arguments(arguments), f"returned {_answer(result)}; {problem}") if problem else None


def _answer(value: Any) -> str:
    """What a hook returned, quoted short: a list item by item, so a 5,000-digit score is named, not printed (or refused
    by Python's own digit cap, which repr() of it raises)."""
    if isinstance(value, (list, tuple)) and len(value) <= 20:
        items = ", ".join(excerpt(item) for item in value)
        return f"[{items}]" if isinstance(value, list) else f"({items}{',' * (len(value) == 1)})"
    return excerpt(value, 200)


def _guarded_condition(plugin: str, name: str, condition: EndCondition) -> EndCondition:
    """An end condition's check runs after every action: a plugin's own must be held to account too."""
    check = condition.check

    def guarded_check(state: Any) -> bool:
        try:
            return bool(check(state))
        except HookError:
            raise
        except PLUGIN_FAILURES as exc:
            raise HookError(plugin, f"the check of end condition {name!r}", None,
                            f"raised {type(exc).__name__}: {exc}") from exc

    return condition._replace(check=guarded_check)

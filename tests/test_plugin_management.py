"""Plugin management: selecting and blocking plugins, `scoutlab plugins`, and a plugin that fails
mid-game reported by name, hook and position while the game state stays as it was."""

from __future__ import annotations

import random
import re
import sys

import pytest

from scoutlab.cli import main
from scoutlab.engine.state import IllegalAction
from scoutlab.host import manager as plugin_host
from scoutlab.host.guard import HookError
from scoutlab.host.hookspecs import EndCondition, hookimpl
from scoutlab.host.manager import PluginError, available_plugins, installed_plugins, make_manager
from scoutlab.testing import fingerprint, installed_plugin, rules_with

SHIPPED = {"builtin", "wrap-runs", "runs-beat-sets", "noop"}


# -- selecting and blocking ---------------------------------------------------------------------


@pytest.fixture
def clean_env(monkeypatch):
    monkeypatch.delenv("SCOUTLAB_PLUGINS", raising=False)
    monkeypatch.delenv("SCOUTLAB_BLOCK_PLUGINS", raising=False)
    return monkeypatch


def test_every_installed_plugin_is_available_by_default(clean_env):
    assert SHIPPED <= set(available_plugins()) == set(installed_plugins())


def test_scoutlab_plugins_selects_only_those(clean_env):
    clean_env.setenv("SCOUTLAB_PLUGINS", " runs-beat-sets , noop")
    assert set(available_plugins()) & SHIPPED == {"builtin", "runs-beat-sets", "noop"}
    assert plugin_host.switched_off("wrap-runs") == "not in SCOUTLAB_PLUGINS"
    with pytest.raises(PluginError, match="plugin 'wrap-runs' is switched off: not in SCOUTLAB_PLUGINS"):
        make_manager(["wrap-runs"])
    make_manager(["runs-beat-sets"])  # a selected one still loads


def test_an_empty_selection_selects_everything(clean_env):
    clean_env.setenv("SCOUTLAB_PLUGINS", " , ")
    assert plugin_host.selected_plugins() is None
    assert set(available_plugins()) == set(installed_plugins())


def test_blocking_wins_over_selecting_and_builtin_is_always_on(clean_env):
    clean_env.setenv("SCOUTLAB_PLUGINS", "wrap-runs")
    clean_env.setenv("SCOUTLAB_BLOCK_PLUGINS", "wrap-runs,builtin")
    assert plugin_host.switched_off("wrap-runs") == "blocked by SCOUTLAB_BLOCK_PLUGINS"
    assert plugin_host.switched_off("builtin") is None
    with pytest.raises(PluginError, match="'wrap-runs' is switched off: blocked by SCOUTLAB_BLOCK_PLUGINS"):
        make_manager(["wrap-runs"])
    assert make_manager([]).get_plugin("builtin") is not None


def test_a_spec_naming_a_blocked_plugin_does_not_compile(clean_env):
    from scoutlab.spec.variant import SpecError

    clean_env.setenv("SCOUTLAB_BLOCK_PLUGINS", "wrap-runs")
    with pytest.raises(SpecError, match="wrap-runs"):
        rules_with("official", ["wrap-runs"])


def test_a_misspelt_hook_or_a_wrong_argument_is_refused_by_plugin_name(clean_env):
    class Misspelt:
        @hookimpl
        def scoutlab_score_rounds(self, state, end):  # one letter too many: would never be called
            return None

    class WrongArgument:
        @hookimpl
        def scoutlab_classify_show(self, cards):
            return None

    with installed_plugin("misspelt", Misspelt()), pytest.raises(
        PluginError, match="'misspelt' implements scoutlab_score_rounds, which is not a scoutlab hook"
    ):
        make_manager(["misspelt"])
    with installed_plugin("wrong-argument", WrongArgument()), pytest.raises(
        PluginError, match=r"'wrong-argument' does not fit the scoutlab hooks.*cards"
    ):
        make_manager(["wrong-argument"])


# -- scoutlab plugins ----------------------------------------------------------------------------


def listing(capsys, *args) -> tuple[int, dict[str, str]]:
    code = main(["plugins", *args])
    table = capsys.readouterr().out.split("\n\n")[0]  # the legend follows a blank line
    return code, {line.split()[0]: line for line in table.splitlines()[1:]}


def test_plugins_lists_each_with_its_distribution_version_and_hooks(clean_env, capsys):
    from scoutlab import __version__

    code, rows = listing(capsys)
    assert code == 0
    assert set(rows) >= SHIPPED
    assert f"scoutlab {__version__}" in rows["runs-beat-sets"]
    assert rows["runs-beat-sets"].split()[-1] == "show_beats"
    assert "classify_show, show_beats, end_conditions" in rows["builtin"]
    assert "classify_show, show_beats, end_conditions, score_round, game_event, bots" in rows["noop"]
    assert "wrap-runs" in rows and "classify_show" in rows["wrap-runs"]  # hooks of what make_plugin({}) makes


def test_plugins_shows_blocked_and_unselected_ones_without_loading_them(clean_env, capsys):
    clean_env.setenv("SCOUTLAB_BLOCK_PLUGINS", "noop")
    clean_env.setenv("SCOUTLAB_PLUGINS", "wrap-runs,noop")
    _, rows = listing(capsys)
    assert " blocked " in rows["noop"] and rows["noop"].rstrip().endswith("-")
    assert " not selected " in rows["runs-beat-sets"]
    assert " allowed " in rows["wrap-runs"] and " always " in rows["builtin"]


def test_plugins_names_a_name_no_plugin_has_and_reads_names_one_a_line(clean_env, capsys):
    clean_env.setenv("SCOUTLAB_BLOCK_PLUGINS", "WRAP-RUNS\nnoop")  # blocked nothing, and said nothing
    clean_env.setenv("SCOUTLAB_PLUGINS", "wrap-runs noop  runs-beat-sets,builtin")
    code = main(["plugins"])
    out = capsys.readouterr().out
    assert code == 0 and " blocked " in next(line for line in out.splitlines() if line.startswith("noop"))
    assert out.endswith("SCOUTLAB_BLOCK_PLUGINS names 'WRAP-RUNS', which is no installed plugin; did you mean 'wrap-runs'?\n")
    assert " allowed " in next(line for line in out.splitlines() if line.startswith("runs-beat-sets"))


class _Unloadable:
    """An installed entry point whose module cannot be imported."""

    name, dist, value = "unloadable", None, "nowhere:thing"

    def load(self):
        raise ImportError("No module named 'nowhere'")


def test_plugins_reports_a_plugin_that_fails_to_load_and_exits_1(clean_env, capsys):
    class Broken:
        def make_plugin(self, config):
            raise RuntimeError("cannot work today")

    real = plugin_host.installed_plugins
    clean_env.setattr(plugin_host, "installed_plugins", lambda: {**real(), "unloadable": _Unloadable()})
    with installed_plugin("local-one", Broken()):
        code, rows = listing(capsys)
    assert code == 1
    assert "failed to load: ImportError: No module named 'nowhere'" in rows["unloadable"]
    assert " allowed " in rows["local-one"] and "(not installed)" in rows["local-one"]  # no distribution


# -- a plugin that fails during a game ------------------------------------------------------------


class Fails:
    """Implements one hook, which raises (or answers `answer`) while `armed` is set."""

    def __init__(self, hook: str, answer=None, raises: bool = True, error: BaseException | None = None):
        self.armed, self.answer, self.raises = True, answer, raises
        self.error = error or ZeroDivisionError("the house rule divided by zero")
        fail = self.fail

        def scoutlab_classify_show(values):
            return fail()

        def scoutlab_show_beats(show, active):
            return fail()

        def scoutlab_score_round(state, end):
            return fail()

        def scoutlab_game_event(event, state):
            return fail() if event.kind == "round_end" else None

        def scoutlab_end_conditions():
            return {"never": EndCondition(lambda state: fail(False), False, "never, unless armed")}

        implementations = {
            "scoutlab_classify_show": scoutlab_classify_show,
            "scoutlab_show_beats": scoutlab_show_beats,
            "scoutlab_score_round": scoutlab_score_round,
            "scoutlab_game_event": scoutlab_game_event,
            "scoutlab_end_conditions": scoutlab_end_conditions,
        }
        setattr(self, hook, hookimpl(implementations[hook]))  # only this one hook is registered

    def fail(self, default=None):
        if not self.armed:
            return default
        if self.raises:
            raise self.error
        return self.answer


def play_until_failure(rules, players: int = 4, seed: int = 3, set_by_hand: bool = False):
    """Random play until a plugin error: return the state, the code that failed and the error.

    `set_by_hand`: mark the state as a position does (refresh), so undo cannot replay the
    seed and must use its snapshot.
    """
    state = rules.new_game(players, seed)
    if set_by_hand:
        state.refresh()
    rng = random.Random(seed)
    while not state.is_over:
        try:
            legal = state.legal_actions()
        except HookError as exc:
            return state, None, exc
        code = rng.choice(legal)
        before = fingerprint(state)
        try:
            state.apply(code)
        except HookError as exc:
            assert fingerprint(state) == before, "a plugin error mid-action left the state changed"
            return state, code, exc
    raise AssertionError("the plugin never failed")


@pytest.mark.parametrize("hook, asked", [
    ("scoutlab_classify_show", "values=("),
    ("scoutlab_show_beats", "show=ShowInfo(values=("),
])
def test_a_show_hook_that_raises_is_named_with_what_it_was_asked_and_where(clean_env, hook, asked):
    with installed_plugin("fragile", Fails(hook)):
        rules = rules_with("official", ["fragile"])
        state, _code, error = play_until_failure(rules)
    text = str(error)
    assert text.startswith(f"plugin 'fragile' raised ZeroDivisionError: the house rule divided by zero in {hook}({asked}")
    assert f"at variant 'official+fragile' round {state.round + 1}, turn {state.turn + 1}, seat {state.to_act}" in text
    assert error.plugin == "fragile" and error.hook == hook
    assert isinstance(error.__cause__, ZeroDivisionError)


class Nested(Fails):
    """A hook whose plugin code runs a game of its own, which fails in another plugin: a HookError already."""

    def fail(self, default=None):
        if not self.armed:
            return default
        raise HookError("inner", "scoutlab_show_beats", "show=(5,)", "raised ValueError: inside")


@pytest.mark.parametrize("hook", ["scoutlab_score_round", "scoutlab_game_event"])
def test_a_plugin_error_from_inside_a_hook_passes_through_naming_its_own_plugin(clean_env, hook):
    with installed_plugin("outer", Nested(hook)):
        state, code, error = play_until_failure(rules_with("official", ["outer"]))
    assert code is not None and error.plugin == "inner" and error.hook == "scoutlab_show_beats"
    assert error.__cause__ is not error  # raised as it is, not from itself
    assert "the game state is unchanged" in str(error) and state.round_ends == []


def test_a_scoring_hook_that_raises_leaves_the_state_as_it_was_and_the_game_can_go_on(clean_env):
    plugin = Fails("scoutlab_score_round")
    with installed_plugin("fragile", plugin):
        rules = rules_with("official", ["fragile"])
        state, code, error = play_until_failure(rules)
        assert code is not None
        assert "in scoutlab_score_round(end=round 1 ended by " in str(error)
        assert f"playing {state.format(code)!r}; the game state is unchanged" in str(error)
        assert state.round_ends == [] and state.totals == [0, 0, 0, 0]
        # The same action, once the plugin behaves, plays exactly as in a game that never failed.
        plugin.armed = False
        state.apply(code)
        twin = rules.new_game(4, 3)
        for _, _, played in state.history:
            twin.apply(played)
        assert fingerprint(twin) == fingerprint(state)
        assert len(state.round_ends) == 1


@pytest.mark.parametrize("hook, where", [
    ("scoutlab_end_conditions", "in the check of end condition 'never' at"),
    ("scoutlab_game_event", "in scoutlab_game_event(event=round_end (end=round 1 ended by "),
])
def test_end_conditions_and_observers_that_raise_are_named_and_undone(clean_env, hook, where):
    with installed_plugin("fragile", Fails(hook)):
        extra = {"end_conditions": ["hand_emptied", "everyone_scouted", "never"]} if hook.endswith("conditions") else {}
        rules = rules_with("official", ["fragile"], **extra)
        _state, code, error = play_until_failure(rules)
    assert code is not None
    assert str(error).startswith("plugin 'fragile' raised ZeroDivisionError") and where in str(error)
    assert str(error).endswith("; the game state is unchanged")


@pytest.mark.parametrize("hook", ["scoutlab_classify_show", "scoutlab_score_round", "scoutlab_game_event",
                                  "scoutlab_end_conditions"])
def test_a_hook_that_calls_sys_exit_is_a_plugin_error_and_undone(clean_env, hook):
    with installed_plugin("quitter", Fails(hook, error=SystemExit(3))):  # it ended the whole run without a word
        extra = {"end_conditions": ["hand_emptied", "everyone_scouted", "never"]} if hook.endswith("conditions") else {}
        _state, code, error = play_until_failure(rules_with("official", ["quitter"], **extra))
    assert str(error).startswith("plugin 'quitter' raised SystemExit: 3 in ")
    assert code is None or str(error).endswith("; the game state is unchanged")


def test_a_plugin_that_calls_sys_exit_as_it_loads_is_named(clean_env, capsys, tmp_path):
    class Quits:
        @staticmethod
        def make_plugin(config):
            sys.exit(5)

    spec = tmp_path / "quits.yaml"
    spec.write_text("extends: official\nname: quits\nplugins: [quits]\n")
    with installed_plugin("quits", Quits()):
        code = main(["game", "--variant", str(spec), "--players", "3", "--seed", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "plugin 'quits' rejected its config {}: it called sys.exit(5)" in err and err.count("\n") == 1


@pytest.mark.parametrize("hook, answer, expected", [
    ("scoutlab_classify_show", 3, "returned 3; expected a kind string"),
    ("scoutlab_show_beats", "yes", "returned 'yes'; expected True or False"),
    ("scoutlab_score_round", [1, 2], "returned [1, 2]; expected a list of 4 ints, one per seat"),
    ("scoutlab_score_round", [1, 2, True, 4], "expected a list of 4 ints"),
    ("scoutlab_score_round", [10**5000, 0, 0, 0], "returned [a 16,610-bit number, 0, 0, 0]; expected a list of 4 ints, "
                                                  "one per seat, each from -1,000,000 to 1,000,000"),  # simulate: a traceback
    ("scoutlab_game_event", "noted", "returned 'noted'; expected None: observers return nothing"),
])
def test_an_answer_of_the_wrong_kind_is_refused_by_plugin_name(clean_env, hook, answer, expected):
    with installed_plugin("sloppy", Fails(hook, answer, raises=False)):
        rules = rules_with("official", ["sloppy"])
        _state, _code, error = play_until_failure(rules)
    assert str(error).startswith("plugin 'sloppy' ") and expected in str(error) and hook in str(error)


def test_end_conditions_of_the_wrong_kind_are_refused_when_the_spec_compiles(clean_env):
    class Listy:
        @hookimpl
        def scoutlab_end_conditions(self):
            return ["my_end"]

    with installed_plugin("listy", Listy()), pytest.raises(
        PluginError, match=r"plugin 'listy' returned \['my_end'\]; expected a dict of name"
    ):
        rules_with("official", ["listy"])


class OffersBots:
    """A scoutlab_bots hook that raises `error`, or answers `answer`."""

    def __init__(self, answer=None, error: BaseException | None = None):
        self.answer, self.error = answer, error

    @hookimpl
    def scoutlab_bots(self):
        if self.error is not None:
            raise self.error
        return self.answer


class FirstLegal:
    name = "first"

    def __init__(self, rules, rng, options):
        pass

    def act(self, view):
        return view.legal[0]


# Each way a plugin's scoutlab_bots can fail, and how the unknown-bot line and `scoutlab plugins` say it: every one
# made every command that makes a bot fail (`--bots random` too) until the plugin was blocked.
BOTS_HOOK_FAILURES = [
    (OffersBots(error=KeyError("bots.json")), "its scoutlab_bots raised KeyError: 'bots.json'"),
    (OffersBots(error=SystemExit(3)), "its scoutlab_bots raised SystemExit: 3"),
    (OffersBots(error=ValueError("line one\nline two")), "its scoutlab_bots raised ValueError: line one\\nline two"),
    (OffersBots(error=RuntimeError("x" * 5000)), "its scoutlab_bots raised RuntimeError: xxxx"),
    (OffersBots(["first"]), "its scoutlab_bots returned ['first']; expected a dict of bot name -> factory"),
    (OffersBots({"first": "not callable"}), "its scoutlab_bots returned {'first': 'not callable'}; expected a dict"),
    (OffersBots({7: FirstLegal}), "its scoutlab_bots returned {7: <class"),
]
BOTS_HOOK_IDS = ["raises", "sys-exit", "line-break", "long-text", "a-list", "not-callable", "not-a-name"]


@pytest.mark.parametrize("plugin, why", BOTS_HOOK_FAILURES, ids=BOTS_HOOK_IDS)
def test_a_bots_hook_that_fails_offers_no_bots_and_says_why_where_a_bot_is_unknown(clean_env, plugin, why):
    from scoutlab.bots import BotError, make_bot

    rules = rules_with("official")
    with installed_plugin("no-bots", plugin), installed_plugin("first-bot", OffersBots({"first": FirstLegal})):
        assert make_bot("random", rules, 1).name == "random"  # was: plugin 'no-bots' raised ... for every bot
        assert make_bot("first", rules, 1).name == "first"  # another plugin's bots are still offered
        with pytest.raises(BotError) as error:
            make_bot("rando", rules, 1)
    said = str(error.value)
    assert said.startswith("unknown bot 'rando'; did you mean 'random'? (known: external, first, greedy,")
    assert f"; plugin 'no-bots' offers no bots: {why}" in said
    assert "\n" not in said and len(said) < 500  # one line, a plugin's long text cut


@pytest.mark.parametrize("plugin, why", BOTS_HOOK_FAILURES[:1] + BOTS_HOOK_FAILURES[4:5], ids=["raises", "a-list"])
def test_plugins_reports_a_bots_hook_that_fails_and_exits_1(clean_env, capsys, plugin, why):
    with installed_plugin("no-bots", plugin):
        code, rows = listing(capsys)
    assert code == 1
    assert f" bots  (offers no bots: {why}" in rows["no-bots"]
    assert "offers no bots" not in rows["noop"]  # a hook that answers None offers nothing, and is no failure


def test_a_plugin_that_fails_to_load_is_named_where_a_bot_is_unknown(clean_env):
    from scoutlab.bots import BotError, make_bot

    real = plugin_host.installed_plugins
    clean_env.setattr(plugin_host, "installed_plugins", lambda: {**real(), "unloadable": _Unloadable()})
    rules = rules_with("official")
    assert make_bot("random", rules, 1).name == "random"
    with pytest.raises(BotError, match=re.escape(
            "; plugin 'unloadable' offers no bots: it failed to load: ImportError: No module named 'nowhere'")):
        make_bot("nowhere", rules, 1)


def test_a_bots_hook_that_does_not_fit_its_hookspec_is_named_where_a_bot_is_unknown(clean_env):
    from scoutlab.bots import BotError, make_bot

    class AsksForRules:
        @hookimpl
        def scoutlab_bots(self, rules):
            return {"first": FirstLegal}

    with installed_plugin("asks-for-rules", AsksForRules()), pytest.raises(BotError) as error:
        make_bot("first", rules_with("official"), 1)
    assert ("; plugin 'asks-for-rules' offers no bots: it does not fit the scoutlab hooks: hookimpl definition: "
            "scoutlab_bots(rules); Argument(s) {'rules'} are declared in the hookimpl but can not be found") in str(error.value)


def test_commands_that_name_none_of_a_failing_plugin_s_bots_run_as_before(clean_env, capsys):
    with installed_plugin("no-bots", BOTS_HOOK_FAILURES[0][0]):
        assert main(["compare", "official", "two-player", "--games", "4", "--workers", "1"]) == 0
        assert main(["game", "--quiet", "--bots", "greedy", "--seed", "2"]) == 0
        capsys.readouterr()
        assert main(["simulate", "official", "--games", "2", "--bots", "first"]) == 1
        err = capsys.readouterr().err
        assert err == ("scoutlab simulate: unknown bot 'first' (known: external, greedy, heuristic, mcts, network, random, "
                       "skilled); plugin 'no-bots' offers no bots: its scoutlab_bots raised KeyError: 'bots.json'\n")
        clean_env.setenv("SCOUTLAB_BLOCK_PLUGINS", "no-bots")  # switched off, it is not loaded: nothing to say of it
        assert main(["simulate", "official", "--games", "2", "--bots", "first"]) == 1
        assert capsys.readouterr().err == err.split("; plugin")[0] + "\n"


def test_the_builtin_rules_alone_keep_no_undo_snapshot(clean_env):
    assert not rules_with("official").guarded
    assert rules_with("official", ["noop"]).guarded


def test_an_illegal_action_under_a_plugin_is_still_refused_with_its_rule(clean_env):
    rules = rules_with("official", ["noop"])
    state = rules.new_game(3, 1)
    for _ in range(3):
        state.apply_text("keep")
    state.legal_actions()
    before = fingerprint(state)
    with pytest.raises(IllegalAction, match="active set"):
        state.apply_text("scout left 0")  # nothing to scout yet
    assert fingerprint(state) == before


def test_the_command_line_reports_a_failing_plugin_in_one_line(clean_env, capsys, tmp_path):
    spec = tmp_path / "fragile.yaml"
    spec.write_text("extends: official\nname: fragile-game\nplugins: [fragile]\n")
    with installed_plugin("fragile", Fails("scoutlab_score_round")):
        code = main(["game", "--variant", str(spec), "--players", "3", "--seed", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("scoutlab game: plugin 'fragile' raised ZeroDivisionError") and err.count("\n") == 1


def test_every_list_field_of_a_state_says_how_apply_undoes_it():
    """A list field `_snapshot` does not know would not be undone when a plugin fails mid-action."""
    from scoutlab.engine.state import GameState

    known = set(GameState._CHANGED + GameState._GROWING + GameState._REBOUND)
    for variant, players in [("official", 4), ("two-player", 2)]:  # two-player keeps its one shuffle in pool
        state = rules_with(variant, ["noop"]).new_game(players, 1)
        for _ in range(20):
            state.apply(state.legal_actions()[0])
        lists = {key for key, value in state.fields().items() if isinstance(value, list)}
        assert lists <= known, f"list fields {sorted(lists - known)}: add them to GameState._CHANGED, _GROWING or _REBOUND"


# -- the plugin template -----------------------------------------------------------------------------


def test_the_plugin_template_hangs_together(clean_env):
    """Without installing it (CI does that in .ci/run): its entry point names its module, whose
    plugin makes the template's spec compile and its scenario cases pass."""
    import importlib.util
    from pathlib import Path

    from scoutlab.rules import load_rules
    from scoutlab.testing import run_scenario_file

    tomllib = pytest.importorskip("tomllib")
    template = Path(__file__).resolve().parent.parent / "templates" / "scoutlab-plugin"
    project = tomllib.loads((template / "pyproject.toml").read_text())
    (name, target), = project["project"]["entry-points"]["scoutlab"].items()
    assert target in project["tool"]["setuptools"]["py-modules"]
    found = importlib.util.spec_from_file_location(target, template / f"{target}.py")
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    with installed_plugin(name, module):
        assert load_rules(str(template / f"{name}.yaml")).plugins.has_plugin(name)
        assert run_scenario_file(template / "tests" / "scenarios" / "ones.yaml") == 5


def test_a_spec_naming_a_switched_off_plugin_says_so(clean_env, monkeypatch):
    from scoutlab.spec.variant import SpecError, load_spec

    monkeypatch.setenv("SCOUTLAB_BLOCK_PLUGINS", "wrap-runs")
    with pytest.raises(SpecError, match="plugin 'wrap-runs' is installed but blocked by SCOUTLAB_BLOCK_PLUGINS"):
        load_spec("house-wrap")
    monkeypatch.delenv("SCOUTLAB_BLOCK_PLUGINS")
    monkeypatch.setenv("SCOUTLAB_PLUGINS", "noop")
    with pytest.raises(SpecError, match="plugin 'wrap-runs' is installed but not in SCOUTLAB_PLUGINS"):
        load_spec("house-wrap")


@pytest.mark.parametrize("set_by_hand", [False, True], ids=["replayed from the seed", "snapshot of a position"])
@pytest.mark.parametrize("hook", ["scoutlab_score_round", "scoutlab_game_event", "scoutlab_show_beats"])
def test_undo_after_a_failing_hook_restores_the_state_both_ways(clean_env, hook, set_by_hand):
    with installed_plugin("fragile", Fails(hook)):
        rules = rules_with("official", ["fragile"])
        state, _code, error = play_until_failure(rules, set_by_hand=set_by_hand)  # asserts the state is unchanged
    assert error.plugin == "fragile" and state._replayable is not set_by_hand


# -- a plugin's end condition and its listing ------------------------------------------------------

PLUGIN_CORPUS = sorted((ROOT := __import__("pathlib").Path(__file__).resolve().parent / "bad_specs" / "plugins").glob("*.yaml"))


class TenTurns:
    """Not what the plugin does: a class's docstring."""

    @hookimpl
    def scoutlab_end_conditions(self):
        return {"ten_turns": EndCondition(lambda state: state.turn >= 10, False, "the round ends after ten turns")}


def _lines(path, marker: str) -> list[tuple[str, int, str, str]]:
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"# {marker}: "):
            match = re.match(r"^# \w+: (?P<file>[^:]+):(?P<line>\d+): (?P<path>\$\S*): (?P<text>.+)$", line)
            assert match, line
            found.append((str(path.parent / match["file"]), int(match["line"]), match["path"], match["text"]))
    return found


def _matches(found, expected) -> bool:
    file, line, path, text = expected
    return any((f.file, f.line, f.path) == (file, line, path) and text in f.message for f in found)


@pytest.mark.parametrize("path", PLUGIN_CORPUS, ids=[p.name for p in PLUGIN_CORPUS])
def test_plugin_corpus(path, clean_env, recwarn):
    from scoutlab.rules import load_rules
    from scoutlab.spec.variant import SpecError

    expected, warned = _lines(path, "expect"), _lines(path, "warn")
    assert expected or warned, f"{path.name} names no expected problem or warning"
    with installed_plugin("ten-turns", TenTurns()):
        if expected:
            with pytest.raises(SpecError) as caught:
                load_rules(str(path))
            found = caught.value.problems
            assert len(found) == len(expected) and all(_matches(found, e) for e in expected), found
        else:
            rules = load_rules(str(path))
            assert len(rules.warnings) == len(warned) and all(_matches(rules.warnings, w) for w in warned), rules.warnings
            assert [str(w.message) for w in recwarn.list] == [str(w) for w in rules.warnings]  # said at load too


def test_validate_prints_the_warning_in_one_line_and_still_succeeds(clean_env, capsys):
    path = ROOT / "listed_without_its_end_condition.yaml"
    with installed_plugin("ten-turns", TenTurns()):
        assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == "1 file valid (1 warning)\n"
    assert err == (f"warning: {path}:5: $.plugins[0]: plugin 'ten-turns' offers the end condition 'ten_turns', but "
                   "end_conditions does not list it, so the plugin never ends a round; add it: "
                   "end_conditions: [hand_emptied, everyone_scouted, ten_turns]\n")


def test_a_command_that_loads_the_spec_warns_in_one_line(clean_env, capsys):
    path = ROOT / "listed_without_its_end_condition.yaml"
    with installed_plugin("ten-turns", TenTurns()):
        assert main(["game", "--variant", str(path), "--players", "3", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"scoutlab: warning: {path}:5: $.plugins[0]: plugin 'ten-turns' offers")


def test_a_plugin_with_its_end_condition_enabled_gets_no_warning(clean_env, recwarn):
    with installed_plugin("ten-turns", TenTurns()):
        rules = rules_with("official", ["ten-turns"], end_conditions=["hand_emptied", "ten_turns"])
    assert rules.warnings == [] and not recwarn.list


# -- a plugin's summary ---------------------------------------------------------------------------


def test_a_summary_survives_make_plugin_returning_an_object(clean_env):
    import types

    from scoutlab.text.summary import render_text, summarize

    module = types.ModuleType("ones_beat_all", "House rule: a set of 1s beats any other show.\n\nMore here.")

    class OnesBeatAll:
        @hookimpl
        def scoutlab_show_beats(self, show, active):
            return None

    module.make_plugin = lambda config: OnesBeatAll()
    module.summary = "a set of three or more 1s beats any other show"
    with installed_plugin("ones-beat-all", module):
        text = render_text(summarize(rules_with("official", ["ones-beat-all"])))
        assert "ones-beat-all: a set of three or more 1s beats any other show" in text
        del module.summary  # no summary: the module's docstring, not the class's (none) or "(no description)"
        text = render_text(summarize(rules_with("official", ["ones-beat-all"])))
        assert "ones-beat-all: House rule: a set of 1s beats any other show" in text

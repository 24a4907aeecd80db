"""Mistakes a library caller makes get a clear error of a documented kind (SpecError, or
ValueError for the game states), never a bare KeyError or IndexError from inside, and never a
quiet wrong answer."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.errors import SpecError
from terragen.safejson import MAX_SEED


def test_terraflip_unknown_policy_or_wrong_count():
    from terragen.terraflip.simulate import play_game

    with pytest.raises(SpecError, match="unknown policy 'x'"):
        play_game(3, ("x", "x", "x"), 5, None, None)
    with pytest.raises(SpecError, match="one policy per seat"):
        play_game(3, ("greedy", "random"), 5, None, None)
    # one name plays every seat, as in the other games, with the default tiles and rules
    assert play_game(3, ("greedy",), 5).log == play_game(3, ("greedy",) * 3, 5, None, None).log


def test_terralogical_simulate_checks_its_arguments():
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.simulate import play_game, simulate

    deck = default_deck().tiles
    with pytest.raises(SpecError, match="unknown policy 'x'"):
        play_game(deck, ["x", "y"], 5)
    with pytest.raises(SpecError, match="unknown policy 'x'"):
        simulate(deck, 2, 10, 1, ["x", "greedy"])
    with pytest.raises(SpecError, match="games must be"):
        simulate(deck, 2, -3, 1)  # reported -3 games and a negative first-seat advantage
    with pytest.raises(SpecError, match="policies: 2 given for 3 seats"):
        simulate(deck, 3, 10, 1, ["greedy", "random"])
    assert simulate(deck, 3, 2, 1, ["greedy"])["games"] == 2  # one name plays every seat, as in every game


def test_terralogical_state_refuses_malformed_and_illegal_actions():
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.state import GameState

    state = GameState.new(default_deck().tiles, 2, 5)  # a seed, as elsewhere in the library
    assert ("draw",) in state.legal_actions() and ("pass",) not in state.legal_actions()
    for action in [("pass",),  # placing or drawing is possible: a pass ended games early
                   ("place", 9, (6, 0), 0), ("place", 0), ("place", 0, (6, 0), 7), ("place", 0, "a1", 0),
                   (), None, ("draw", "x"), ("fly",)]:
        with pytest.raises(ValueError):
            state.apply(action)
    assert state.turns == 0 and state.history == []  # nothing refused was half done
    with pytest.raises(ValueError, match="no seat 7"):
        state.placements_for(7)
    with pytest.raises(ValueError, match="tile id, Tile"):
        GameState.new(["MfWc"], 2, 1)
    assert GameState.new(default_deck().tiles, 2, 5).hands == state.hands  # the seed decides


def test_terrace_errors_name_the_mistake():
    from terragen.terrace import Position
    from terragen.terrace.play import play_game

    start = Position.start("full")
    with pytest.raises(SpecError, match="policies for this set-up"):
        play_game(start, ["greedy"], 5)
    for square in [(0, 8), (99, 99), (-1, 0)]:  # (0, 8) read the piece on (1, 0)
        with pytest.raises(ValueError, match="off the 8x8 board"):
            start.piece_at(square)
    with pytest.raises(ValueError, match="no move to take back"):
        start.copy().pop()
    with pytest.raises(ValueError, match="no side 'left'"):
        start.objective_of("left")


def test_terraflip_returns_nothing_before_the_end_and_names_a_bad_seat():
    """returns() gave the leader of the moment 1 on a fresh game; OpenSpiel's are 0 until the end."""
    from terragen.terraflip import GameState

    game = GameState.new(3)
    assert game.returns() == [0.0, 0.0, 0.0]
    with pytest.raises(SpecError, match="no seat 9"):
        game.hand_kinds(9)


def test_terrain_entry_points_say_what_they_take():
    """validate_layout('radius: 5') said "'str' object has no attribute 'radius'" (its docstring
    promises it never raises for a bad layout; text is not a layout at all)."""
    from terragen.terrain import build_spec, simulate_layout, validate_layout

    with pytest.raises(TypeError, match="takes a Layout .*parse_layout"):
        validate_layout("radius: 5")
    with pytest.raises(TypeError, match="takes a Layout"):
        simulate_layout("board.txt")
    with pytest.raises(TypeError, match="takes a dict of spec keys"):
        build_spec("players=3")


def test_more_terrain_entry_points_say_what_they_take():
    """analyse, save_layout (arguments swapped) and generate_board (a dict of keys) raised
    AttributeError from inside."""
    from terragen.terrain import analyse, save_layout
    from terragen.terrain.generate import generate_board

    with pytest.raises(TypeError, match="analyse takes a Layout"):
        analyse("board.txt")
    with pytest.raises(TypeError, match="save_layout takes a Layout"):
        save_layout("board.txt", "board.json")
    with pytest.raises(TypeError, match="a spec is a Spec .*spec_from_dict"):
        generate_board({"players": 3})


@pytest.mark.parametrize("bad", [{"team_distance": -1}, {"team_distance": "x"}, {"turn_cap": 0},
                                 {"turn_cap": 2.5}, {"team_distance": True}])
def test_terrain_rules_refuse_settings_no_game_can_have(bad):
    from terragen.terrain.sim.variants import Rules

    with pytest.raises(ValueError, match=f"Rules.{next(iter(bad))} must be a whole number, at least 1"):
        Rules(**bad)


def test_terrain_rules_take_numpys_whole_numbers_as_before():
    import numpy as np

    from terragen.terrain.sim.variants import Rules

    rules = Rules(turn_cap=np.int64(300), team_distance=np.int32(2))
    assert (rules.turn_cap, rules.team_distance) == (300, 2) and type(rules.turn_cap) is int


@pytest.mark.parametrize("bad", [{"hand_size": 0}, {"hand_size": -1}, {"hand_size": "3"}, {"min_flock": 0},
                                 {"min_flock": None}, {"cubes_per_player": -2}])
def test_terralogical_rule_numbers_are_checked_when_made(bad):
    """hand_size=0 gave a game that stalled after three actions; '3' and None failed mid-game."""
    from terragen.terralogical import RuleOptions

    with pytest.raises(ValueError, match=f"{next(iter(bad))} must be a whole number"):
        RuleOptions(**bad)


def test_every_games_play_report_gives_win_intervals():
    """Only the Terrain Game's simulator gave an interval; the other games' shares of a few dozen
    games read as findings. Each interval holds its rate, and on six games is wide."""
    from terragen.terraflip.simulate import PlaySpec
    from terragen.terraflip.simulate import simulate as terraflip_simulate
    from terragen.terrace import Position
    from terragen.terrace.play import play_match
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.simulate import simulate as terralogical_simulate

    flip = terraflip_simulate(PlaySpec(players=2, games=6, seed=1, policies=("greedy",)))
    rates = [(s["win_rate_with_bonus"], s["win_rate_with_bonus_ci95"]) for s in flip["seats"]]
    logical = terralogical_simulate(default_deck().tiles, 2, 6, 1)
    rates += list(zip(logical["win_share"], logical["win_share_ci95"]))
    terrace = play_match(Position.start("short"), ["greedy", "greedy"], 6, 1)
    rates += [(s["win_rate"], s["win_rate_ci95"]) for s in terrace["seats"]]
    assert len(rates) == 6
    for rate, (lo, hi) in rates:
        assert 0 <= lo <= rate <= hi <= 1 and hi - lo > 0.2  # six games tell little


def test_terralogical_rule_readings_are_checked_when_made():
    from terragen.terralogical import RuleOptions

    for bad in ({"flock_ties": "dense"}, {"subsoil_rule": "light"}, {"stall_rule": "never"}):
        with pytest.raises(ValueError, match="must be"):
            RuleOptions(**bad)


def test_states_print_as_a_line_and_a_terrace_position_as_its_file():
    """Position and TerrainGame printed '<... object at 0x...>'; Terralogical's and TerraFlip's states
    thousands of characters of dataclass; Position({(0, 0): 'T'}) raised AttributeError and san()
    of a move from an empty square wrote '?a8xh1'."""
    from terragen.templates import template_path
    from terragen.terraflip.state import GameState as FlipState
    from terragen.terrace import Position
    from terragen.terrace.formats import to_text
    from terragen.terrace.model import Move
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.stepwise import TerrainGame
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.state import GameState as LogicalState
    from terragen.errors import InputError

    pos = Position.start("full")
    assert str(pos) == to_text(pos) and repr(pos) == "<Position full 8x8, top to move, 0 moves to take back>"
    states = [TerrainGame(load_layout(template_path("terrain", "examples", "two-players.txt"))),
              LogicalState.new(default_deck().tiles, 3, 1), FlipState.new(3)]
    for state in states:
        assert repr(state).startswith("<") and "\n" not in repr(state) and len(repr(state)) < 160
    with pytest.raises(InputError, match="a piece is a Piece"):
        Position({(0, 0): "T"}, to_move="top", setup="free")
    with pytest.raises(ValueError, match="no piece on e4"):
        pos.san(Move((4, 4), (3, 3)))


@pytest.mark.parametrize("game, misspelt", [("terrain", {"inventroy": None}), ("terrace", {"t_rnak": "lowest"}),
                                            ("terralogical", {"min_flok": 99}), ("terraflip", {"tower_pasable": False})])
def test_a_misspelt_validation_option_is_refused_not_ignored(game, misspelt):
    """Each game's validate_text took any keyword and checked by the default reading when one was
    misspelt (a Terralogical board scored with min_flock 2 after min_flok=99)."""
    import importlib

    module = importlib.import_module(f"terragen.{game}.validation")
    with pytest.raises(TypeError, match=next(iter(misspelt))):
        module.validate_text("", "x", **misspelt)


@pytest.mark.parametrize("game", ["terralogical", "terraflip"])
def test_a_json_list_is_read_as_json_in_every_game(game):
    """A file holding a JSON list was read as the text form ("the first line must be ...")."""
    import importlib

    from terragen.errors import InputError

    module = importlib.import_module(f"terragen.{game}.validation")
    with pytest.raises(InputError) as caught:
        module.validate_text("[1, 2]\n", "list.json")
    assert "first line" not in caught.value.message  # the text form's complaint


def test_terraflip_refuses_a_turn_order_bonus_out_of_range():
    """Only the command line checked the bonus: the library scored a seat -500 points."""
    from terragen.terraflip.rules import Options
    from terragen.terraflip.simulate import PlaySpec, simulate

    for bad in ((-500, 10**9), (1.5, 0), (True, 0)):
        with pytest.raises(SpecError, match="bonus values must be whole numbers from 0 to 1000"):
            simulate(PlaySpec(2, 3, 0, ("greedy",)), None, Options(bonus=bad))
    assert simulate(PlaySpec(2, 3, 0, ("greedy",)), None, Options(bonus=(3, 0)))["games"] == 3


def test_a_puzzle_batch_refuses_bad_settings_in_its_own_words(tmp_path):
    """run_batch's refusals name its parameters, not the command's options (which the command
    checks itself), and come before the folder is made."""
    from terragen.errors import InputError
    from terragen.terrain.puzzles.batch import run_batch

    for change, msg in (({"count": 0}, "count must be 1–100000 (got 0)"),
                        ({"kind": "maze"}, "unknown kind 'maze' (choose route, rotation, dice or mix)"),
                        ({"difficulty": "insane"}, "unknown difficulty 'insane' (choose easy, medium, hard, brutal)"),
                        ({"workers": 10**6}, "workers must be 0–")):
        settings = {"count": 2, "kind": "route", "difficulty": "easy", "seed": 1, "out": tmp_path / "b",
                    "workers": 1} | change
        with pytest.raises(InputError) as exc:
            run_batch(**settings)
        assert exc.value.message.startswith(msg) and "\n" not in exc.value.message, exc.value.message
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("command, wanted", [
    (["simulate", "{board}", "--policy", "gredy"], "unknown policy 'gredy': did you mean 'greedy'? (choose from random,"),
    (["terralogical", "play", "--policy", "carefull"], "unknown policy 'carefull': did you mean 'careful'? (choose from"),
    (["terraflip", "play", "--policy", "memroy"], "unknown policy 'memroy': did you mean 'memory'? (choose from"),
    (["terrace", "play", "--policy", "gready"], "unknown policy 'gready': did you mean 'greedy'? (choose from"),
    (["simulate", "{board}", "--variant", "nointeractions"], "unknown variant 'nointeractions': did you mean "
                                                            "'no-interactions'?"),
])
def test_an_unknown_name_reads_the_same_in_every_game_and_names_the_likely_fix(command, wanted, capsys):
    from terragen.cli import main
    from tests.terrain.helpers import EXAMPLES

    argv = [str(EXAMPLES / "four-players.txt") if a == "{board}" else a for a in command]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and wanted in err, err


@pytest.mark.parametrize("players, suggested", [(3, "0+2,1"), (5, "0+2+4,1+3")])
def test_default_teams_for_a_count_without_facing_pairs_suggests_teams_that_are_accepted(players, suggested):
    from terragen.terrain.sim.variants import rules_from_names

    said = rf"4 or 6 players only \(this layout has {players}\).*--teams {re.escape(suggested)}$"
    with pytest.raises(SpecError, match=said):
        rules_from_names(["teams"], players)
    assert len(rules_from_names([], players, teams=suggested).teams) == 2
    assert rules_from_names(["teams"], players, teams=suggested).teams == rules_from_names([], players, teams=suggested).teams
    with pytest.raises(SpecError, match=r"team play needs 3 players or more.*this layout has 2"):
        rules_from_names(["teams"], 2)
    with pytest.raises(SpecError, match=r"every team has one seat, which is the plain game"):
        rules_from_names([], 2, teams="0,1")  # two one-seat teams: the plain game reported as teams


@pytest.mark.parametrize("named", ["builtins:print", "os:abort", "os.path:join", "terragen.cli:main",
                                   "terragen.terrain.sim.policies:POLICIES"])
def test_a_policy_named_by_module_must_be_a_class_and_is_not_called_otherwise(named, capsys):
    """Whatever a module:name named was called first: builtins:print printed, os:abort ended the
    process with no word, os.path:join leaked its TypeError."""
    from terragen.terrain.sim.policies import load_policy

    with pytest.raises(SpecError, match="is not a class with choose_move and choose_rotation methods"):
        load_policy(named)
    assert capsys.readouterr() == ("", "")


def test_build_spec_names_a_dict_key_as_a_key_not_as_a_flag():
    """A library caller passed a dict: 'unknown --player' named a flag it never typed."""
    from terragen.terrain.generate import build_spec

    with pytest.raises(SpecError, match="^unknown spec key player: did you mean players") as exc:
        build_spec({"player": 3})
    with pytest.raises(SpecError, match=r"^spec key 'players' must be a whole number from 2 to 6 \(got 9\)"):
        build_spec({"players": 9})
    with pytest.raises(SpecError) as exc:
        build_spec({"players": 3, "difficulty": "hardd"})
    assert "--" not in exc.value.message and "'difficulty'" in exc.value.message
    # the command line, which does give flags, still names them
    with pytest.raises(SpecError, match=r"^--players must be"):
        build_spec({"players": 9}, as_flags=True)


def test_build_spec_names_no_file_when_there_is_none():
    """'players' (4 given beside the file) was said of a dict given alone."""
    from terragen.terrain.generate import build_spec

    with pytest.raises(SpecError) as exc:
        build_spec({"corners": [0, 1, 2], "players": 4})
    assert exc.value.message == "spec key 'corners' lists 3 corners but 'players' is 4"


def test_the_terrain_games_entry_points_say_what_a_wrong_argument_should_be(tmp_path):
    """A library audit found these failing deep inside (TypeError, AttributeError) or taken quietly
    (a seed of None giving other games on every run, an unknown backend running locally)."""
    from terragen.render.kits.terrain.board_picture import board_svg
    from terragen.terrain import build_spec, default_games, generate_board, load_layout, simulate_layout
    from terragen.terrain.puzzles.batch import run_batch
    from terragen.templates import template_path
    from terragen.terraflip.simulate import simulate as terraflip_simulate

    board = template_path("terrain", "examples", "two-players.txt")
    layout = load_layout(board)
    for kwargs, message in (({"games": "10"}, "games is a whole number"), ({"seed": None}, "seed is a whole number"),
                            ({"seed": 1.5}, "seed is a whole number"), ({"rules": {"green": True}}, "rules is a Rules"),
                            ({"workers": "2"}, "workers is a whole number")):
        with pytest.raises(TypeError, match=message):
            simulate_layout(layout, **kwargs)
    with pytest.raises(ValueError, match="sides is how many seats"):
        default_games(0)
    np = pytest.importorskip("numpy")
    assert default_games(np.int64(4)) == default_games(4)  # a script's array of seat counts
    from terragen.errors import InputError

    with pytest.raises(InputError, match="^workers must be 0–"):  # the command's rule, as run_batch's
        simulate_layout(layout, workers=-1)
    with pytest.raises(SpecError, match="backend must be 'local' or 'dask'"):
        run_batch(2, "route", "easy", 1, tmp_path / "b", backend="bogus")
    with pytest.raises(TypeError, match="count is a whole number"):
        run_batch("3", "route", "easy", 1, tmp_path / "b")
    assert not (tmp_path / "b").exists()
    with pytest.raises(TypeError, match="takes a PlaySpec"):
        terraflip_simulate({"players": 3})
    with pytest.raises(TypeError, match="board_svg"):
        board_svg(str(board))
    spec, _ = build_spec({"players": 2, "difficulty": "easy"})
    with pytest.raises(SpecError, match="time_limit must be above 0"):
        generate_board(spec, 0, -1)


def test_one_player_object_plays_every_seat_and_workers_0_is_one_per_core():
    """A player object passed alone failed as "'MyPolicy' object is not iterable"; workers=0 ran on
    one process where the command's --workers 0 takes every core."""
    from terragen.terrain import load_layout, simulate_layout
    from terragen.terrain.sim.policies import GreedyPolicy
    from terragen.templates import template_path

    layout = load_layout(template_path("terrain", "examples", "two-players.txt"))
    alone = simulate_layout(layout, games=40, seed=3, policy=GreedyPolicy())
    named = simulate_layout(layout, games=40, seed=3, policy="greedy")
    assert [s.wins for s in alone.seats] == [s.wins for s in named.seats]
    assert [s.wins for s in simulate_layout(layout, games=40, seed=3, workers=0).seats] == [s.wins for s in named.seats]


def test_a_layouts_copy_leaves_the_originals_metadata_alone():
    from terragen.terrain import build_spec, generate_board

    spec, run = build_spec({"players": 2, "difficulty": "easy", "seed": 4})
    board = generate_board(spec, run["seed"], run["time_limit"], balance=None)
    copy = board.copy()
    copy.extra["meta"]["summary"] = "edited"
    assert board.extra["meta"]["summary"] != "edited"


def test_any_games_file_is_validated_whole_from_the_library(tmp_path):
    """A script vetting a folder of boards met load_layout stopping at the first unreadable line;
    validate's forgiving reader, and its telling of the game from the file, were the CLI's alone."""
    from terragen.formats import validate_any
    from terragen.templates import template_path

    text = template_path("terrain", "examples", "two-players.txt").read_text()
    broken = text.replace("players:", "junk line here\nplayers:", 1).replace("4A", "4?", 1)
    game, report = validate_any(broken, "broken.txt")
    assert game == "terrain" and not report.valid
    assert len([f for f in report.findings if f.code == "syntax"]) >= 2  # every problem, not the first
    game, report = validate_any(template_path("terrace", "examples", "full-setup.txt").read_text(), "t.txt")
    assert game == "terrace" and report.valid
    with pytest.raises(TypeError, match="validate_any takes a file's text"):
        validate_any(tmp_path)
    with pytest.raises(ValueError, match="game is one of terrain"):
        validate_any(text, "x.txt", "chess")


# -- arguments checked at the door (terragen.arguments): an audit found each of these taken, or
# failing deep inside with a message about something else

#: values no seed is: the wrong type (a TypeError) and out of the commands' range (a SpecError)
NOT_SEEDS = [("a", TypeError), (1.5, TypeError), (None, TypeError), (True, TypeError), (-1, SpecError),
             (MAX_SEED + 1, SpecError)]


def _refused(call, error, name):
    """``call()`` raises ``error`` with one line that names the argument ``name``."""
    with pytest.raises(error) as exc:
        call()
    message = str(exc.value)
    assert re.search(rf"(^|\W){re.escape(name)}\W", message) and "\n" not in message, message
    return message


def _layout(players=2):
    from terragen.templates import template_path
    from terragen.terrain import load_layout

    return load_layout(template_path("terrain", "examples", "two-players.txt" if players == 2 else "four-players.txt"))


@pytest.mark.parametrize("seed, error", NOT_SEEDS)
def test_every_library_seed_is_one_the_commands_take(seed, error, tmp_path):
    """generate_board, every game's simulate or match, the deck and tile-set designers and run_batch
    took 'x' and -1 (a batch seeded -1 was one `terragen batch --resume` then refused)."""
    from terragen.terrace import Position
    from terragen.terrace.play import play_match
    from terragen.terraflip.design import DesignSpec, design_tileset
    from terragen.terraflip.simulate import PlaySpec
    from terragen.terraflip.simulate import simulate as terraflip_simulate
    from terragen.terrain import build_spec, generate_board, simulate_layout
    from terragen.terrain.puzzles.batch import run_batch
    from terragen.terralogical import DeckParams, design_deck
    from terragen.terralogical.default_deck import default_deck
    from terragen.terralogical.simulate import simulate

    spec, _ = build_spec({"players": 2, "difficulty": "easy"})
    calls = [lambda: generate_board(spec, seed, 5, balance=None),
             lambda: simulate_layout(_layout(), games=2, seed=seed),
             lambda: simulate(default_deck().tiles, 2, 2, seed),
             lambda: design_deck(seed, DeckParams()),
             lambda: design_tileset(DesignSpec(), seed),
             lambda: run_batch(1, "route", "easy", seed=seed, out=tmp_path / "b", workers=1),
             lambda: play_match(Position.start("short"), ["random"], 1, seed)]
    if error is SpecError:  # a PlaySpec's seed is a whole number when made, in range when played
        calls.append(lambda: terraflip_simulate(PlaySpec(2, 2, seed, ("greedy",))))
    else:
        calls.append(lambda: PlaySpec(seed=seed))
    for call in calls:
        _refused(call, error, "seed")
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("seed, error", [n for n in NOT_SEEDS if n[0] != MAX_SEED + 1])
def test_a_game_states_seed_is_refused_as_its_set_up_is(seed, error):
    """TerrainGame(seed='a') and Terralogical's GameState.new(rng='x') were taken; a state's set-up
    refuses a negative number with a ValueError (docs/library.md)."""
    from terragen.terrain import TerrainGame
    from terragen.terralogical import GameState
    from terragen.terralogical.default_deck import default_deck

    error = ValueError if error is SpecError else error
    _refused(lambda: TerrainGame(_layout(), seed=seed), error, "seed")
    if seed is not None:  # clone's None: the game's own dice
        _refused(lambda: TerrainGame(_layout(), seed=1).clone(seed=seed), error, "seed")
    _refused(lambda: GameState.new(default_deck().tiles, players=2, rng=seed), error, "rng")


def test_a_game_states_seed_may_be_any_64_bit_number():
    """Rollout code seeds its copies with getrandbits(64): half of those are past the commands' range,
    and clone(seed=) refused them (found in review). No file records a game state's seed."""
    from terragen.terralogical import GameState
    from terragen.terrain import TerrainGame

    big = 2**64 - 1
    game = TerrainGame(_layout(), seed=big)
    assert game == TerrainGame(_layout(), seed=big) and game.clone(seed=big) == game.clone(seed=big)
    GameState.new(_deck(), players=2, rng=big)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, MAX_SEED))
def test_any_seed_the_commands_take_is_taken(seed):
    from terragen.terrain import TerrainGame
    from terragen.terralogical.simulate import play_game

    np = pytest.importorskip("numpy")
    assert TerrainGame(_layout(), seed=seed) == TerrainGame(_layout(), seed=seed)
    if seed < 2**63:  # numpy's own integers are seeds too, and the same seeds
        assert play_game(_deck(), ["greedy"] * 2, np.uint64(seed)).scores == play_game(_deck(), ["greedy"] * 2, seed).scores


def _deck():
    from terragen.terralogical.default_deck import default_deck

    return default_deck().tiles


@pytest.mark.parametrize("depth, error", [(1.5, TypeError), ("a", TypeError), (True, TypeError), (-1, SpecError)])
def test_perft_names_a_bad_depth(depth, error):
    """1.5 recursed until RecursionError; 'a' failed comparing str and int."""
    from terragen.terrace import Position, perft

    _refused(lambda: perft(Position.start("full"), depth), error, "depth")


def test_perft_names_a_position_that_is_not_one():
    from terragen.terrace import Position, perft
    from terragen.terrace.perft import divide

    _refused(lambda: perft(None, 1), TypeError, "Position")
    _refused(lambda: divide("full", 1), TypeError, "Position")
    assert perft(Position.start("full"), 2) == 2450  # the docs' figure, still


@pytest.mark.parametrize("workers", [-1, 10**6])
def test_library_workers_follow_the_commands_rule(workers):
    """simulate_layout(workers=24) started 24 processes on a two-core machine; only negatives were
    refused. It, generate_board and run_batch now use --workers' own rule (process_pool.worker_count)."""
    from terragen.errors import InputError
    from terragen.terrain import build_spec, generate_board, simulate_layout

    spec, _ = build_spec({"players": 2, "difficulty": "easy"})
    _refused(lambda: simulate_layout(_layout(), games=2, workers=workers), InputError, "workers")
    _refused(lambda: generate_board(spec, 1, 5, balance=None, workers=workers), InputError, "workers")


def test_simulate_layout_names_a_bad_margin_policy_or_team():
    """'x' for margin and a seat of '3' in a team failed comparing str and int; a None player failed
    in the first game as an AttributeError."""
    from terragen.terrain import simulate_layout
    from terragen.terrain.sim.variants import Rules

    _refused(lambda: simulate_layout(_layout(), games=2, margin="x"), TypeError, "margin")
    _refused(lambda: simulate_layout(_layout(), games=2, policy=[None] * 2), TypeError, "policy")
    _refused(lambda: simulate_layout(_layout(), games=2, policy=5), TypeError, "policy")
    _refused(lambda: Rules(teams=[[0, 1], [2, "3"]]), ValueError, "Rules.teams")


@pytest.mark.parametrize("teams", ["ab", [[0, 1], "23"], [[0, -1]], 5, [[0, 1.0]]])
def test_terrain_rules_refuse_teams_that_are_not_seats_when_made(teams):
    from terragen.terrain.sim.variants import Rules

    _refused(lambda: Rules(teams=teams), ValueError, "Rules.teams")


def test_terrain_rules_teams_are_tuples_of_plain_seats():
    np = pytest.importorskip("numpy")
    from terragen.terrain.sim.variants import Rules

    assert Rules(teams=[[0, np.int64(2)], (1, 3)]).teams == ((0, 2), (1, 3)) == Rules(teams=((0, 2), (1, 3))).teams


@pytest.mark.parametrize("text", [None, 5, b"radius: 5"])
@pytest.mark.parametrize("game", ["terrain", "terrace", "terralogical", "terraflip"])
def test_every_games_validate_text_takes_text(game, text):
    """None and 5 failed inside as an AttributeError about lstrip."""
    import importlib

    validate_text = importlib.import_module(f"terragen.{game}.validation").validate_text
    _refused(lambda: validate_text(text, "x"), TypeError, "validate_text")


def test_designers_name_a_bad_argument():
    """design_deck('x') and design_tileset(spec, 'x') said 'not all arguments converted during string
    formatting'; a dict for params failed as an AttributeError; a str count compared with '<='."""
    from terragen.terraflip.design import DesignSpec, design_tileset
    from terragen.terralogical import DeckParams, design_deck

    _refused(lambda: design_deck(1, {"tiles": 5}), TypeError, "params")
    _refused(lambda: DeckParams(tiles="a"), TypeError, "DeckParams.tiles")
    _refused(lambda: DeckParams(cloud_share="x"), TypeError, "DeckParams.cloud_share")
    _refused(lambda: DesignSpec(per_family="a"), TypeError, "DesignSpec.per_family")
    _refused(lambda: DesignSpec(pair_symmetric="no"), TypeError, "DesignSpec.pair_symmetric")
    _refused(lambda: design_tileset({"per_family": 9}, 1), TypeError, "DesignSpec")


def test_terralogical_names_bad_counts_and_tiles():
    from terragen.terralogical import GameState
    from terragen.terralogical.simulate import simulate

    _refused(lambda: simulate(_deck(), 2, "3", 1), TypeError, "games")
    _refused(lambda: GameState.new(None, players=2, rng=1), TypeError, "land_tiles")
    # a generator of tiles deals as the list does (the check below used it up: no tiles were dealt)
    assert GameState.new(iter(_deck()), 2, 5).hands == GameState.new(_deck(), 2, 5).hands


def test_terraflip_play_spec_names_a_bad_count():
    from terragen.terraflip.simulate import PlaySpec
    from terragen.terraflip.simulate import simulate as terraflip_simulate

    _refused(lambda: PlaySpec(games="3"), TypeError, "PlaySpec.games")
    _refused(lambda: terraflip_simulate(PlaySpec(players=5)), SpecError, "players")


def test_read_manifest_takes_a_str_folder_as_run_batch_does(tmp_path):
    """read_manifest('bt1') failed as a TypeError about '/'."""
    from terragen.terrain.puzzles.batch import read_manifest, run_batch

    run_batch(1, "route", "easy", seed=1, out=str(tmp_path / "bt1"), workers=1, booklet=False)
    assert read_manifest(str(tmp_path / "bt1")) == read_manifest(tmp_path / "bt1") is not None
    _refused(lambda: read_manifest(None), TypeError, "read_manifest")

"""A mistyped name reads one way for every option that takes one (found by an audit): click's fixed
sets said "Invalid value for '--difficulty': 'hrad' is not one of ..." with no fix while --policy and
--variant named the likely one; --inventory said "give a template name" and listed none; --param
listed the names without the likely one. And the smaller slips found with them: terrace play's
--players not telling which set-up seats that many, generate's help listing its old option names,
and ranges spelt "0..5" where the other messages say "0 to 5"."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest

from terragen.cli import cli

from tests.cli.test_conventions import run_cli
from tests.terrain.helpers import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
BOARD = EXAMPLES / "two-players.txt"


@pytest.mark.parametrize("args,message", [
    (["generate", "--difficulty", "hrad"],
     "--difficulty: unknown difficulty 'hrad': did you mean 'hard'? (choose from easy, medium, hard, brutal)"),
    (["batch", "--kind", "puzzle"], "--kind: unknown puzzle kind 'puzzle' (choose from route, rotation, dice, mix)"),
    (["batch", "--difficulty", "eassy"], "--difficulty: unknown difficulty 'eassy': did you mean 'easy'?"),
    (["validate", "--game", "terain", BOARD],
     "--game: unknown game 'terain': did you mean 'terrain'? (choose from auto, terrain, terrace, terralogical, terraflip)"),
    (["terrace", "setup", "nine"], "error: unknown set-up 'nine' (choose from full, short, four, three)"),  # no option
    (["terrace", "play", "--setup", "thre"], "--setup: unknown set-up 'thre': did you mean 'three'?"),
    (["terrace", "moves", "--t-rank", "lowst"], "--t-rank: unknown T rank 'lowst': did you mean 'lowest'?"),
    (["kit", "terrain", "--paper", "leter"], "--paper: unknown paper 'leter': did you mean 'letter'? (choose from a4, letter)"),
    (["kit", "terrace", "--flip", "lng"], "--flip: unknown flip edge 'lng': did you mean 'long'?"),
    (["render", BOARD, "--format", "pnd"], "--format: unknown format 'pnd': did you mean 'pdf'? (choose from svg, pdf)"),
    (["convert", BOARD, "--to", "jsn"], "--to: unknown form 'jsn': did you mean 'json'? (choose from json, text)"),
    (["examples", "list", "--game", "terace"], "--game: unknown game 'terace': did you mean 'terrace'?"),
    (["terraflip", "play", "--lines", "axis"], "--lines: unknown line reading 'axis': did you mean 'axes'?"),
    (["terralogical", "play", "--flock-ties", "bycount"], "--flock-ties: unknown flock-ties rule 'bycount': did you mean 'by-count'?"),
    (["generate", "--inventory", "extnded"],
     "--inventory: unknown inventory 'extnded': did you mean 'extended'? (choose from standard, extended or a "
     ".toml file)"),
    (["terralogical", "deck", "--param", "cloud_shar=0.1"],
     "--param: unknown parameter 'cloud_shar': did you mean 'cloud_share'? (choose from cloud_share, "),
])
def test_a_mistyped_name_is_told_the_likely_one_and_the_choices(capsys, args, message):
    """The option first, as every bad option is named, then the words of every unknown name."""
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and err.count("\n") == 1, err
    assert message in err, err
    assert "Invalid value" not in err and "is not one of" not in err and "template" not in err


def _commands(cmd: click.Command, path: str = "terragen"):
    yield path, cmd
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            yield from _commands(cmd.get_command(ctx, name), f"{path} {name}")


def test_every_fixed_set_of_values_is_a_name_choice():
    """One type for every option and argument with a fixed set, so none falls back to click's wording;
    still a click.Choice, so --help lists the set and the web page's form reads it."""
    from terragen.cli._common import NameChoice

    found = []
    for path, cmd in _commands(cli):
        for p in cmd.params:
            if isinstance(p.type, click.Choice):
                assert isinstance(p.type, NameChoice), f"{path} {p.name}: a plain click.Choice"
                assert not p.type.case_sensitive, f"{path} {p.name}"
                found.append(f"{path} {p.name}")
    assert "terragen terrace setup name" in found and "terragen generate difficulty" in found


def test_a_name_choice_still_reads_any_case_and_the_help_lists_the_set(capsys):
    from terragen.cli._common import NameChoice

    assert NameChoice(["easy", "hard"], "difficulty").convert("HARD", None, None) == "hard"
    code, out, _ = run_cli(capsys, "generate", "--help")
    assert code == 0 and "[easy|medium|hard|brutal]" in out
    code, out, _ = run_cli(capsys, "terrace", "setup", "FOUR")
    assert code == 0 and "setup: four" in out


def test_the_web_form_still_reads_the_choices():
    from terragen.web.api import generate_options

    opts = {o["name"]: o for o in generate_options()}
    assert opts["shape"]["type"] == "choice" and opts["shape"]["choices"][0] == "none"
    assert opts["placement"]["choices"] == ["free", "distance", "opposite"]


@pytest.mark.parametrize("args,message", [
    (["terrace", "play", "--players", "3"],
     "--players must be 2, the seats of the full set-up (got 3); for 3 players use --setup three"),
    (["terrace", "play", "--setup", "four", "--players", "2"],
     "--players must be 4, the seats of the four set-up (got 2); for 2 players use --setup full or --setup short"),
])
def test_terrace_players_not_fitting_the_set_up_names_the_one_that_fits(capsys, args, message):
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_generate_help_lists_only_the_current_names_and_the_old_ones_still_work(capsys):
    code, out, _ = run_cli(capsys, "generate", "--help")
    assert code == 0
    for old in ("--gate-games", "--gate-margin", "--no-gate"):
        assert old not in out
    assert "--balance-games" in out and "--no-balance" in out
    assert "(0.025 = 2.5 points)" in " ".join(out.split())  # as simulate's --margin says it
    code, _, err = run_cli(capsys, "generate", "--gate-games", "0")
    assert code == 2 and "--balance-games must be 1–500000 (got 0)" in err
    code, _, err = run_cli(capsys, "generate", "--gate-margin", "0.6")
    assert code == 2 and "--margin must be 0.001–0.5 (got 0.6)" in err
    code, _, err = run_cli(capsys, "generate", "--no-gate", "--check-experts")
    assert code == 2 and "--check-experts needs the balance check: leave out --no-balance" in err


def test_ranges_in_messages_read_from_to(capsys):
    code, out, _ = run_cli(capsys, "validate", EXAMPLES / "invalid" / "level-out-of-range.txt")
    assert code == 1 and "levels run 1 to 8" in out
    code, out, _ = run_cli(capsys, "validate", EXAMPLES / "invalid" / "rotation-out-of-range.txt")
    assert code == 1 and "rotations run 0 to 5" in out
    code, out, _ = run_cli(capsys, "validate", EXAMPLES / "invalid" / "player-off-corner.txt")
    assert code == 1 and "corners are numbered 0 to 5" in out
    code, _, err = run_cli(capsys, "simulate", EXAMPLES / "four-players.txt", "--teams", "0+1,1+2")
    assert code == 2 and "every seat 0 to 3 must be in exactly one team" in err


def _message_texts(tree: ast.AST):
    """Every string of the code but docstrings, an f-string's fields written as {}."""
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
              and id(node) not in inner):
            yield node.lineno, node.value


def test_no_message_spells_a_range_with_two_dots():
    bad = []
    for path in sorted((ROOT / "terragen").rglob("*.py")):
        for line, text in _message_texts(ast.parse(path.read_text(encoding="utf-8"))):
            if re.search(r"(?<!\.)\.\.(?=[0-9{])", text):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert not bad, "\n".join(bad)


def test_an_empty_choice_is_called_empty_as_an_empty_name_is(capsys):
    """--difficulty '' read "unknown difficulty ''" where every other empty value is asked about."""
    from terragen.cli import main

    with pytest.raises(SystemExit) as done:
        main(["generate", "--difficulty", ""])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "an empty name (was a shell variable not set?)" in err, err


def test_a_mistyped_flag_is_not_offered_a_hidden_old_name(capsys):
    """--balance-game was offered '--gate-games', a name --help hides."""
    from terragen.cli import main

    with pytest.raises(SystemExit) as done:
        main(["generate", "--balance-game", "5"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "'--balance-games'" in err and "--gate-games" not in err, err

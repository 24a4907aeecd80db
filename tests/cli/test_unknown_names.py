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

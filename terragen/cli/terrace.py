"""``terragen terrace``: start positions, legal moves, perft and simulated matches.

Click commands only: options are parsed here, the work is done by
``terragen.terrace``.
"""

from __future__ import annotations

import time

import click

from terragen.cli._common import (NameChoice, Whole, checked_when_read, known_names, FILE_OR_NAME, PathName, check_outputs, echo_data, echo_json, force_option,
                                  json_even_on_failure, json_option, policy_hint, say, say_report, seed_range, warn)
from terragen.errors import SpecError
from terragen.intervals import interval_text
from terragen.limits import MAX_PLAY_GAMES, MAX_TERRACE_PLIES
from terragen.limits import TERRACE_SIZES as BOARD_SIZES
from terragen.plain_text import counted
from terragen.terrace.model import T_RANKS
from terragen.terrace.setups import SETUPS

SETUP_CHOICES = NameChoice(SETUPS, "set-up")


def _rules(t_rank: str, own_t_capture: bool):
    from terragen.terrace.model import Rules

    return Rules(t_rank=t_rank, own_t_capture=own_t_capture)


def _load(position: str | None, setup: str | None, size: int | None, t_rank: str, own_t_capture: bool):
    """The position to work on: the file given, or the start of a set-up."""
    from terragen.fileio import read_text_input
    from terragen.terrace.board import check_size
    from terragen.terrace.position import Position
    from terragen.terrace.validation import load_position

    rules = _rules(t_rank, own_t_capture)
    if position is not None:
        if setup is not None:
            raise SpecError("give either a POSITION file or --setup, not both")
        text = read_text_input(position)
        pos = load_position(text, position, rules)
        if size is not None and size != pos.size:
            raise SpecError(f"--size {size} does not match the {pos.size}x{pos.size} board in {position}")
        return pos
    n = check_size(8 if size is None else size)
    return Position.start(setup or "full", n, rules)


def _rule_options(f):
    """The rule readings every command that looks at moves takes (validate counts the legal moves too)."""
    f = click.option("--no-own-t-capture", "own_t_capture", is_flag=True, default=True, flag_value=False,
                     help="Forbid capturing your own T (by default it is legal and loses).")(f)
    f = click.option("--t-rank", type=NameChoice(T_RANKS, "T rank"), default="a",
                     show_default=True,
                     help="Size of the T for captures: the same as an A, smaller than an A, or between an A and "
                          "a B.")(f)
    return f


def _common(f):
    f = _rule_options(f)
    f = click.option("--size", type=Whole(one_of=BOARD_SIZES), default=None, help="Board size n (even, 6 to 12); default 8.")(f)
    f = click.option("--setup", type=SETUP_CHOICES, default=None,
                     help="Start from this set-up (full, short, four, three) instead of a POSITION file; default full.")(f)
    f = click.argument("position", required=False, type=FILE_OR_NAME, metavar="[POSITION]")(f)
    return f


@click.group()
def terrace() -> None:
    """Terrace on the stepped 8x8 board (or n x n with --size).

    \b
    POSITION is a position file (text diagram or JSON, '-' for stdin); without
    it, commands start from --setup (full, short, four or three).
    \b
    Examples:
      terragen terrace setup short > pos.txt
      terragen terrace validate pos.txt
      terragen terrace moves pos.txt
      terragen terrace perft --setup full --depth 3 --divide
      terragen terrace play --policy random,greedy --games 100 --seed 7

    Exit status: 0 done, 1 'validate' found a broken rule, 2 bad options, or a
    position that cannot be read or (for the other commands) breaks a rule, 73
    'setup --out' could not be written; 70, 129, 130, 143 as for every command
    (terragen --help).
    """


@terrace.command("setup")
@click.argument("name", type=SETUP_CHOICES, default="full", metavar="[NAME]")
@click.option("--size", type=Whole(one_of=BOARD_SIZES), default=8, show_default=True, help="Board size n (even, 6 to 12).")
@click.option("--json", "as_json", is_flag=True, help="Write JSON instead of the text diagram (the default for an --out "
              "ending in .json).")
@click.option("-o", "--out", type=PathName(dir_okay=False), default=None,
              help="Write to this file instead of stdout (- is stdout).")
@force_option
def setup_cmd(name: str, size: int, as_json: bool, out: str | None, force: bool) -> None:
    """Print the starting position of a set-up (full, short, four or three).

    \b
    Examples:
      terragen terrace setup short > pos.txt
      terragen terrace setup four --json --out four.json

    Exit status: 0 done, 2 bad options or --out exists (add --force), 73 the
    file could not be written (read-only, disk full, a link to nothing, a file
    where a folder goes); 70, 129, 130, 143 as for every command (terragen
    --help).
    """
    from terragen.fileio import atomic_write
    from terragen.terrace.board import check_size
    from terragen.terrace.formats import to_json, to_text
    from terragen.terrace.position import Position

    if out == "-":  # the default's own stdout, as convert takes OUT "-"
        out = None
    if out and as_json and out.lower().endswith(".txt"):
        raise SpecError(f"--json but --out {out} ends in .txt: give one or make them agree")
    if out:
        check_outputs([out], force)
    pos = Position.start(name, check_size(size))
    # a .json name gets JSON, as convert and play's records choose by the name (it once got the diagram)
    as_json = as_json or bool(out and out.lower().endswith(".json"))
    text = to_json(pos) if as_json else to_text(pos)
    if out:
        atomic_write(out, text)
        say(f"written: {out}")  # on stdout, as every command's note of a file it wrote
    else:
        echo_data(text)


@terrace.command("show")
@_common
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of the text diagram.")
def show_cmd(position, setup, size, t_rank, own_t_capture, as_json) -> None:
    """Print a position as canonical text or JSON.

    \b
    Examples:
      terragen terrace show pos.txt --json
      terragen convert pos.txt pos.json      (the same, written to a file)

    Exit status: 0 done, 2 bad options, or a position that cannot be read or
    breaks a rule; 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.terrace.formats import to_json, to_text

    pos = _load(position, setup, size, t_rank, own_t_capture)
    echo_data(to_json(pos) if as_json else to_text(pos))


@terrace.command("validate")
@click.argument("position", type=FILE_OR_NAME, metavar="POSITION")
@_rule_options
@json_option
def validate_cmd(position: str, t_rank: str, own_t_capture: bool, as_json: bool) -> None:
    """Check a position file (text diagram or JSON) against the rules.

    The same check and report as 'terragen validate POSITION' (which reads
    the game from the file): every problem with a stable code, then the
    board, the side to move and its number of legal moves. The text diagram
    is read forgivingly: each header entry or square that cannot be read is
    listed with its line:col and skipped (exit 2), and the rest is still
    checked. --t-rank and --no-own-t-capture change only the count of legal
    moves, as they change the moves 'terrace moves' lists.

    \b
    Examples:
      terragen terrace validate pos.txt
      terragen terrace validate pos.json --json

    Exit status: 0 legal, 1 a rule is broken, 2 unreadable file or bad options;
    70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.cli.validate import finish_game_validation
    from terragen.fileio import read_text_input
    from terragen.terrace.validation import validate_text

    with json_even_on_failure(position, as_json, "terrace"):
        text = read_text_input(position)
        report = validate_text(text, position, t_rank=t_rank, own_t_capture=own_t_capture)
    finish_game_validation(report, position, "terrace", as_json)


@terrace.command("moves")
@_common
@click.option("--json", "as_json", is_flag=True, help="Print the moves as JSON.")
def moves_cmd(position, setup, size, t_rank, own_t_capture, as_json) -> None:
    """List the legal moves of the side to move.

    Each line is a move in terragen notation (piece, from, - or x, to; e.g.
    Cc8-c6, Dc6xb5) and its kind: slide, up, down or capture. Pieces by size:
    A (smallest), B, C, D (largest), and T, the piece both sides must protect;
    squares as in chess, a1 the bottom-left (docs/terrace.md).

    \b
    Examples:
      terragen terrace moves pos.txt
      terragen terrace moves --setup short --json

    Exit status: 0 done, 2 bad options, or a position that cannot be read or
    breaks a rule; 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.terrace.board import square_name
    from terragen.terrace.model import seat_words

    pos = _load(position, setup, size, t_rank, own_t_capture)
    moves = pos.legal_moves()
    res = pos.result()
    n = pos.size
    if as_json:
        echo_json(
            {
                "to_move": pos.to_move,
                "result": None if res is None else {"winner": res.winner, "reason": res.reason},
                "moves": [
                    {"move": pos.san(m), "from": square_name(m.frm, n), "to": square_name(m.to, n), "kind": m.kind, "piece": m.piece}
                    for m in moves
                ],
            }
        )
        return
    for m in moves:
        click.echo(f"{pos.san(m):10} {m.kind}")
    tail = f"; {res.text()}" if res else ""
    say(f"{counted(len(moves), 'legal move')} for {seat_words(pos.to_move)}{tail}", err=True)


@terrace.command("perft")
@_common
@click.option("--depth", type=Whole(0, 8), required=True, help="Number of moves in each counted sequence, 0-8. The work grows with each move: on the full "
                   "set-up depth 4 takes seconds and each move more 25 times as long or more (Ctrl-C stops it).")
@click.option("--divide", is_flag=True, help="Also show the count below each first move.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def perft_cmd(position, setup, size, t_rank, own_t_capture, depth, divide, as_json) -> None:
    """Count the legal move sequences of length --depth.

    A standard check of the move generator; --divide splits the count by first move.

    \b
    Examples:
      terragen terrace perft --setup full --depth 3
      terragen terrace perft pos.txt --depth 2 --divide --json

    Exit status: 0 done, 2 bad options, or a position that cannot be read or
    breaks a rule; 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.terrace.perft import divide as divide_fn
    from terragen.terrace.perft import perft

    pos = _load(position, setup, size, t_rank, own_t_capture)
    t0 = time.perf_counter()
    rows = divide_fn(pos, depth) if divide and depth >= 1 else None
    total = sum(c for _, c in rows) if rows is not None else perft(pos, depth)
    secs = time.perf_counter() - t0
    if as_json:
        out = {"depth": depth, "nodes": total}
        if rows is not None:
            out["divide"] = {name: c for name, c in rows}
        echo_json(out)
        return
    if rows is not None:
        for name, c in rows:
            click.echo(f"{name}: {c}")
    click.echo(f"perft {depth}: {total}")
    if depth:  # depth 0 counts the position itself, with no move made: a speed of it means nothing
        say(f"{secs:.3f} s, {total / secs if secs > 0 else 0:,.0f} nodes/s", err=True)


class _PlayerCount(click.ParamType):
    """``--players`` is a count in every command; a policy list here gets a pointer to --policy."""

    name = "N"

    def convert(self, value, param, ctx):
        import re

        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        if re.fullmatch(r"[+-]?[0-9]{1,40}", text):
            return int(text)
        hint = policy_hint(text, param, ctx)
        raise click.UsageError(f"--players must be a number of players, 2, 3 or 4 (got {value!r}){hint}", ctx)


def _players_mismatch(players: int, seats: int, position: str | None, setup: str | None) -> str:
    """Why ``--players`` does not fit, and how to get that many: the set-up that seats them (``--players 3``
    alone said only that the set-up seats 2, leaving the user to find --setup three)."""
    from terragen.terrace.setups import SETUP_PLAYERS

    fits = [name for name in SETUPS if SETUP_PLAYERS[name] == players]
    what = f"the {setup or 'full'} set-up" if position is None else "the position in the file"
    how = " or ".join(f"--setup {name}" for name in fits)
    if position is not None and fits:
        how += " instead of a position file"
    return f"--players must be {seats}, the seats of {what} (got {players})" + (
        f"; for {players} players use {how}" if fits else "")


@terrace.command("play")
@_common
@click.option("--players", type=_PlayerCount(), default=None,
              help="Number of players: 2, 3 with --setup three, or 4 with --setup four. [default: the set-up's]")
@click.option("--policy", default="random", show_default=True, metavar="NAME[,NAME...]",
              callback=checked_when_read(known_names("terragen.terrace.players")),
              help="random (any legal move) or greedy (wins or captures when it can, keeps its T safe); one for "
                   "all seats or a comma list, one per seat in turn order.")
@click.option("--games", type=Whole(1, MAX_PLAY_GAMES), default=100, show_default=True, help="Number of games (as terralogical and terraflip play).")
@click.option("--seed", type=seed_range(), default=0, show_default=True, help="Seed for all randomness.")
@click.option("--max-plies", type=Whole(1, MAX_TERRACE_PLIES), default=300, show_default=True, help="Stop a game after this many plies, a ply being one seat's move (counted as unfinished).")
@click.option("--json", "as_json", is_flag=True, help="Print the full report as JSON (with every game).")
def play_cmd(position, setup, size, t_rank, own_t_capture, players, policy, games, seed, max_plies, as_json) -> None:
    """Play games between policies and report results per seat.

    Reports wins (by T capture or objective), draws and game lengths.

    \b
    Examples:
      terragen terrace play --policy random,greedy --games 100 --seed 7
      terragen terrace play --setup four --players 4 --policy greedy --games 50
      terragen terrace play pos.txt --policy greedy --json

    Exit status: 0 games played, 2 bad options, or a position that cannot be
    read or breaks a rule; 70, 129, 130, 143 as for every command (terragen
    --help).
    """
    from terragen.cli.progress import Progress
    from terragen.names import comma_list, per_seat
    from terragen.terrace.play import play_match
    from terragen.terrace.players import POLICIES

    pos = _load(position, setup, size, t_rank, own_t_capture)
    if players is not None and players != len(pos.seats):
        raise SpecError(_players_mismatch(players, len(pos.seats), position, setup))
    names = per_seat(comma_list(policy, "--policy", POLICIES), len(pos.seats))
    if (over := pos.result()) is not None:  # 2 games of 0 plies and a 100% win rate, without a word
        warn(f"the position is already over ({over.text()}): every game ends before a move")
    with Progress("terragen terrace play", games, "games") as bar:
        report = play_match(pos, names, games, seed, max_plies, progress=bar.update)
    if as_json:
        echo_json(report)
        return
    rules = report["rules"]  # the readings played, as the other games' reports name theirs
    say(f"{counted(games, 'game')}, set-up {report['setup']}, {report['size']}x{report['size']}, seed {seed}; "
        f"T rank {rules['t_rank']}, own T capture {'allowed' if rules['own_t_capture'] else 'forbidden'}")
    say(f"{'seat':5} {'policy':8} {'wins':>5} {'rate':>6}  {'95% interval':<16} {'by T':>5} {'by obj':>6} {'plies(won)':>10}")
    for s in report["seats"]:
        mean = "-" if s["mean_plies_of_wins"] is None else f"{s['mean_plies_of_wins']:.1f}"
        say(f"{s['seat']:5} {s['policy']:8} {s['wins']:5d} {s['win_rate']:6.1%}  {interval_text(s['win_rate_ci95'])} "
            f"{s['by_t_capture']:5d} {s['by_objective']:6d} {mean:>10}")
    say_report(["(by T: wins by capturing a T, or as the last seat left; by obj: by reaching the objective; "
                "plies(won): the mean length of the games the seat won, a ply being one seat's move)"])
    p = report["plies"]
    say(f"draws (no move): {report['draws_no_move']}, unfinished at {max_plies} plies: {report['unfinished_ply_limit']}")
    say(f"game length in plies: mean {p['mean']:.1f}, min {p['min']}, max {p['max']}")

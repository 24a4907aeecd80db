"""Check a Terralogical board state against the rules and score it.

Entries are replayed in the listed order (the placement order), so each land
tile is judged against the tiles listed before it, exactly as at the table.
An illegal tile still goes on the board, so later entries are judged against
what the file shows and every breach is reported, not only the first.
"""

from __future__ import annotations

from typing import Any

from terragen.findings import Finding, ValidationReport, error, warning
from terragen.terralogical.board import FLOWER_CORNER, FLOWER_FIELDS, SUN_SQUARE, Board, Placed, RuleOptions, fmt
from terragen.terralogical.deck import Deck
from terragen.terralogical.formats import BoardState, parse_state
from terragen.terralogical.scoring import final_bonus
from terragen.terralogical.tiles import END_ID, LANDSCAPE_NAMES, LANDSCAPES, START_ID


def validate_state(state: BoardState, options: RuleOptions | None = None, deck_size: int = 63) -> ValidationReport:
    """Findings and analysis for a parsed board state."""
    opts = options or RuleOptions()
    report = ValidationReport(game="terralogical")
    f: list[Finding] = report.findings
    n = len(state.players)
    if not 2 <= n <= 4:
        f.append(error("player-count", f"Terralogical is for 2 to 4 players, the file lists {n}"))
    board = Board()
    start = [e for e in state.entries if e.tile_id == START_ID]
    end = [e for e in state.entries if e.tile_id == END_ID]
    for special, square, name in ((start, SUN_SQUARE, START_ID), (end, FLOWER_CORNER, END_ID)):
        if not special:
            f.append(error(f"missing-{'start' if name == START_ID else 'end'}", f"no {name} tile listed (it belongs on {fmt(square)})", [square]))
        for e in special[1:]:
            f.append(error("duplicate-tile", f"the {name} tile is listed more than once", [e.square], e.line, e.col))
        if special:
            e = special[0]
            if e.square != square:
                f.append(
                    error(
                        "start-misplaced" if name == START_ID else "end-misplaced",
                        f"the {name} tile lies on {fmt(e.square)}, its place is {fmt(square)}",
                        [e.square],
                        e.line,
                        e.col,
                    )
                )
            if e.cube is not None:
                f.append(error("cube-on-special", f"the {name} tile on {fmt(e.square)} carries a cube", [e.square], e.line, e.col))
            if board.size > e.square[0] >= 0 <= e.square[1] < board.size and e.square not in board.tiles:
                board.tiles[e.square] = Placed(e.tile, e.rotation, e.tile_id)
    points = [0] * n
    cubes = [0] * n
    seen_ids: dict[str, Any] = {}
    land = 0
    flower_at: tuple[int, int] | None = None
    for e in state.entries:
        if e.tile_id in (START_ID, END_ID):
            continue
        land += 1
        if e.from_deck:
            if e.tile_id in seen_ids:
                f.append(error("duplicate-tile", f"deck tile {e.tile_id} is placed on {fmt(seen_ids[e.tile_id])} and again on {fmt(e.square)}", [seen_ids[e.tile_id], e.square], e.line, e.col))
            seen_ids.setdefault(e.tile_id, e.square)
        if flower_at is not None:
            f.append(
                error(
                    "placed-after-end",
                    f"tile on {fmt(e.square)} comes after the game ended with the tile on flower field {fmt(flower_at)}",
                    [e.square],
                    e.line,
                    e.col,
                )
            )
        chk = board.check(e.square, e.tile, e.rotation, opts)
        for code, message in chk.problems:
            f.append(error(code, f"{e.tile_id}: {message}", [e.square], e.line, e.col))
        if code_blocks_board(chk.problems):
            continue
        board.tiles[e.square] = Placed(e.tile, e.rotation, e.tile_id, e.cube)
        if e.cube is None:
            f.append(warning("missing-cube", f"tile {e.tile_id} on {fmt(e.square)} carries no cube", [e.square], e.line, e.col))
        else:
            cubes[e.cube] += 1
            if cubes[e.cube] == opts.cubes_per_player + 1:
                f.append(
                    error(
                        "too-many-cubes",
                        f"{state.players[e.cube]} has more than {opts.cubes_per_player} cubes on the board (from {fmt(e.square)} on)",
                        [e.square],
                        e.line,
                        e.col,
                    )
                )
            if chk.legal:
                points[e.cube] += chk.points
        if e.square in FLOWER_FIELDS and flower_at is None:
            flower_at = e.square
    if land > deck_size:
        f.append(error("too-many-tiles", f"{land} land tiles placed, the deck has {deck_size}"))
    bonus = final_bonus(board, max(n, 1), opts.min_flock)
    hands = state.hands or [0] * n
    flock_pts = [sum(bonus[k + "_points"][s] for k in LANDSCAPES) for s in range(n)]
    finals = [points[s] + flock_pts[s] - hands[s] for s in range(n)]
    report.data = {
        "players": list(state.players),
        "land_tiles": land,
        "flower_reached": flower_at is not None,
        "placement_points": points,
        "largest_flocks": {LANDSCAPE_NAMES[k]: bonus[k] for k in LANDSCAPES},
        "flock_points": flock_pts,
        "hand_penalty": [-h for h in hands],
        "final_scores": finals,
    }
    report.summary = [
        f"{land} land tiles, {'the flower corner was reached' if flower_at else 'the flower corner not reached yet'}",
    ] + [
        f"{name}: {points[s]} placement points, flocks "
        + ", ".join(f"{LANDSCAPE_NAMES[k]} {bonus[k][s]}" for k in LANDSCAPES)
        + f" -> {flock_pts[s]} points, {hands[s]} in hand, total {finals[s]}"
        for s, name in enumerate(state.players)
    ]
    return report


def code_blocks_board(problems: list[tuple[str, str]]) -> bool:
    """Off-board and occupied squares cannot hold the tile; other breaches still place it."""
    return any(code in ("off-board", "square-occupied") for code, _ in problems)


def validate_text(text: str, source: str, **options: Any) -> ValidationReport:
    """Parse a board state (JSON or text) and validate it.

    Options: ``deck`` (a Deck to resolve tile ids; the shipped default deck
    otherwise), ``subsoil_rule``, ``end_anchors``, ``min_flock``,
    ``cubes_per_player`` (see RuleOptions).
    """
    deck: Deck | None = options.pop("deck", None)
    if deck is None:
        from terragen.terralogical.default_deck import default_deck

        deck = default_deck()
    known = {"subsoil_rule", "end_anchors", "min_flock", "cubes_per_player"}
    rule_opts = RuleOptions(**{k: v for k, v in options.items() if k in known and v is not None})
    state = parse_state(text, source, deck)
    return validate_state(state, rule_opts, deck_size=len(deck.tiles))

"""Check a Terralogical board state against the rules and score it.

Entries are replayed in the listed order (the placement order), so each land
tile is judged against the tiles listed before it, exactly as at the table.
An illegal tile still goes on the board, so later entries are judged against
what the file shows and every breach is reported, not only the first.
"""

from __future__ import annotations

from terragen.findings import SYNTAX, Finding, ValidationReport, error, in_file_order, warning
from terragen.formats import looks_like_json, require_text
from terragen.grids.square import in_bounds
from terragen.plain_text import counted
from terragen.terralogical.board import FLOWER_CORNER, FLOWER_FIELDS, SUN_SQUARE, Board, Placed, RuleOptions, fmt
from terragen.terralogical.deck import Deck
from terragen.terralogical.formats import BoardState, Entry, parse_state, state_from_text
from terragen.terralogical.scoring import final_bonus
from terragen.terralogical.tiles import END_ID, LANDSCAPE_NAMES, LANDSCAPES, START_ID


def validate_state(state: BoardState, options: RuleOptions | None = None, deck_size: int = 63) -> ValidationReport:
    """Findings and analysis for a parsed board state."""
    opts = options or RuleOptions()
    report = ValidationReport(game="terralogical")
    f: list[Finding] = report.findings

    def err(code: str, message: str, e: Entry | None = None, cells: list | None = None) -> None:
        where = cells if cells is not None else ([e.square] if e is not None else [])
        f.append(error(code, message, where, e.line if e else None, e.col if e else None))

    n = len(state.players)
    if not 2 <= n <= 4:
        f.append(error("player-count", f"Terralogical is for 2 to 4 players, the file lists {n}", (), state.players_line))
    board = Board()
    for square, name, part in ((SUN_SQUARE, START_ID, "start"), (FLOWER_CORNER, END_ID, "end")):
        listed = [e for e in state.entries if e.tile_id == name]
        if not listed:
            err(f"missing-{part}", f"no {name} tile listed (it belongs on {fmt(square)})", cells=[square])
            continue
        for e in listed[1:]:
            err("duplicate-tile", f"the {name} tile is listed more than once", e)
        e = listed[0]
        if e.square != square:
            err(f"{part}-misplaced", f"the {name} tile lies on {fmt(e.square)}, its place is {fmt(square)}", e)
        if e.cube is not None:
            err("cube-on-special", f"the {name} tile on {fmt(e.square)} carries a cube", e)
        if in_bounds(e.square, board.size) and e.square not in board.tiles:
            board.tiles[e.square] = Placed(e.tile, e.rotation, e.tile_id)
    points = [0] * n
    cubes = [0] * n
    first_seen: dict[str, tuple[int, int]] = {}
    land = 0
    flower_at: tuple[int, int] | None = None
    for e in state.entries:
        if e.tile_id in (START_ID, END_ID):
            continue
        land += 1
        if e.from_deck:
            if e.tile_id in first_seen:
                before = first_seen[e.tile_id]
                err(
                    "duplicate-tile",
                    f"deck tile {e.tile_id} lies on {fmt(before)} and again on {fmt(e.square)}",
                    e,
                    [before, e.square],
                )
            first_seen.setdefault(e.tile_id, e.square)
        if flower_at is not None:
            err(
                "placed-after-end",
                f"tile on {fmt(e.square)} is listed after the game ended on flower field {fmt(flower_at)}",
                e,
            )
        chk = board.check(e.square, e.tile, e.rotation, opts)
        for code, message in chk.problems:
            err(code, f"{e.tile_id}: {message}", e)
        if code_blocks_board(chk.problems):
            continue
        board.tiles[e.square] = Placed(e.tile, e.rotation, e.tile_id, e.cube)
        if e.cube is None:
            note = f"tile {e.tile_id} on {fmt(e.square)} carries no cube"
            f.append(warning("missing-cube", note, [e.square], e.line, e.col))
        else:
            cubes[e.cube] += 1
            if cubes[e.cube] == opts.cubes_per_player + 1:
                who = state.players[e.cube]
                err("too-many-cubes", f"{who} has more than {opts.cubes_per_player} cubes (from {fmt(e.square)} on)", e)
            if chk.legal:
                points[e.cube] += chk.points
        if e.square in FLOWER_FIELDS and flower_at is None and chk.legal:  # an illegal tile ends nothing
            flower_at = e.square
    held = sum(h for h in (state.hands or []) if isinstance(h, int) and h > 0)
    if land + held > deck_size:  # the tiles in hand come out of the deck too
        in_hand = f" and {held} in hand" if held else ""
        f.append(error("too-many-tiles", f"{land} land tiles placed{in_hand}, the deck has {deck_size}"))
    bonus = final_bonus(board, max(n, 1), opts.min_flock, opts.flock_ties)
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
        f"{counted(land, 'land tile')}, {'the flower corner was reached' if flower_at else 'the flower corner not reached yet'}",
    ] + [
        f"{name}: {counted(points[s], 'placement point')}, flocks "
        + ", ".join(f"{LANDSCAPE_NAMES[k]} {bonus[k][s]}" for k in LANDSCAPES)
        + f" -> {counted(flock_pts[s], 'point')}, {hands[s]} in hand, total {finals[s]}"
        for s, name in enumerate(state.players)
    ]
    return report


def code_blocks_board(problems: list[tuple[str, str]]) -> bool:
    """Off-board and occupied squares cannot hold the tile; other breaches still place it."""
    return any(code in ("off-board", "square-occupied") for code, _ in problems)


def validate_text(text: str, source: str, *, deck: Deck | None = None, subsoil_rule: str | None = None,
                  min_flock: int | None = None, flock_ties: str | None = None,
                  cubes_per_player: int | None = None) -> ValidationReport:
    """Parse a board state (JSON or text) and validate it.

    ``deck`` resolves tile ids (the shipped default deck otherwise); the rule readings are
    RuleOptions' (None: its default). They are keywords so that a misspelt one is refused
    instead of silently scoring by the default reading.

    A text file is read forgivingly: each line the reader must skip becomes a
    ``syntax`` finding (exit status 2) and the rest is still checked, so one run
    names every bad line. JSON is all or nothing (a JSON error raises InputError).
    """
    require_text(text, "validate_text")  # None failed inside as an AttributeError about lstrip
    if deck is None:
        from terragen.terralogical.default_deck import default_deck

        deck = default_deck()
    readings = {"subsoil_rule": subsoil_rule, "min_flock": min_flock, "flock_ties": flock_ties,
                "cubes_per_player": cubes_per_player}
    rule_opts = RuleOptions(**{k: v for k, v in readings.items() if v is not None})
    if looks_like_json(text):
        return validate_state(parse_state(text, source, deck), rule_opts, deck_size=len(deck.tiles))
    problems: list[tuple[int | None, int | None, str]] = []
    state = state_from_text(text, source, deck, problems=problems)
    syntax = [error(SYNTAX, why, line=line, col=col) for line, col, why in problems]
    if state is None:
        return ValidationReport("terralogical", syntax)
    report = validate_state(state, rule_opts, deck_size=len(deck.tiles))
    report.findings = in_file_order(syntax + report.findings)
    return report

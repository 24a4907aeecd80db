"""``terragen validate`` for Terrain Game layouts: every broken rule, then the analysis.

Each rule has a stable code (listed in ``CODES``) so scripts and tests can
match on it; messages name the cells as ``(q,r)`` and, for text files, the
line and column the piece or player was typed at.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace

from terragen.findings import SYNTAX, Finding, ValidationReport, error, in_file_order, warning
from terragen.formats import looks_like_json, require_text
from terragen.grids import hex as hx
from terragen.plain_text import columns, counted
from terragen.terrain.analysis import Analysis, analyse
from terragen.terrain.board import Board
from terragen.terrain.files import parse_layout
from terragen.terrain.formats_text import parse_text_layout
from terragen.terrain.layout import Layout, require_layout
from terragen.terrain.pieces import MAX_LEVEL, MIN_LEVEL, PATTERNS, Inventory, load_inventory, parse_piece_id
from terragen.terrain.rules import BAD_WEATHER_FACTOR

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_DESTINATIONS = 3

#: code -> (severity, what it means). The codes are a public interface: never rename one.
CODES: dict[str, tuple[str, str]] = {
    SYNTAX: ("error", "a line of a text file could not be read and was skipped (exit status 2)"),
    "cell-off-board": ("error", "a piece lies outside the board of the layout's radius"),
    "cell-missing": ("error", "a board position has no piece"),
    "cell-duplicate": ("error", "a position holds two pieces"),
    "level-out-of-range": ("error", "a level is not 1 to 8"),
    "pattern-unknown": ("error", "a pattern is not A, B, C or D"),
    "rotation-out-of-range": ("error", "a rotation is not 0 to 5"),
    "inventory-exceeded": ("error", "more pieces of one level and pattern than the inventory holds"),
    "piece-id-mismatch": ("warning", "a cell's recorded piece id disagrees with its level or pattern (stale after an edit)"),
    "piece-id-duplicate": ("error", "one physical piece id is used twice"),
    "player-count": ("error", "fewer than 2 or more than 6 players"),
    "seat-duplicate": ("error", "two players share a seat number"),
    "player-off-corner": ("error", "a player's corner is not 0 to 5"),
    "corner-shared": ("error", "two players start on the same corner"),
    "destination-count": ("error", "a player has no destination or more than 3"),
    "destination-off-board": ("error", "a destination is not on a board position with a piece"),
    "destination-shared": ("error", "two destination tokens on one piece"),
    "destination-on-start": ("error", "a destination on a corner where a player starts"),
    "destination-unreachable": ("error", "a destination cannot be reached even ignoring pips (elevation rule)"),
    "destination-pip-unreachable": ("warning", "a destination cannot be reached under the current rotations"),
    "tour-pip-unreachable": ("warning", "each destination is reachable, but no order visits all of them"),
    "destination-count-unequal": ("warning", "players have different numbers of destinations"),
    "inventory-unknown": ("warning", "no standard inventory for this radius; piece counts not checked"),
    "key-unknown": ("warning", "a JSON key is not part of the file contract but close to one (likely misspelt)"),
}


#: Rule breaks that leave no game to play: pieces the rules have no moves for (a level 99, a pattern
#: Z), positions off the board, missing or doubled, a start or a flag off the board, two tokens
#: starting on one corner (one corner cell holds one token; the engine has no rule for a shared
#: start). The simulator refuses them. Breaks the game still plays through (a flag shared or on a
#: start, an over-used inventory, a repeated piece id) are validate's to report, not the simulator's.
UNPLAYABLE_CODES = frozenset({
    "cell-off-board", "cell-missing", "cell-duplicate", "level-out-of-range", "pattern-unknown",
    "rotation-out-of-range", "player-off-corner", "destination-off-board", "corner-shared",
})


def check_game_shape(layout: Layout, source: str = "the layout", min_players: int = MIN_PLAYERS,
                     distinct_seats: bool = True, min_destinations: int = 1, whole_game: bool = True) -> None:
    """Refuse (exit 1) what validate rejects as a game at all, the player and destination
    counts, before simulating or drawing it: a 1-player "match" would otherwise be called
    PLAYABLE, and 20,000 seats or 5,000 destinations would take forever to play or draw.
    Two players on one seat cannot be played either (the report would show two rows for one
    seat); a drawing (``distinct_seats=False``) shows them, with validate's warning. A drawing
    also takes a player with no destination yet (``min_destinations=0``): a board being built by
    hand has none at first, and its sheet is how the builder checks the pieces. With ``whole_game``
    (what the simulator asks) a rule break of :data:`UNPLAYABLE_CODES` is refused too: such a
    board was played and called PLAYABLE, with no word that it breaks the rules."""
    from terragen.errors import EXIT_INVALID, InputError

    n = len(layout.players)
    if not min_players <= n <= MAX_PLAYERS:
        raise InputError(f"{source}: {counted(n, 'player')}; the game takes {MIN_PLAYERS} to {MAX_PLAYERS} "
                         "(terragen validate lists every problem)", EXIT_INVALID)
    seats = [p.seat for p in layout.players]
    if distinct_seats and len(set(seats)) < n:
        twice = sorted({s for s in seats if seats.count(s) > 1})
        raise InputError(f"{source}: seat {twice[0]} is given to two players; each player has a seat of its own "
                         "(terragen validate lists every problem)", EXIT_INVALID)
    for p in layout.players:
        if not min_destinations <= len(p.destinations) <= MAX_DESTINATIONS:
            allowed = f"{min_destinations} to {MAX_DESTINATIONS}" if min_destinations else f"at most {MAX_DESTINATIONS}"
            raise InputError(f"{source}: seat {p.seat} has {counted(len(p.destinations), 'destination')}; each player has "
                             f"{allowed} (terragen validate lists every problem)", EXIT_INVALID)
    if whole_game:
        broken = [f for f in check_layout(layout, None, Board.from_layout(layout))
                  if f.severity == "error" and f.code in UNPLAYABLE_CODES]
        if broken:
            more = f"and {counted(len(broken) - 1, 'more such rule break')}; " if len(broken) > 1 else ""
            raise InputError(f"{source}: breaks the rules, so it is not played: {broken[0].code} ({broken[0].message}; "
                             f"{more}terragen validate lists every problem)", EXIT_INVALID)


def default_inventory(radius: int) -> Inventory | None:
    """The inventory a board of ``radius`` is built from unless the user names one."""
    if radius <= 5:
        return load_inventory("standard")
    if radius == 6:
        return load_inventory("extended")
    return None


def destination_count_message(seat: int, count: int) -> str:
    """The destination-count finding's words, in one place: the web page tells a seat with no
    destination yet (work to do on a board being built) from one with too many (a mistake) by them."""
    return f"seat {seat} has {counted(count, 'destination')}; each player has 1 to {MAX_DESTINATIONS}"


def _pos(obj) -> dict:
    return {"line": obj.where[0], "col": obj.where[1]} if getattr(obj, "where", None) else {}


def _fmt(h) -> str:
    return f"({h[0]},{h[1]})"


def check_layout(layout: Layout, inventory: Inventory | None = None, board: Board | None = None) -> list[Finding]:
    """Every rule the layout breaks, in a stable order (cells, pieces, players, destinations)."""
    out: list[Finding] = []
    R = layout.radius
    board_set = set(hx.board_cells(R))
    seen: dict[tuple[int, int], object] = {}
    for c in layout.cells:
        if c.hex not in board_set:
            out.append(error("cell-off-board", f"piece at {_fmt(c.hex)} is off the radius-{R} board", [c.hex], **_pos(c)))
        elif c.hex in seen:
            out.append(error("cell-duplicate", f"position {_fmt(c.hex)} is listed twice", [c.hex], **_pos(c)))
        else:
            seen[c.hex] = c
        if not MIN_LEVEL <= c.level <= MAX_LEVEL:
            out.append(error("level-out-of-range", f"piece at {_fmt(c.hex)} has level {c.level}; levels run {MIN_LEVEL} to {MAX_LEVEL}", [c.hex], **_pos(c)))
        if c.pattern not in PATTERNS:
            out.append(error("pattern-unknown", f"piece at {_fmt(c.hex)} has pattern {c.pattern!r}; patterns are A, B, C, D", [c.hex], **_pos(c)))
        if not 0 <= c.rotation <= 5:
            out.append(error("rotation-out-of-range", f"piece at {_fmt(c.hex)} has rotation {c.rotation}; rotations run 0 to 5", [c.hex], **_pos(c)))
    missing = [h for h in hx.board_cells(R) if h not in seen]
    if missing:
        shown = ", ".join(_fmt(h) for h in missing[:12]) + (" ..." if len(missing) > 12 else "")
        out.append(error("cell-missing", f"{_no_piece(len(missing))}: {shown}", missing))

    if inventory is None:
        out.append(warning("inventory-unknown", f"no standard inventory for radius {R}; piece counts were not checked (use --inventory)"))
    else:
        kinds: dict[tuple[int, str], list] = defaultdict(list)
        for c in seen.values():  # each board position once: a duplicate is its own error
            kinds[(c.level, c.pattern)].append(c)
        for (lv, pat), cells in sorted(kinds.items()):
            if lv < MIN_LEVEL or lv > MAX_LEVEL or pat not in PATTERNS:
                continue
            have = inventory.count(lv, pat)
            if len(cells) > have:
                out.append(error(
                    "inventory-exceeded",
                    f"{len(cells)} pieces {lv}{pat} used, the {inventory.name} inventory has {have}: "
                    + ", ".join(_fmt(c.hex) for c in cells),
                    [c.hex for c in cells], **_pos(cells[have] if have < len(cells) else cells[0]),
                ))
    ids: dict[str, list] = defaultdict(list)
    for c in layout.cells:
        pid = c.extra.get("piece")
        if pid is None:
            continue
        try:
            lv, pat, _ = parse_piece_id(str(pid))
        except ValueError:
            out.append(warning("piece-id-mismatch", f"piece at {_fmt(c.hex)} has an unreadable id {pid!r}", [c.hex], **_pos(c)))
            continue
        if (lv, pat) != (c.level, c.pattern):
            out.append(warning("piece-id-mismatch", f"piece at {_fmt(c.hex)} is {c.level}{c.pattern} but its recorded id says "
                               f"{pid}: the id is stale after an edit (the piece on the map counts; drop or fix the id "
                               "in the extra: line or the cell's \"piece\" key)", [c.hex], **_pos(c)))
            continue  # a stale id names no physical piece: it cannot clash with another
        ids[str(pid)].append(c)
    for pid, cells in sorted(ids.items()):
        if len(cells) > 1:
            out.append(error("piece-id-duplicate", f"piece {pid} is used {len(cells)} times: " + ", ".join(_fmt(c.hex) for c in cells), [c.hex for c in cells], **_pos(cells[1])))

    players = layout.players
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        out.append(error("player-count", f"{counted(len(players), 'player')}; the game takes {MIN_PLAYERS} to {MAX_PLAYERS}"))
    seats = Counter(p.seat for p in players)
    for seat, n in sorted(seats.items()):
        if n > 1:
            out.append(error("seat-duplicate", f"seat {seat} is given to {n} players", **_pos([p for p in players if p.seat == seat][1])))
    corner_owner: dict[int, int] = {}
    starts: set[tuple[int, int]] = set()
    for p in players:
        if not 0 <= p.corner <= 5:
            out.append(error("player-off-corner", f"seat {p.seat} has corner {p.corner}; corners are numbered 0 to 5", **_pos(p)))
            continue
        start = hx.corner(R, p.corner)
        starts.add(start)
        if p.corner in corner_owner:
            out.append(error("corner-shared", f"seats {corner_owner[p.corner]} and {p.seat} both start on corner {p.corner} {_fmt(start)}", [start], **_pos(p)))
        else:
            corner_owner[p.corner] = p.seat

    counts = set()
    token_at: dict[tuple[int, int], int] = {}
    for p in players:
        n = len(p.destinations)
        counts.add(n)
        if not 1 <= n <= MAX_DESTINATIONS:
            out.append(error("destination-count", destination_count_message(p.seat, n), **_pos(p)))
        for d in p.destinations:
            if d.hex not in seen:
                where = "off the board" if d.hex not in board_set else "on an empty position"
                out.append(error("destination-off-board", f"seat {p.seat}'s destination {_fmt(d.hex)} is {where}", [d.hex], **_pos(d)))
                continue
            if d.hex in token_at:
                out.append(error("destination-shared", f"destination {_fmt(d.hex)} of seat {p.seat} shares a piece with one of seat {token_at[d.hex]}'s", [d.hex], **_pos(d)))
            else:
                token_at[d.hex] = p.seat
            if d.hex in starts:
                out.append(error("destination-on-start", f"seat {p.seat}'s destination {_fmt(d.hex)} is on a corner where a player starts", [d.hex], **_pos(d)))
    # among the seats whose count is allowed: a seat with none was said twice, once as the error it is
    if len({n for n in counts if 1 <= n <= MAX_DESTINATIONS}) > 1:
        out.append(warning("destination-count-unequal", "players have different numbers of destinations: " + ", ".join(f"seat {p.seat}: {len(p.destinations)}" for p in players)))
    return out


def misspelt_key_findings(layout: Layout) -> list[Finding]:
    """Keys kept as extra data that look like a misspelt contract key (``"player"`` for ``"players"``).

    Extra keys are allowed, so these are warnings; they explain an error that
    follows from the missing key (no players, a cell without a level).
    """
    from terragen.suggest import suggest
    from terragen.terrain.formats_json import CONTRACT_KEYS

    out: list[Finding] = []

    def check(extra: dict, where: str, known: str) -> None:
        for key in sorted(extra):
            if key in ("piece", "meta"):
                continue  # extras terragen writes itself (a generated board's every cell has a piece)
            guess = suggest(key, CONTRACT_KEYS[known])
            if guess is not None:
                out.append(warning("key-unknown", f"{where}: unknown key {key!r}: did you mean {guess!r}? "
                                                  "(kept as extra data)"))

    check(layout.extra, "layout", "layout")
    for c in layout.cells:
        check(c.extra, f"cell ({c.q},{c.r})", "cell")
    for p in layout.players:
        check(p.extra, f"seat {p.seat}", "player")
        for d in p.destinations:
            check(d.extra, f"seat {p.seat}'s destination ({d.q},{d.r})", "destination")
    return out


def _opening_turn(board: Board, start: hx.Hex, goal: hx.Hex) -> tuple[str, list[hx.Hex]]:
    """What a pip-blocked destination's warning suggests: the piece nearest the destination whose
    single turn opens a way (first in the finding's cells, so a click on it selects that piece), or
    that no single turn does."""
    from terragen.terrain.paths import opening_turns

    turns = opening_turns(board, board.index[start], board.index[goal])
    if not turns:
        return "no single turn of a piece opens a way: it takes turns of several, on doubles", []
    cell, rotation = turns[0]
    return (f"turning the piece at {_fmt(board.hexes[cell])} to rotation {rotation} opens a way, as a turn on "
            "doubles may"), [board.hexes[cell]]


def reachability_findings(layout: Layout, analysis: Analysis, board: Board | None = None,
                          puzzle: bool = False) -> list[Finding]:
    """Destinations a seat cannot reach: an error when not even ignoring pips (no game can end), a
    warning when only the pieces' present turns block it (a rotation on doubles may open it), naming
    a piece whose turn would, save on a ``puzzle`` (a rotation puzzle is that very block, and the
    piece named was its answer). Apart from the layout checks because it needs the analysis's paths."""
    board = board if board is not None else Board.from_layout(layout)
    out: list[Finding] = []
    for p, rep in zip(layout.players, analysis.players):
        if rep.start is None:
            continue
        for d, dr in zip(p.destinations, rep.destinations):
            if dr.reachable_elevation is False and d.hex in dict.fromkeys(c.hex for c in layout.cells):
                out.append(error("destination-unreachable", f"seat {p.seat} cannot reach destination {_fmt(d.hex)} from {_fmt(rep.start)} even ignoring pips: cliffs or inverted pieces cut it off", [d.hex], **_pos(d)))
            elif not dr.reachable_pips and dr.reachable_elevation:
                hint, cells = (("a rotation on doubles may open it", []) if puzzle
                               else _opening_turn(board, rep.start, d.hex))
                out.append(warning("destination-pip-unreachable", f"seat {p.seat} cannot reach destination {_fmt(d.hex)} from {_fmt(rep.start)} with the pieces as they are turned now ({hint})", cells + [d.hex], **_pos(d)))
        if p.destinations and all(dr.reachable_pips for dr in rep.destinations) and rep.expected_turns is None and len(p.destinations) > 1:
            out.append(warning("tour-pip-unreachable", f"seat {p.seat} can reach each destination, but no order lets it visit all of them", [d.hex for d in p.destinations], **_pos(p)))
    return out


#: Errors after which the analysis means nothing and its cost grows with the hostile size
#: (every one of 20,000 players, every order of 5,000 destinations): it is skipped.
BLOCKING_CODES = frozenset({"player-count", "destination-count"})


def analysable(findings: list[Finding]) -> bool:
    """Whether the layout is sound enough for the per-player analysis to mean anything."""
    return not any(f.code in BLOCKING_CODES for f in findings)


def validate_layout(layout: Layout, inventory: Inventory | None = None, source: str | None = None,
                    puzzle: bool = False) -> ValidationReport:
    """Every rule the layout breaks and, when it is sound enough to mean anything, the per-seat
    analysis (costs, expected turns, race model): ``terragen validate``'s report, findings and data
    alike. It never raises for a bad layout; a caller decides by ``report.valid`` and the findings.
    ``inventory`` defaults to the set of pieces a board of this radius is built from. ``puzzle``:
    the layout is a batch puzzle's, whose one player is the puzzle, not a broken rule (validate
    called every scenario INVALID)."""
    require_layout(layout, "validate_layout")
    inv = inventory if inventory is not None else default_inventory(layout.radius)
    board = Board.from_layout(layout)
    findings = misspelt_key_findings(layout) + check_layout(layout, inv, board)
    if puzzle and len(layout.players) == 1:
        findings = [f for f in findings if f.code != "player-count"]
    if not analysable(findings):
        report = ValidationReport("terrain", findings, {"radius": layout.radius, "players": [], "analysis": "skipped"})
        report.summary = ["analysis skipped: fix the player or destination count first"]
        return report
    analysis = analyse(layout, board, with_race=True)
    findings += reachability_findings(layout, analysis, board, puzzle=puzzle)
    data = {
        "radius": layout.radius,
        "players": [p.to_json() for p in analysis.players],
        "metrics": analysis.metrics(),
    }
    report = ValidationReport("terrain", findings, data)
    report.summary = summary_lines(layout, analysis)
    return report


def validate_text(text: str, source: str = "<layout>", inventory: str | Inventory | None = None) -> ValidationReport:
    """Entry point used by ``terragen validate`` (see ``terragen.formats.VALIDATORS``).

    A text file is read forgivingly: each line the reader must skip becomes a
    ``syntax`` finding and the rest of the file is still checked, so one run
    names every problem. JSON is all or nothing (a JSON error raises InputError).
    """
    require_text(text, "validate_text")  # None or 5 failed inside as an AttributeError about lstrip
    inv = load_inventory(inventory) if isinstance(inventory, str) else inventory
    if looks_like_json(text):
        from terragen.terrain.formats_json import is_scenario

        return validate_layout(parse_layout(text, source), inv, source, puzzle=is_scenario(text))
    parsed = parse_text_layout(text, source)
    syntax = in_file_order([error(SYNTAX, p.detail, line=p.line, col=p.col) for p in parsed.problems])
    if parsed.layout is None:
        return ValidationReport("terrain", syntax, {})
    report = validate_layout(parsed.layout, inv, source)
    report.findings = in_file_order(syntax + _without_skipped(report.findings, parsed.skipped))
    return report


def _without_skipped(findings: list[Finding], skipped: set) -> list[Finding]:
    """Drop 'no piece' reports for positions whose row or token was already reported unreadable."""
    out = []
    for f in findings:
        if f.code == "destination-off-board" and f.cells and tuple(f.cells[0]) in skipped:
            continue
        if f.code in ("destination-unreachable", "destination-pip-unreachable") and skipped:
            # a skipped row is a hole no route crosses: blaming cliffs sent users looking for cliffs
            f = replace(f, message=f"{f.message}, or only the holes a line skipped above leaves")
        if f.code == "cell-missing" and skipped:
            left = [h for h in f.cells if tuple(h) not in skipped]
            if not left:
                continue
            shown = ", ".join(_fmt(h) for h in left[:12]) + (" ..." if len(left) > 12 else "")
            f = error("cell-missing", f"{_no_piece(len(left))}: {shown}", left)
        out.append(f)
    return out


def _no_piece(n: int) -> str:
    """The head of a cell-missing finding: "1 board position has no piece", "3 ... have"."""
    return f"{counted(n, 'board position')} {'has' if n == 1 else 'have'} no piece"


def _num(v, fmt: str = "{}") -> str:
    return "-" if v is None else fmt.format(v)


def summary_lines(layout: Layout, analysis: Analysis) -> list[str]:
    """Two readable tables, so that each fits an 80-column terminal: the routes (one row per
    destination) and then each seat's chances (one row per seat); then the board metrics. In one
    table the thirteen columns took 132 columns on a six-seat board, and a wrapped terminal line
    is no table. With several destinations a seat's whole tour (every flag, best order) gets a
    column of its own: it is the cost the summary line, the JSON and generate's table give, and no
    destination's own row shows it."""
    tours = any(len(rep.destinations or ()) > 1 for rep in analysis.players)
    placed = {c.hex for c in layout.cells}
    unknown = False  # a destination on a position with no piece (a row the reader skipped): not a NO
    routes = [("seat", "corner", "destination", "elev", "pips", "cost good/bad", "tour good/bad", "up-3")]
    chances = [("seat", "exp. turns", "fragility", "finish p10/50/90", "race, 0 opens", "race, rotating")]
    for rep in analysis.players:
        first = True
        for d in rep.destinations or [None]:
            gone = d is not None and (d.q, d.r) not in placed
            unknown |= gone
            routes.append((
                str(rep.seat) if first else "",
                (f"{rep.corner} {_fmt(rep.start)}" if rep.start else str(rep.corner)) if first else "",
                _fmt((d.q, d.r)) if d else "-",
                ("?" if gone else "yes" if d.reachable_elevation else "NO") if d else "-",
                ("?" if gone else "yes" if d.reachable_pips else "NO") if d else "-",
                f"{d.cost_good}/{d.cost_bad}" if d and d.cost_good is not None else "-",
                (f"{rep.tour_cost}/{rep.tour_cost * BAD_WEATHER_FACTOR}" if rep.tour_cost is not None else "-")
                if first else "",
                _num(rep.up3_steps) if first else "",
            ))
            first = False
        q = rep.finish_quantiles() or {}
        chances.append((
            str(rep.seat),
            _num(rep.expected_turns, "{:.2f}"),
            str(rep.fragility),
            "/".join(_num(q.get(k)) for k in ("p10", "p50", "p90")) if q else "-",
            _num(rep.win_probability_race, "{:.1%}"),
            _num(rep.win_probability_race_rotating, "{:.1%}"),
        ))
    if not tours:  # one destination each: the tour is that destination's cost
        routes = [r[:6] + r[7:] for r in routes]
    lines = columns(routes) + [""] + columns(chances)
    m = analysis.metrics()
    if unknown:
        lines.append("? the destination's position has no piece (a row that could not be read, or a piece "
                     "missing): fix that first; until then its routes cannot be known")
    lines.append("")
    lines.append(
        f"board: radius {layout.radius}, {len(layout.cells)} pieces, {m['cliffs']} cliffs, "
        f"{m['blocked_exits']} dead pips, {m['up3_arcs']} up-3 steps"
    )
    if m["expected_turns_mean"] is not None:
        if m["fairness_spread"] is not None:
            spread = f"fairness spread {m['fairness_spread']:.2f} turns"
        elif unknown:  # a destination without a piece: its routes are unknown, not missing
            spread = "no fairness spread until every destination has a piece"
        else:  # it said "spread - turns"
            spread = "no fairness spread: a seat has no route as the pieces are turned now"
        lines.append(
            f"difficulty: mean expected turns {m['expected_turns_mean']:.2f}, cheapest cost "
            f"{_num(m['cost_min'])} to {_num(m['cost_max'])}, {spread}"
        )
    if analysis.race is not None and len(analysis.players) > 1:
        lines.append(
            f"race model (lone tokens, no send-backs or rotations): worst seat {100 * m['race_max_deviation']:.1f} points "
            f"from a fair share with seat {min(p.seat for p in layout.players)} opening, "
            f"{100 * m['race_max_deviation_rotating']:.1f} with the opener rotating"
        )
        lines.append(chances_of(m)[1])
    return lines


#: a seat this far from a fair share in the race of lone tokens is plainly favoured or left behind:
#: tokens meeting on the board moved a seat by up to about 9 points on measured boards (issue 12)
FAR_FROM_EVEN = 0.10


def chances_of(metrics: dict) -> tuple[str | None, str]:
    """:func:`race_chances` of an analysis's ``metrics``, level None (no badge) while a seat has no
    route: such a seat wins no race of lone tokens, and "far from even" told nothing on a board of
    two pieces. One rule for validate's line and the page's badge."""
    if metrics.get("fairness_spread") is None:
        return None, ("chances: not judged while a seat has no route to its destinations (the race model "
                      "gives it no win)")
    return race_chances(metrics["race_max_deviation_rotating"])


def race_chances(deviation: float) -> tuple[str, str]:
    """The race model's worst seat (opener rotating) in words, as ``(level, line)``, level ``far``
    or ``open``. Why: "valid" says a board is legal, and a player read it as good to play on a
    board where one seat wins 94% of races; a race that lopsided already says the board is not
    fair. Nearer than :data:`FAR_FROM_EVEN` the race model cannot tell (tokens meeting move seats by
    as much; a generated BALANCED board's race can be 5 points off), so the line leaves the verdict
    to full games (``simulate``) and says so: an "uneven" badge stood over boards simulate calls
    BALANCED."""
    points = 100 * deviation
    if deviation > FAR_FROM_EVEN:
        return "far", (f"chances: far from even ({points:.1f} points off in the race model alone; 'terragen "
                       "simulate' plays full games for the BALANCED verdict)")
    return "open", (f"chances: no seat far from even in the race model ({points:.1f} points off at worst; tokens "
                    "meeting move seats by as much, so only 'terragen simulate' can call the board BALANCED)")

"""Final scoring: the largest flock of each player on each landscape, and hand penalties.

Precise reading used here (see docs/rules-decisions.md): two orthogonally
neighbouring tiles form an *entire field* of landscape L when the triangles
touching across their shared edge are both L, or one is L and the other a
cloud (the cloud completes its neighbour). Two clouds form no entire field:
there is nothing for them to complete. A player's flock on L is a group of
that player's cubes in which each step goes from one cube's tile to an
orthogonally neighbouring cube's tile across an entire field of L. Its size is
its number of cubes; groups smaller than ``min_flock`` count as zero.
"""

from __future__ import annotations

from terragen.grids.square import Square
from terragen.terralogical.board import FLOCK_TIES, Board
from terragen.terralogical.tiles import LANDSCAPES, Triangle, opposite

#: Points for the 1st, 2nd, 3rd largest flock on a landscape, by player count.
RANK_POINTS = {1: (4,), 2: (4,), 3: (4, 2), 4: (4, 2, 1)}


def entire_field(a: Triangle, b: Triangle) -> str | None:
    """The landscape the two touching triangles complete together, if any."""
    if a.is_cloud and b.is_cloud:
        return None
    if a.is_cloud:
        return b.kind
    if b.is_cloud or a.kind == b.kind:
        return a.kind
    return None


def field_links(board: Board) -> list[tuple[Square, Square, str]]:
    """Every entire field on the board as (square, east/south neighbour, landscape)."""
    links = []
    for sq, placed in sorted(board.tiles.items()):
        for side in (1, 2):  # east and south: each shared edge once
            n = (sq[0] + (side == 2), sq[1] + (side == 1))
            other = board.tiles.get(n)
            if other is None:
                continue
            kind = entire_field(placed.side(side), other.side(opposite(side)))
            if kind is not None:
                links.append((sq, n, kind))
    return links


def flocks(board: Board, seat: int, landscape: str) -> list[list[Square]]:
    """The player's flocks on one landscape, largest first (squares sorted inside each)."""
    mine = {sq for sq, p in board.tiles.items() if p.owner == seat}
    adj: dict[Square, list[Square]] = {sq: [] for sq in mine}
    for a, b, kind in field_links(board):
        if kind == landscape and a in mine and b in mine:
            adj[a].append(b)
            adj[b].append(a)
    seen: set[Square] = set()
    groups = []
    for start in sorted(mine):
        if start in seen or not adj[start]:
            continue
        stack, group = [start], []
        seen.add(start)
        while stack:
            sq = stack.pop()
            group.append(sq)
            for n in adj[sq]:
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        groups.append(sorted(group))
    # A lone cube on the landscape is a flock of one.
    on_landscape = {a for a, b, k in field_links(board) if k == landscape} | {
        b for a, b, k in field_links(board) if k == landscape
    }
    for sq in sorted(mine - seen):
        if sq in on_landscape:
            groups.append([sq])
    groups.sort(key=lambda g: (-len(g), g))
    return groups


def largest_flock(board: Board, seat: int, landscape: str, min_flock: int = 2) -> int:
    """Size of the player's biggest flock on the landscape, 0 when below ``min_flock``."""
    groups = flocks(board, seat, landscape)
    size = len(groups[0]) if groups else 0
    return size if size >= min_flock else 0


def rank_points(sizes: list[int], players: int, ties: str = "share") -> list[int]:
    """Flock bonus per seat; a zero-size flock earns nothing.

    ``share`` (decision 11): tied players share a place and the next player takes
    the place after them, so two tied for the largest both get the first prize and
    the next player is third. ``by-count``: the rulebook's "second highest cube
    count" read literally, ranking the distinct counts, so the next player is second.
    """
    if ties not in FLOCK_TIES:
        raise ValueError(f"flock ties are ranked {' or '.join(FLOCK_TIES)}, not {ties!r}")
    table = RANK_POINTS.get(players, (4, 2, 1))
    out = []
    for s in sizes:
        if s <= 0:
            out.append(0)
            continue
        above = {t for t in sizes if t > s} if ties == "by-count" else [t for t in sizes if t > s]
        rank = len(above)
        out.append(table[rank] if rank < len(table) else 0)
    return out


def final_bonus(board: Board, players: int, min_flock: int = 2, ties: str = "share") -> dict[str, list[int]]:
    """Per landscape: each seat's largest flock size and the points it earns."""
    out: dict[str, list[int]] = {}
    for land in LANDSCAPES:
        sizes = [largest_flock(board, seat, land, min_flock) for seat in range(players)]
        out[land] = sizes
        out[land + "_points"] = rank_points(sizes, players, ties)
    return out


def final_scores(board: Board, placement_points: list[int], hands: list[int], min_flock: int = 2,
                 ties: str = "share") -> list[int]:
    """Placement points plus flock prizes minus one per tile left in hand."""
    players = len(placement_points)
    bonus = final_bonus(board, players, min_flock, ties)
    totals = []
    for seat in range(players):
        flock_pts = sum(bonus[land + "_points"][seat] for land in LANDSCAPES)
        totals.append(placement_points[seat] + flock_pts - hands[seat])
    return totals

"""An independent, deliberately naive Terrace move generator for cross-checking.

It shares no code with ``terragen.terrace`` beyond plain data: heights come
from the rulebook's printed table (8x8) or from reflecting one quadrant, and
moves are found by trying every (from, to) pair and testing the rule
conditions one by one. It is slow on purpose; clarity is the point.
"""

from __future__ import annotations

RULEBOOK_HEIGHTS = """
8 7 6 5 4 3 2 1
7 7 6 5 4 3 2 2
6 6 6 5 4 3 3 3
5 5 5 5 4 4 4 4
4 4 4 4 5 5 5 5
3 3 3 4 5 6 6 6
2 2 3 4 5 6 7 7
1 2 3 4 5 6 7 8
"""

SIZE_OF = {"T": 1, "A": 1, "B": 2, "C": 3, "D": 4}  # T ranks with A (terragen's default)


def ref_heights(n: int) -> dict[tuple[int, int], int]:
    if n == 8:
        rows = [list(map(int, line.split())) for line in RULEBOOK_HEIGHTS.strip().splitlines()]
        return {(i, j): rows[i][j] for i in range(8) for j in range(8)}
    half = n // 2

    def top_left(i, j):  # nested L's stepping down from the corner
        return n - max(i, j)

    out = {}
    for i in range(n):
        for j in range(n):
            if i < half and j < half:
                out[(i, j)] = top_left(i, j)
            elif i < half:
                out[(i, j)] = n + 1 - top_left(i, n - 1 - j)
            elif j < half:
                out[(i, j)] = n + 1 - top_left(n - 1 - i, j)
            else:
                out[(i, j)] = top_left(n - 1 - i, n - 1 - j)
    return out


def ref_objective(side: str, n: int) -> tuple[int, int]:
    return {"top": (n - 1, 0), "bottom": (0, n - 1), "left": (0, n - 1), "right": (n - 1, 0)}[side]


class RefGame:
    """State: dict square -> (side, kind), seats in turn order, alive seats, side to move."""

    def __init__(self, pieces, seats, to_move, n):
        self.pieces = dict(pieces)
        self.seats = list(seats)
        self.alive = [s for s in seats if any(p == (s, "T") for p in self.pieces.values())]
        self.to_move = to_move
        self.n = n
        self.H = ref_heights(n)
        self.over = False
        for s in seats:
            if self.pieces.get(ref_objective(s, n)) == (s, "T"):
                self.over = True
        if len(self.alive) == 1:
            self.over = True

    def _crosses_centre(self, a, b) -> bool:
        c = (self.n - 1) / 2
        return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1 and (a[0] + b[0]) / 2 == c and (a[1] + b[1]) / 2 == c

    def _terrace_path_free(self, a, b, side) -> bool:
        """Is there a walk from a to b over equal-height, side-adjacent squares, never on an opponent?"""
        h = self.H[a]
        seen, todo = {a}, [a]
        while todo:
            r, c = todo.pop()
            for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if q in seen or self.H.get(q) != h:
                    continue
                if q == b:
                    return True
                occ = self.pieces.get(q)
                if occ is not None and occ[0] != side:
                    continue
                seen.add(q)
                todo.append(q)
        return False

    def moves(self):
        if self.over:
            return []
        me = self.to_move
        out = []
        for a, (side, kind) in sorted(self.pieces.items()):
            if side != me:
                continue
            for b in sorted(self.H):
                if b == a or self._crosses_centre(a, b):
                    continue
                dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
                dh = self.H[b] - self.H[a]
                target = self.pieces.get(b)
                if target is None:
                    if dh == 0 and self._terrace_path_free(a, b, me):
                        out.append((a, b))
                    elif dh == 1 and max(dr, dc) == 1:
                        out.append((a, b))
                    elif dh == -1 and dr + dc == 1:
                        out.append((a, b))
                elif dh == -1 and dr == 1 and dc == 1 and SIZE_OF[target[1]] <= SIZE_OF[kind]:
                    out.append((a, b))
        return out

    def play(self, a, b) -> "RefGame":
        g = RefGame.__new__(RefGame)
        g.__dict__.update(self.__dict__)
        g.pieces = dict(self.pieces)
        g.alive = list(self.alive)
        mover = self.to_move
        moving = g.pieces.pop(a)
        taken = g.pieces.get(b)
        g.pieces[b] = moving
        if taken is not None and taken[1] == "T":
            loser = taken[0]
            g.alive.remove(loser)
            if len(self.seats) == 2:
                g.over = True
            else:
                g.pieces = {sq: p for sq, p in g.pieces.items() if p[0] != loser}
                if len(g.alive) == 1:
                    g.over = True
        if moving[1] == "T" and b == ref_objective(mover, self.n):
            g.over = True
        if not g.over:
            k = self.seats.index(mover)
            for step in range(1, len(self.seats) + 1):
                nxt = self.seats[(k + step) % len(self.seats)]
                if nxt in g.alive:
                    g.to_move = nxt
                    break
        return g


def ref_perft(g: RefGame, depth: int) -> int:
    if depth == 0:
        return 1
    ms = g.moves()
    if depth == 1:
        return len(ms)
    return sum(ref_perft(g.play(a, b), depth - 1) for a, b in ms)

"""Terrace's greedy player: games per second now, side by side with the way it was before.

The greedy player weighs every legal move by playing it and asking whether the game is over;
that asked for every move of the other side (`result` listed them all) and found the T by
building the whole piece map. Both now stop early. The baseline puts the two old ways back in
the same process, plays the same games and checks they are the same.

    python bench/terrace_greedy_speed.py --games 40 --repeats 3
"""

from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from unittest.mock import patch

from terragen.terrace.play import play_match
from terragen.terrace.position import Position

sys.path.insert(0, os.path.dirname(__file__))
from games_side_by_side import arguments, side_by_side  # noqa: E402


def _old_has_move(self: Position) -> bool:
    return bool(self._gen_all())


def _old_t_square(self: Position, side: str):
    for sq, p in self.pieces().items():
        if p.side == side and p.kind == "T":
            return sq
    return None


def main() -> None:
    args = arguments(__doc__)

    def old_code() -> ExitStack:
        stack = ExitStack()
        stack.enter_context(patch.object(Position, "_has_move", _old_has_move))
        stack.enter_context(patch.object(Position, "t_square", _old_t_square))
        return stack

    side_by_side(lambda: play_match(Position.start("full"), ["greedy", "greedy"], args.games, args.seed, 300),
                 old_code, args.repeats, args.games,
                 lambda report: f"{args.games} greedy-vs-greedy games (full set-up, seed {args.seed}, "
                                f"{report['plies']['mean'] * args.games:.0f} plies)")


if __name__ == "__main__":
    main()

"""When a four- or six-seat search writes a board the experts' glance refused (or held back), was a
fairer one among those it chose from?

    python bench/set_aside_choice.py 4 hard:140103 brutal:140105 ...   # players preset:seed ...

Runs ``generate_board`` on each spec and records the lists the search chooses a set-aside or
held-back board from (``experts_refused``, ``experts_near`` in ``terragen/terrain/generate``: each
board with the glance's reading of its classes). Every board of a list with more than one is then
played by expert players at ``terragen simulate``'s default games on a seed no search used, and
printed with the glance's reading, the games it read on, the worst seat and ``simulate``'s verdict:
whether the board the search wrote (the lowest reading) was the fairest it had, and
how far a better-read choice could go. Lists of one board are counted, not played (no choice).
"""

from __future__ import annotations

import builtins
import json
import sys

SIM_SEED = 9979  # a seed no search uses (the generator draws its own from the spec's seed)


def main() -> None:
    import terragen.terrain.generate as G
    from terragen.terrain.generate import BalanceSettings, generate_board
    from terragen.terrain.generate.options import build_spec
    from terragen.terrain.sim import simulate_layout

    players = int(sys.argv[1])
    chosen_lists: list[list] = []

    def recording_min(*args, **kwargs):
        items = args[0] if len(args) == 1 else None
        if isinstance(items, list) and items and isinstance(items[0], tuple) and len(items[0]) == 4 \
                and isinstance(items[0][3], dict) and "expert_glance" in items[0][3]:
            chosen_lists.append(list(items))
        return builtins.min(*args, **kwargs)

    G.min = recording_min
    for spec_text in sys.argv[2:]:
        difficulty, seed = spec_text.split(":")
        spec, _ = build_spec({"players": players, "difficulty": difficulty}, None)
        chosen_lists.clear()
        generate_board(spec, int(seed), 60.0, balance=BalanceSettings(), workers=None)
        for items in chosen_lists:
            head = {"spec": f"{players} {difficulty} {seed}", "boards": len(items)}
            if len(items) < 2:
                print(json.dumps({**head, "note": "one board: no choice"}), flush=True)
                continue
            best = builtins.min(range(len(items)), key=lambda k: items[k][0])
            for k, (reading, layout, _data, record) in enumerate(items):
                report = simulate_layout(layout, seed=SIM_SEED, policy="expert", workers=2)  # its default games
                worst = max(abs(seat.deviation) for seat in report.seats)
                print(json.dumps({**head, "board": k, "written": k == best, "glance_read": round(100 * reading, 2),
                                  "glance_games": record["expert_glance"].get("games"),
                                  "worst_seat": round(100 * worst, 2), "balanced": report.balanced}), flush=True)


if __name__ == "__main__":
    main()

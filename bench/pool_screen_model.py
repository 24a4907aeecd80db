"""How much the second simulation process gives on the class search's screens, and where the rest goes.

    python bench/pool_screen_model.py bench/boards/gen-4p-medium-seed1001.json

A model of the screens: 12 destination sets of one terrain (each seat's destination drawn from the
cells within 2 of the centre), greedy and solitary players grown 100 -> 400 -> 1,200 -> 2,400 games
each, as ``class_search._grow`` grows a pair that passes every step. Timed three ways: in this process
(one worker), spread over two workers one run after another (what the generator does), and spread with
both kinds of player's runs of a step sent at once (no wait between them). Then the CPU cost of
splitting one destination set's games between two processes: the same games played whole, and as two
halves each starting from cold tables (what two workers do).
"""
import random
import sys
import time

from terragen.terrain.files import load_layout
from terragen.terrain.layout import Destination
from terragen.terrain.sim.pool import GamePool, _item_size
from terragen.terrain.sim.runner import forget_tables, run_games
from terragen.terrain.sim.variants import Rules

SIZES = [100, 400, 1200, 2400]


def variants(layout, count=12):
    rng = random.Random(1)
    inner = [(c.q, c.r) for c in layout.cells if max(abs(c.q), abs(c.r), abs(c.q + c.r)) <= 2]
    out = []
    for _ in range(count):
        v = layout.copy()
        for p, (q, r) in zip(v.players, rng.sample(inner, len(v.players))):
            p.destinations = [Destination(q, r)]
        out.append(v)
    return out


def both_at_once(pool, layout, seats, start, stop):
    """Both kinds of player's games of one step as one batch of work items."""
    size = _item_size(stop - start, pool.workers)
    items = [(pol, a, min(a + size, stop)) for pol in ("greedy", "solitary") for a in range(start, stop, size)]
    workers = pool._started()
    done = [workers.apply_async(run_games, (layout, Rules(), [pol] * seats, 7, a, b)) for pol, a, b in items]
    return [d.get() for d in done]


def screens(layouts, workers, together=False):
    seats = len(layouts[0].players)
    with GamePool(workers) as pool:
        if workers > 1:
            pool._started()
        began = time.perf_counter()
        for v in layouts:
            played = 0
            for size in SIZES:
                if together:
                    both_at_once(pool, v, seats, played, size)
                else:
                    for pol in ("greedy", "solitary"):
                        pool.run(v, Rules(), [pol] * seats, 7, played, size)
                played = size
        return time.perf_counter() - began


if __name__ == "__main__":
    layouts = variants(load_layout(sys.argv[1]))
    one = screens(layouts, 1)
    two = screens(layouts, 2)
    together = screens(layouts, 2, together=True)
    print(f"screens: one process {one:.2f} s, two {two:.2f} s ({one / two:.2f}x), "
          f"two with both kinds of player sent at once {together:.2f} s ({one / together:.2f}x)")
    seats = len(layouts[0].players)
    for pol in ("greedy", "solitary"):
        whole = split = 0.0
        for v in layouts:
            forget_tables()
            t = time.process_time()
            run_games(v, Rules(), [pol] * seats, 7, 0, 2400)
            whole += time.process_time() - t
            forget_tables()
            t = time.process_time()
            run_games(v, Rules(), [pol] * seats, 7, 0, 1200)
            forget_tables()
            run_games(v, Rules(), [pol] * seats, 7, 1200, 2400)
            split += time.process_time() - t
        print(f"{pol}: 2,400 games a set whole {whole:.2f} CPU s, in two cold halves {split:.2f} ({split / whole:.2f}x)")

"""A generate run's progress lines, plus each seat's rate whenever the class search drops a pair for a seat.

    python trace_seats_plainly_off.py PLAYERS DIFFICULTY SEED    (from a checkout with terragen installed)
"""
import sys, time
from terragen.terrain.generate import BalanceSettings, generate_board
from terragen.terrain.generate.options import build_spec
from terragen.terrain.generate import class_search as cs
orig = cs.ClassSearch._seats_plainly_off
def wrapped(self, tally, last):
    r = orig(self, tally, last)
    if r:
        fair = 1 / self.n
        print(f"   seats plainly off ({tally.policy}, {tally.played} games, last={last}): "
              + " ".join(f"{100*(x-fair):+.1f}" for x in tally.rates), "classes", self.classes, flush=True)
    return r
cs.ClassSearch._seats_plainly_off = wrapped
if __name__ == "__main__":
    players, difficulty, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    flags = {"players": players, "destinations": None, "difficulty": difficulty, "seed": seed, "time_limit": None,
             "radius": None, "inventory": None, "placement": None, "shape": None, "symmetry": None}
    spec, run = build_spec(flags, None)
    t0 = time.monotonic()
    def p(msg): print(f"{time.monotonic()-t0:6.2f} {msg}", flush=True)
    layout = generate_board(spec, seed, run["time_limit"], balance=BalanceSettings(), workers=None, progress=p)
    print("done", time.monotonic() - t0)

"""The generator's own timing of its simulation runs per kind of player, for one spec:

    python bench/run_time_by_player.py SEATS PRESET SEED

Prints the wall time of ``generate_board`` (CLI defaults, two processes) and the seconds its
``GamePool`` spent in runs of each kind of player (``pool._timed``)."""

import sys, time, json
from terragen.terrain.generate.options import build_spec
from terragen.terrain.generate import generate_board, BalanceSettings
import terragen.terrain.sim.pool as P
pools = []
orig = P.GamePool.__init__
def init(self, *a, **k):
    orig(self, *a, **k); pools.append(self)
P.GamePool.__init__ = init
if __name__ == "__main__":
    n, d, s = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    spec, _ = build_spec({'players': n, 'difficulty': d, 'seed': s, 'time_limit': 60, 'destinations': None, 'radius': None,
                          'inventory': None, 'placement': None, 'shape': None, 'symmetry': None}, None)
    t0 = time.monotonic()
    lay = generate_board(spec, s, 60, balance=BalanceSettings(), best_effort=True, workers=None)
    wall = time.monotonic() - t0
    timed = {}
    for (pol, large), (g, sec) in pools[0]._timed.items():
        timed[pol] = timed.get(pol, 0.0) + sec
    print(json.dumps({"spec": f"{n} {d} {s}", "wall": round(wall, 2), "in_pool_runs": {k: round(v, 2) for k, v in timed.items()}}))

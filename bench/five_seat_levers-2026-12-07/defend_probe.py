import os, sys
from terragen.terrain.sim import policies
if os.environ.get("DEFEND"):
    policies.DEFEND_WITHIN = float(os.environ["DEFEND"])
from terragen.terrain.files import load_layout
from terragen.terrain.sim import simulate_layout
if __name__ == "__main__":
    for name in sys.argv[1:]:
        lay = load_layout(name)
        rep = simulate_layout(lay, games=3000, seed=99, policy="expert", workers=2)
        print(name, "DEFEND", os.environ.get("DEFEND", "default"),
              " ".join(f"{100*s.rate - 100/len(rep.seats):+.1f}" for s in rep.seats), flush=True)

import os, sys
from terragen.terrain.sim import policies
from terragen.terrain.sim.policies import INF
if os.environ.get("LEADER_BY_TURNS"):
    def _leader_by_turns(state, seat):
        team = state.team_of.get(seat)
        best, who = None, None
        for s in range(state.players):
            if s == seat or state.finished[s] or (team is not None and state.team_of.get(s) == team):
                continue
            v = state.cache.table(state.setup.groups[s])[state.collected[s]][state.pos[s]]
            key = (v, (s - seat) % state.players)
            if best is None or key < best:
                best, who = key, s
        return who
    policies._leader = _leader_by_turns
from terragen.terrain.files import load_layout
from terragen.terrain.sim import simulate_layout
if __name__ == "__main__":
    for name in sys.argv[1:]:
        lay = load_layout(name)
        rep = simulate_layout(lay, games=3000, seed=99, policy="expert", workers=2)
        print(name, "by turns" if os.environ.get("LEADER_BY_TURNS") else "by cost",
              " ".join(f"{100*s.rate - 100/len(rep.seats):+.1f}" for s in rep.seats), flush=True)

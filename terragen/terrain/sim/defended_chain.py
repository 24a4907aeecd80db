"""An expert's finishing rounds when it plays alone but the others defend against it, in mean field.

Why: expert players balance differently from greedy ones, and what moves them is their defence.
An expert who rolls a double while another seat leads and stands within ``DEFEND_WITHIN``
expected turns of finishing turns a piece of that seat's route against it. So the seat whose
route is easy to cut loses most when its token nears the end. The race of independent tokens
and the solo-expert race (an expert alone, a chain like greedy's in ``lone_chain.py``) correlate
with the experts' measured class gap at 0.04-0.26 on 4-seat boards; this chain, where after
each of the seat's turns near the end some opponent (chance 1 - (5/6)^opponents of a double
among them) turns the route piece that costs it most, correlates at 0.88 with nothing fitted
(``bench/expert_gap_model.py``; bench/README.md, "The experts' defence in mean field").

Not used by the generator yet: as a veto in the 4- and 6-seat class search it made more boards fair
for experts only when it also made generation several times slower (bench/README.md, "The experts'
model as a veto in the class search"); it is here for the bench and for the next try.

What it leaves out: the defender's own gain (an expert weighs both), defences by a seat that is
itself ahead, and more than ``MAX_TURNED`` pieces turned in one board state (the chain grows with
every board state, and third defences are rare in the games).
"""

from __future__ import annotations

from terragen.terrain.layout import Layout
from terragen.terrain.sim import lone_chain as chains
from terragen.terrain.sim.lone_chain import LoneChain, LoneSeat, Turns
from terragen.terrain.sim.variants import Rules

#: a defended board state holds at most this many turned pieces; past it, no more defence turns
MAX_TURNED = 3
#: the defended chain may grow to this many times the lone chain's state limit
STATE_FACTOR = 3


def defended_chain(layout: Layout, opponents: int, rules: Rules | None = None,
                   tail: float = 1e-6, max_states: int | None = None) -> LoneChain | None:
    """The one seat of ``layout`` playing as an expert, with ``opponents`` expert opponents'
    defence in mean field: ``cdf[t]`` = P(it has finished by the end of round t). None when the
    chain outgrows ``max_states`` (default: ``STATE_FACTOR`` times the lone chain's limit)."""
    from terragen.terrain.sim.policies import DEFEND_WITHIN, INF, MIN_GAIN, _route, _turns, load_policy

    rules = Rules() if rules is None else rules
    expert = load_policy("expert")
    seat = LoneSeat(layout, rules, expert)
    hit_chance = 1 - (5 / 6) ** opponents
    memo: dict[tuple[Turns, int, int], Turns | None] = {}

    def find_cut(turns: Turns, cell: int, mask: int) -> Turns | None:
        """The board after the defence against a token at ``cell`` holding ``mask``; None when no
        defender would play one (the board has had its share of turned pieces, the token is too
        far from the end, or nothing on its route hurts it)."""
        if len(turns) >= MAX_TURNED:
            return None
        game = seat.standing(turns, cell, mask)
        table = game.cache.table(game.setup.groups[0])[mask]
        if table[cell] > DEFEND_WITHIN:
            return None
        board = game.board
        worst, pick = MIN_GAIN, None
        for c in dict.fromkeys(_route(game, 0)):
            if table[c] == 0 or table[c] == INF:
                continue
            for rotation, exits in _turns(board.pattern[c], board.rotation[c], 1):
                if exits == board.mask[c]:
                    continue
                loss = expert._local(game, c, exits, 0) - table[c]
                if loss > worst:
                    worst, pick = loss, (c, rotation)
        return None if pick is None else seat.turned(turns, *pick)

    def cut(turns: Turns, cell: int, mask: int) -> Turns | None:
        key = (turns, cell, mask)
        if key not in memo:
            memo[key] = find_cut(turns, cell, mask)
        return memo[key]

    def between(turns: Turns, cell: int, mask: int):
        after = cut(turns, cell, mask) if hit_chance > 0 else None
        return ((1.0, turns),) if after is None else ((1 - hit_chance, turns), (hit_chance, after))

    limit = chains.MAX_STATES * STATE_FACTOR if max_states is None else max_states
    try:
        succ, finish, turns_of = chains.build_chain(seat, between, max_states=limit)
    except chains.TooLarge:
        return None
    finally:
        seat.release()
    cdf = chains.propagate_chain(succ, finish, tail, rules.turn_cap, {}, turns_of)
    return LoneChain(cdf, len(succ))

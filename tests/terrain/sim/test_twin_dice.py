"""Twin games: each seat's own stream of rolls, handed to its partner in the game's twin."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from terragen.errors import SpecError
from terragen.terrain.files import load_layout
from terragen.terrain.generate.fresh_checks import MIN_TWIN_PAIRS, TWIN_NOISE_FLOOR, Tally
from terragen.terrain.sim import Rules, simulate_layout
from terragen.terrain.sim.dice import PairedDice
from terragen.terrain.sim.engine import play_game
from terragen.terrain.sim.policies import POLICIES
from terragen.terrain.sim.runner import _setup_and_tables, check_twins, parse_twins, replay_check, run_games
from terragen.templates import template_path

FOUR = template_path("terrain", "examples", "four-players.txt")
TWINS = [2, 3, 0, 1]


def _draws(dice: PairedDice, seat: int, k: int) -> list[int]:
    return [next(dice.draws[seat]) for _ in range(k)]


@given(st.integers(0, 10**6), st.integers(0, 10**4))
def test_a_twin_gives_each_seat_the_rolls_its_partner_had(seed, pair):
    order = [0, 1, 2, 3]
    base, twin = PairedDice(seed, pair, None, order), PairedDice(seed, pair, TWINS, order)
    # 150 draws run well past the first block, so the later blocks are the same stream too
    streams = [_draws(base, s, 150) for s in range(4)]
    for s in range(4):
        assert _draws(twin, s, 150) == streams[TWINS[s]]
    assert len({tuple(x) for x in streams}) == 4  # the seats' streams differ


def test_paired_draws_are_uniform_over_the_36_rolls():
    counts: Counter = Counter()
    for pair in range(300):
        dice = PairedDice(11, pair, None, [0, 1, 2, 3, 4, 5])
        for s in range(6):
            counts.update(_draws(dice, s, 100))
    total = sum(counts.values())
    assert set(counts) == set(range(36))
    chi2 = sum((c - total / 36) ** 2 / (total / 36) for c in counts.values())
    assert chi2 < 75  # 35 degrees of freedom: above 75 about once in 10,000 fair runs


def test_paired_dice_roll_round_the_seats_in_their_order():
    order = [2, 3, 0, 1]
    rolled, drawn = PairedDice(3, 7, None, order), PairedDice(3, 7, None, order)
    for k in range(40):
        r = next(drawn.draws[order[k % 4]])
        assert rolled.roll() == (r // 6 + 1, r % 6 + 1)


def test_twin_runs_are_the_engines_games_roll_for_roll_and_opened_by_each_seat_alike(monkeypatch):
    from terragen.terrain.sim import plain_game

    layout = load_layout(FOUR)
    rules = Rules()
    setup, _ = _setup_and_tables(layout, rules)
    for kinds in (["greedy"] * 4, ["solitary", "greedy", "solitary", "greedy"]):
        ran = run_games(layout, rules, kinds, 9, 0, 16, TWINS)
        couples = check_twins(TWINS, 4, rules)
        monkeypatch.setattr(plain_game, "plays_plainly", lambda *a: False)  # the engine's own turn loop
        for i, result in enumerate(ran):
            pair, second = divmod(i, 2)
            first = couples[pair % 2][second]
            order = [(first + k) % 4 for k in range(4)]
            dice = PairedDice(9, pair, TWINS if second else None, order)
            alone = play_game(setup, rules, [POLICIES[k]() for k in kinds], random.Random(0), dice, first_seat=first)
            assert result == alone
        monkeypatch.undo()
    # every seat opens once in every four games
    openers = [couples[(i // 2) % 2][i % 2] for i in range(8)]
    assert sorted(openers) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_twin_runs_do_not_depend_on_how_games_are_split():
    layout = load_layout(FOUR)
    whole = run_games(layout, Rules(), ["greedy"] * 4, 4, 0, 40, TWINS)
    parts = run_games(layout, Rules(), ["greedy"] * 4, 4, 0, 13, TWINS) + run_games(
        layout, Rules(), ["greedy"] * 4, 4, 13, 40, TWINS)
    assert whole == parts


def test_a_twin_sample_is_unbiased_and_less_noisy_than_independent_games():
    """The first class's share of the wins over many twin pairs on a board whose classes are
    mirror images: near a half, and the pairs anti-correlated (noise factor under 1)."""
    layout = load_layout(FOUR)
    tally = Tally("greedy", 5, 4, twins=tuple(TWINS), first=(0, 1))
    tally.count(run_games(layout, Rules(), ["greedy"] * 4, 5, 0, 1600, TWINS))
    tally.played = 1600
    assert sum(tally.pairs) == 800
    factor = tally.noise_factor()
    assert 0 < factor < 1


@pytest.mark.parametrize("pairs, factor", [
    ((MIN_TWIN_PAIRS // 4, MIN_TWIN_PAIRS // 2, MIN_TWIN_PAIRS // 4), 1.0),  # as independent games
    ((0, MIN_TWIN_PAIRS, 0), TWIN_NOISE_FLOOR),  # every pair split: no noise measured, the floor credited
    ((MIN_TWIN_PAIRS // 2, 0, MIN_TWIN_PAIRS // 2), 2.0),  # pairs always alike: twice the variance
    ((0, MIN_TWIN_PAIRS // 2 - 1, 0), 1.0),  # too few pairs to tell: counted as independent games
])
def test_noise_factor_from_the_pairs(pairs, factor):
    tally = Tally("greedy", 1, 4, twins=tuple(TWINS), first=(0, 1), pairs=list(pairs))
    assert tally.noise_factor() == pytest.approx(factor)


def test_twin_pairings_are_checked():
    assert parse_twins("1-3,2-4", [1, 2, 3, 4]) == [2, 3, 0, 1]
    for bad in ("1-3", "1-3,2-2", "1-3,3-4", "1-9,2-4", "1:3,2-4", "a-b"):
        with pytest.raises(SpecError, match="twin-dice"):
            parse_twins(bad, [1, 2, 3, 4])
    with pytest.raises(SpecError, match="with itself"):
        parse_twins("1-1,2-4", [1, 2, 3, 4])
    with pytest.raises(SpecError, match="paired twice"):
        parse_twins("1-3,3-4", [1, 2, 3, 4])
    with pytest.raises(SpecError, match="pair each"):
        check_twins([1, 0, 2, 3], 4, Rules())
    with pytest.raises(SpecError, match="no teams"):
        check_twins([1, 0, 3, 2], 4, Rules(teams=((0, 2), (1, 3))))


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "terragen", "simulate", *map(str, args)], capture_output=True,
                          text=True)


def test_simulate_plays_twin_dice_as_the_library_does_and_refuses_bad_ones():
    layout = load_layout(FOUR)
    seats = sorted(p.seat for p in layout.players)
    pairing = f"{seats[0]}-{seats[2]},{seats[1]}-{seats[3]}"
    r = _cli(FOUR, "--games", 200, "--seed", 6, "--twin-dice", pairing, "--json", "--margin", 0.5)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["twin_dice"] == pairing
    record = {"games": 200, "seed": 6, "policy": "greedy", "twin_dice": pairing}
    assert [s["win_rate"] for s in data["seats"]] == [round(x, 4) for x in replay_check(layout, record)]
    report = simulate_layout(layout, games=200, seed=6)
    assert report.twin_dice is None  # independent games unless asked
    for args, says in ((("--games", 201, "--twin-dice", pairing), "--games must be even with --twin-dice"),
                       (("--twin-dice", f"{seats[0]}-{seats[1]}"), "pair every seat"),
                       (("--twin-dice", pairing, "--variant", "green"), "no green die")):
        r = _cli(FOUR, *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_tally_rebuilt_from_a_record_keeps_the_records_noise_factor():
    """A failed check teaches the search's offsets from its record, which keeps the noise factor
    and not the pairs; the rebuilt sample must weigh as the check's own did."""
    rebuilt = Tally("greedy", 1, 4, 2400, [700, 500, 700, 500], recorded_factor=0.55)
    assert rebuilt.noise_factor() == 0.55
    assert Tally("greedy", 1, 4, 2400, [700, 500, 700, 500]).noise_factor() == 1.0

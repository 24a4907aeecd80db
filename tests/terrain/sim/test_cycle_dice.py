"""Cycles of dice: as many games as seats share their streams of rolls, the k-th seat to play
rolling the k-th stream; what the generator's seat-by-seat samples are played as."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from terragen.errors import SpecError
from terragen.terrain.files import load_layout
from terragen.terrain.generate.fresh_checks import MIN_CYCLES, TWIN_NOISE_FLOOR, Tally, grow_tally
from terragen.terrain.sim import Rules, simulate_layout
from terragen.terrain.sim.dice import PairedDice
from terragen.terrain.sim.engine import GameResult
from terragen.terrain.sim.pool import GamePool
from terragen.terrain.sim.runner import cycle_dice, replay_check, run_games

#: a five-seat board the generator wrote (5 medium, seed 122202): its seats near fair, as the boards
#: the generator's checks play are
FIVE = Path(__file__).parents[2] / "data" / "five-seats-generated.txt"


def _five_seats():
    return load_layout(FIVE)


@given(st.integers(2, 6), st.data())
def test_the_kth_seat_to_play_rolls_the_kth_stream(seats, data):
    k = data.draw(st.integers(0, seats - 1))
    order = [(k + m) % seats for m in range(seats)]  # game k of a cycle is opened by seat k
    streams = cycle_dice(k, seats)
    assert [streams[seat] for seat in order] == list(range(seats))
    # and the dice deal them so: the opener's rolls are the same in every game of the cycle
    first_rolls = set()
    for j in range(seats):
        dice = PairedDice(5, 9, cycle_dice(j, seats), [(j + m) % seats for m in range(seats)])
        first_rolls.add(tuple(next(dice.draws[j]) for _ in range(8)))
    assert len(first_rolls) == 1


def test_a_sample_of_cycles_is_the_same_however_it_is_split():
    layout = _five_seats()
    whole = run_games(layout, Rules(), ["greedy"] * 5, 31, 0, 60, cycle=True)
    parts = run_games(layout, Rules(), ["greedy"] * 5, 31, 0, 23, cycle=True) + \
        run_games(layout, Rules(), ["greedy"] * 5, 31, 23, 60, cycle=True)
    assert [g.winners for g in parts] == [g.winners for g in whole]
    with GamePool(2) as pool:
        spread = pool.run(layout, Rules(), ["greedy"] * 5, 31, 0, 60, cycle=True)
    assert [(g.winners, g.turns) for g in spread] == [(g.winners, g.turns) for g in whole]
    independent = run_games(layout, Rules(), ["greedy"] * 5, 31, 0, 60)
    assert [g.winners for g in independent] != [g.winners for g in whole]


def test_cycles_measure_each_seat_without_bias_and_with_less_noise():
    """Each game of a cycle is an ordinary fair game, so the seats' rates agree with independent
    games'; and the cycles' own spread shows each seat's rate with the noise of more games."""
    layout = _five_seats()
    games = 5000
    cycled = Tally("greedy", 8, 5, cycle=True, first=(0, 2, 4))
    grow_tally(layout, cycled, games)
    independent = Tally("greedy", 9, 5)
    grow_tally(layout, independent, games)
    for a, b in zip(cycled.rates, independent.rates):
        se = math.sqrt(a * (1 - a) / games + b * (1 - b) / games)
        assert abs(a - b) < 4 * se, (cycled.rates, independent.rates)
    assert independent.seat_noise_factor() == 1.0 and independent.seat_games() == games
    # measured 0.28-0.44 a seat here, 0.23-0.55 on other five-seat boards near fair (boards far from fair,
    # whose seats' chances the board decides more than the dice, gain less: 0.6-0.96 on the examples)
    assert cycled.seat_noise_factor() < 0.6
    assert cycled.seat_games() > 1.6 * games
    assert cycled.noise_factor() < 1.2  # the classes: about as good as independent games, or better


def _cycle(winners: list[int]) -> list[GameResult]:
    return [GameResult((w,), 5, 5, 0, 0, 0, 0) for w in winners]


def test_a_cycles_noise_is_worked_out_from_how_its_wins_spread():
    even = Tally("greedy", 0, 5, cycle=True, first=(0, 2, 4))
    lumpy = Tally("greedy", 0, 5, cycle=True, first=(0, 2, 4))
    for c in range(MIN_CYCLES):
        even.count(_cycle([0, 1, 2, 3, 4]))  # every seat wins once a cycle: no spread at all
        lumpy.count(_cycle([c % 5] * 5))  # one seat wins the whole cycle: five times a binomial's spread
        even.played += 5
        lumpy.played += 5
    assert even.seat_noise_factor() == TWIN_NOISE_FLOOR  # never credited with no noise
    assert lumpy.seat_noise_factor() == pytest.approx(5.0)
    assert lumpy.seat_games() == pytest.approx(lumpy.played / 5)
    short = Tally("greedy", 0, 5, cycle=True)
    for _ in range(MIN_CYCLES - 1):
        short.count(_cycle([0, 1, 2, 3, 4]))
        short.played += 5
    assert short.seat_noise_factor() == 1.0  # too few cycles to tell: counted as independent games


def test_a_sample_of_cycles_grows_by_whole_cycles():
    with pytest.raises(ValueError, match="5 games at a time"):
        grow_tally(_five_seats(), Tally("greedy", 0, 5, cycle=True), 12)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "terragen", "simulate", *map(str, args)], capture_output=True,
                          text=True)


def test_simulate_plays_cycles_as_the_library_does_and_refuses_what_cannot_be(tmp_path):
    board = tmp_path / "five.json"
    from terragen.terrain.files import save_layout

    save_layout(_five_seats(), board)
    r = _cli(board, "--games", 300, "--seed", 6, "--cycle-dice", "--json", "--margin", 0.5)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["cycle_dice"] is True
    record = {"games": 300, "seed": 6, "policy": "greedy", "cycle_dice": True}
    assert [s["win_rate"] for s in data["seats"]] == [round(x, 4) for x in replay_check(load_layout(board), record)]
    assert simulate_layout(load_layout(board), games=300, seed=6).cycle_dice is False  # unless asked
    for args, says in ((("--games", 301, "--cycle-dice"), "multiple of the 5 seats"),
                       (("--cycle-dice", "--twin-dice", "0-1,2-3"), "give one"),
                       (("--games", 300, "--cycle-dice", "--variant", "green"), "no green die")):
        r = _cli(board, *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    with pytest.raises(SpecError, match="multiple of the 5 seats"):
        simulate_layout(load_layout(board), games=12, cycle=True)

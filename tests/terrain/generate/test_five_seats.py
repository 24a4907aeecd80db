"""Five seats on a board turned by 120 degrees onto itself, the sixth corner empty: two classes of
seats searched together, every seat then checked on its own (see ``symmetry_for``)."""

import pytest

from terragen.terrain.formats_json import write_json_layout
from terragen.terrain.generate import generate_board
from terragen.terrain.generate.fresh_checks import Tally
from terragen.terrain.generate.spec import spec_from_dict
from terragen.terrain.sim import simulate_layout
from terragen.terrain.sim.runner import replay_check
from tests.terrain.generate.balancer_capture import captured_balancer

FIVE = {"players": 5, "difficulty": "medium"}


def _oracle(monkeypatch, bal, within: list[float], modelled: bool = True):
    """Make ``bal``'s "simulation" an oracle: every seat wins what the race model gives it (or,
    not ``modelled``, a fair share) plus ``within[seat]`` (a part no model sees that leaves its
    class's pooled rate alone); the greedy players' solo model is the race model. Returns the
    list of samples' sizes played."""
    played = []

    def play(layout, tally, size):
        base = bal.modelled(bal.cand.dests) if modelled else [bal.fair] * bal.n
        rates = [p + w for p, w in zip(base, within)]
        tally.wins = [round(r * size) for r in rates]
        tally.played = size
        tally.cycle = False  # rates without cycles' spread: judged as independent games are
        played.append((tally.policy, size))

    monkeypatch.setattr(bal, "play", play)
    monkeypatch.setattr(bal, "class_solo_model", bal.modelled)
    return played


def test_five_seats_get_two_classes_that_keep_the_order_of_play(monkeypatch):
    bal = captured_balancer(monkeypatch, FIVE, 5)
    assert bal.approximate
    assert bal.classes == [[0, 2, 4], [1, 3]]
    # three seats one point up leave two seats a point and a half down
    assert bal._gap_scale() == 1.5
    assert bal._seat_worst(0.01, [0.0] * 5) == pytest.approx(0.015)


def test_class_noise_is_that_of_the_class_furthest_off(monkeypatch):
    """The search's limits are numbers of standard errors of the classes' pooled rates; with
    classes of three and two seats the two-seat class is the one furthest from fair and the
    noisier, so its noise is the one they use, and the experts' glance is sized by it."""
    np = pytest.importorskip("numpy")
    bal = captured_balancer(monkeypatch, FIVE, 5)
    games = 2000
    draws = np.random.default_rng(5).multinomial(games, [0.2] * 5, size=20000) / games
    second = draws[:, bal.classes[1]].mean(axis=1)
    assert float(second.std()) == pytest.approx(bal._class_se(games), rel=0.05)
    target = 0.42 * bal.settings.margin
    sized = bal._games_for_class_se(target)
    assert bal._class_se(sized) <= target * 1.001
    assert bal._class_se(sized) > target * 0.9  # and not many more games than that needs


def test_one_screen_counts_for_about_half_of_what_a_seat_seems_to_lean(monkeypatch):
    """A seat's distance from its class, as the search uses it, is shrunk towards nought by
    2,000 games' worth of "no difference": one 2,000-game screen counts for half, so its noise
    (0.9 points a seat) alone does not give a terrain up; ten such samples count nearly whole."""
    bal = captured_balancer(monkeypatch, FIVE, 5)
    rates = [0.23, 0.2, 0.185, 0.2, 0.185]  # seat 0 three points up, its class mates 1.5 down

    def sample() -> Tally:
        return Tally("greedy", 1, 5, played=2000, wins=[round(r * 2000) for r in rates])

    bal._learn_within(sample())
    assert bal._within_offsets("greedy")[0] == pytest.approx(0.015, abs=1e-4)
    for _ in range(9):
        bal._learn_within(sample())
    assert bal._within_offsets("greedy")[0] == pytest.approx(0.03 * 10 / 11, abs=1e-4)
    assert bal._within_offsets("solitary") == [0.0] * 5  # each kind of player its own


def test_a_five_seat_board_written_when_the_work_budget_runs_out_is_the_same_every_time():
    spec = spec_from_dict({"players": 5, "difficulty": "hard"})
    first = generate_board(spec, 4, time_limit=600, budget=300_000)
    again = generate_board(spec, 4, time_limit=600, budget=300_000, workers=2)
    record = first.extra["meta"]["balance"]
    assert record["best_effort"] is True and record["ended_by"] == "work budget"
    assert "corner 5 empty" in first.extra["meta"]["symmetry"]
    assert all("simulate_odds_bound" in c for c in record["verification"])  # judged seat by seat
    assert write_json_layout(again) == write_json_layout(first)
    for check in record["verification"]:  # played as cycles of dice, and the record replays them
        assert check["cycle_dice"] is True and 0 < check["seat_noise_factor"] <= 1.5
        assert [round(r, 4) for r in replay_check(first, check)] == check["win_rates"]


def test_a_five_seat_best_effort_board_is_chosen_with_the_experts_glance(monkeypatch):
    """A best-effort board is chosen among the fairest states the search reached; on five seats
    (two classes) each state also gets the experts' glance, the record keeps every reading and the
    chosen board's, the reading replays with `simulate`'s games, and the summary says what it saw."""
    from terragen.terrain.analysis import analyse
    from terragen.terrain.generate import time_plan
    from terragen.terrain.generate.fresh_checks import pooled_rates, simulated_rates
    from terragen.terrain.generate.report import generation_report

    # room for the choice on any machine (the work budget, not the clock, ends this search)
    monkeypatch.setattr(time_plan.TimePlan, "fits", lambda self, states, pace=None: True)
    spec = spec_from_dict({"players": 5, "difficulty": "hard"})
    layout = generate_board(spec, 6, time_limit=600, budget=1_000_000)
    record = layout.extra["meta"]["balance"]
    assert record["best_effort"] is True
    candidates, chosen = record["choice"]["candidates"], record["choice"]["chosen"]
    # every state got the glance unless what was measured of it already left it out of reach
    assert len(candidates) >= 2 and all(("expert_glance" in c) != ("out_of_reach" in c) for c in candidates)
    assert "expert_glance" in candidates[chosen]
    glance = record["expert_glance"]
    assert glance["chosen_among"] == len(candidates)
    assert glance["pooled_worst_deviation"] == candidates[chosen]["expert_glance"]["pooled_worst_deviation"]
    rates, _ = simulated_rates(layout, glance["games"], glance["seed"], "expert")
    pooled = pooled_rates(rates, layout.extra["meta"]["seat_classes"])
    assert round(max(abs(r - 0.2) for r in pooled), 4) == glance["pooled_worst_deviation"]
    said = [line for line in generation_report(layout, analyse(layout), spec) if "expert players" in line]
    assert len(said) == 1 and f"among the {len(candidates)} fairest" in said[0]


def test_a_terrain_whose_seats_part_within_a_class_is_given_up(monkeypatch):
    """A seat 4 points above its class (its class mates 2 below) cannot be brought within the
    margin by moving the classes: the search must give the terrain up without sending any pair
    to a fresh check, after a few screens."""
    bal = captured_balancer(monkeypatch, FIVE, 5)
    played = _oracle(monkeypatch, bal, [0.04, 0.0, -0.02, 0.0, -0.02])
    assert bal.search_classes(seed=1, first=2100) is False
    assert bal._tried <= 6, bal._tried
    # what it learned: the first seat above its class, the others below
    within = bal._within_offsets("greedy")
    assert within[0] > 0.02 and within[2] < -0.01 and within[4] < -0.01
    assert played


def test_seats_near_their_class_let_a_pair_through(monkeypatch):
    bal = captured_balancer(monkeypatch, FIVE, 5)
    _oracle(monkeypatch, bal, [0.004, 0.0, -0.002, 0.0, -0.002])
    assert bal.search_classes(seed=1, first=2100) is True


@pytest.mark.parametrize("within, accepted", [
    ([0.0] * 5, True),
    ([0.03, 0.0, -0.015, 0.0, -0.015], False),  # pooled fair, one seat 3 points off
])
def test_the_fresh_check_judges_each_seat(monkeypatch, within, accepted):
    """The seats of a five-seat class are not images in who sits beside them, so their pooled
    rate does not stand for each of them: the fresh check goes seat by seat."""
    bal = captured_balancer(monkeypatch, FIVE, 5)
    _oracle(monkeypatch, bal, within, modelled=False)
    # whatever pair the search would pick
    monkeypatch.setattr(bal, "search_classes", lambda *args: True)
    monkeypatch.setattr(bal, "_learned", {}, raising=False)
    monkeypatch.setattr(bal, "_experts_plainly_off", lambda results: True)  # one pair only
    record = bal.balance()
    if not accepted:
        assert record is None
        return
    assert record is not None
    checks = record["verification"]
    assert all("simulate_odds_bound" in c for c in checks)  # judged seat by seat
    assert all(c["verdict"] == "BALANCED" for c in checks)


@pytest.mark.parametrize("expert_gap, searches", [(0.04, 1), (0.01, 4)])
def test_with_experts_checked_a_plain_miss_gives_the_terrain_up(monkeypatch, expert_gap, searches):
    """``--check-experts`` on five seats: their experts' check is seat by seat too, and a miss by
    more than the margin between the classes gives the terrain up at once (a smaller one sends
    the search on to its next pair, as many times as a terrain is checked)."""
    bal = captured_balancer(monkeypatch, FIVE, 5)
    bal.settings = bal.settings.with_experts()
    first = set(bal.classes[0])
    searched = []

    def play(layout, tally, size):
        gap = expert_gap if tally.policy == "expert" else 0.0
        rates = [bal.fair + (gap if s in first else -gap * 1.5) for s in range(bal.n)]
        tally.wins = [round(r * size) for r in rates]
        tally.played = size

    monkeypatch.setattr(bal, "play", play)
    monkeypatch.setattr(bal, "search_classes", lambda *args: searched.append(1) is None)
    monkeypatch.setattr(bal, "_learned", {}, raising=False)
    assert bal.balance() is None
    assert len(searched) == searches


def test_a_generated_five_seat_board_is_balanced_on_fresh_seeds():
    """The user's promise for five seats: a board written as verified is BALANCED under
    `terragen simulate`'s defaults on a seed the generator never used, for greedy and solitary
    players (easy seed 3: about 2 s)."""
    layout = generate_board(spec_from_dict({"players": 5, "difficulty": "easy"}), 3, time_limit=60)
    meta = layout.extra["meta"]
    assert "corner 5 empty" in meta["symmetry"]
    assert not meta["balance"].get("best_effort")
    assert [p.corner for p in layout.players] == [0, 1, 2, 3, 4]
    for policy in ("greedy", "solitary"):
        result = simulate_layout(layout, seed=424_2431, policy=policy)
        assert result.balanced, (policy, result.balance_reasons)


def test_a_full_screen_whose_seats_are_clearly_short_of_simulate_is_dropped(monkeypatch):
    """A seat within its check's threshold plus the screen's noise, but so far off that one default
    `terragen simulate` run would not say BALANCED 99 times in 100 even with every seat a standard
    error closer to fair: the check would stop at its first look, so the screen drops the pair."""
    bal = captured_balancer(monkeypatch, FIVE, 5)
    games = 20000
    rates = [0.2225, 0.2225, 0.185, 0.185, 0.185]  # two seats 2.25 points up, within 2.0 plus the noise
    tally = Tally("solitary", 1, 5, played=games, wins=[round(r * games) for r in rates])
    assert bal._seats_plainly_off(tally, last=True)
    assert not bal._seats_plainly_off(tally, last=False)  # before the last size only the seats' limit counts
    fair = Tally("solitary", 1, 5, played=games, wins=[games // 5] * 5)
    assert not bal._seats_plainly_off(fair, last=True)

"""The class search's per-destination offsets: a small regression that must recover an
additive truth from noisy simulated pairs, and stay with the models when it knows nothing."""

import math
import random

import pytest
from hypothesis import given, settings, strategies as st

from terragen.terrain.generate.pair_offsets import PairOffsets


def logit(x: float) -> float:
    return math.log(x / (1 - x))


def expit(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def test_with_nothing_learned_the_prediction_is_the_model():
    offsets = PairOffsets(k=2, fair=0.25)
    assert offsets.predict("a1", "b1", 0.27) == pytest.approx(0.27)


@pytest.mark.parametrize("k, fair", [(2, 0.25), (3, 1 / 6)])
def test_an_additive_truth_is_recovered_for_pairs_never_simulated(k, fair):
    """Every destination's term is learned from the pairs it was in, so a pair of two
    destinations that were only ever simulated with others is predicted right."""
    rng = random.Random(5)
    terms_a = {f"a{i}": rng.uniform(-0.4, 0.4) for i in range(5)}
    terms_b = {f"b{j}": rng.uniform(-0.4, 0.4) for j in range(5)}
    common = 0.3
    model = {(a, b): fair + rng.uniform(-0.03, 0.03) for a in terms_a for b in terms_b}

    def truth(a, b):
        return expit(logit(k * model[a, b]) + common + terms_a[a] + terms_b[b]) / k

    offsets = PairOffsets(k=k, fair=fair)
    held_out = ("a0", "b0")
    for (a, b), m in model.items():
        if (a, b) != held_out:
            offsets.add(a, b, truth(a, b), m, games=200_000)  # nearly noiseless
    before = abs(model[held_out] - truth(*held_out))
    after = abs(offsets.predict(*held_out, model[held_out]) - truth(*held_out))
    assert after < 0.2 * before
    assert after < 0.003


def test_a_destination_never_simulated_gets_the_terrains_mean_offset():
    offsets = PairOffsets(k=2, fair=0.25)
    for b in ("b1", "b2", "b3"):
        offsets.add("a1", b, 0.30, 0.25, games=20_000)
        offsets.add("a2", b, 0.30, 0.25, games=20_000)
    new = offsets.predict("a9", "b9", 0.25)
    seen = offsets.predict("a1", "b1", 0.25)
    assert 0.25 < new < 0.30  # moved towards the common 5 points, not all the way
    assert abs(seen - 0.30) < abs(new - 0.30)


def test_a_large_sample_outweighs_a_small_one_on_the_same_pair():
    offsets = PairOffsets(k=2, fair=0.25)
    offsets.add("a", "b", 0.20, 0.25, games=400)
    offsets.add("a", "b", 0.28, 0.25, games=40_000)
    assert offsets.predict("a", "b", 0.25) == pytest.approx(0.28, abs=0.01)
    assert offsets.predict("a", "b", 0.25) > 0.27


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.floats(0.0, 0.5), st.floats(0.05, 0.45),
                          st.integers(1, 20_000)), max_size=12),
       st.floats(0.05, 0.45))
def test_predictions_are_rates_whatever_was_observed(observations, model):
    offsets = PairOffsets(k=2, fair=0.25)
    for a, b, rate, m, games in observations:
        offsets.add(a, b, rate, m, games)
    p = offsets.predict(0, 1, model)
    assert 0.0 < p < 0.5

"""Property: whatever small spec comes in, the generator never returns a board that misses it."""

from hypothesis import given, settings
from hypothesis import strategies as st

from terragen.errors import InfeasibleError, TimeLimitError
from terragen.terrain.generate import generate_board
from terragen.terrain.generate.spec import spec_from_dict
from terragen.terrain.generate.verify import spec_problems
from terragen.terrain.pieces import load_inventory


@st.composite
def small_specs(draw):
    players = draw(st.integers(2, 3))
    radius = draw(st.integers(3, 4))
    data = {"players": players, "radius": radius, "destinations": draw(st.integers(1, 2)),
            "placement": draw(st.sampled_from(["free", "distance"])),
            "shape": draw(st.sampled_from(["none", "mountain", "valley", "ridge", "terraces"]))}
    if data["placement"] == "distance":
        data["min_distance"] = draw(st.integers(2, radius + 1))
    lo = draw(st.integers(4, 16))
    data["turns_band"] = [float(lo), float(lo + draw(st.integers(3, 10)))]
    if draw(st.booleans()):
        data["min_up3"] = draw(st.integers(0, 2))
    if draw(st.booleans()):
        data["fairness"] = draw(st.sampled_from([1.0, 2.0, 4.0]))
    return spec_from_dict(data), draw(st.integers(0, 10_000))


@settings(max_examples=10, deadline=None)
@given(small_specs())
def test_generated_boards_always_meet_their_spec(case):
    spec, seed = case
    try:
        layout = generate_board(spec, seed, time_limit=3, balance=None)
    except (InfeasibleError, TimeLimitError):
        return  # allowed outcomes; what is never allowed is a board that misses the spec
    assert spec_problems(layout, spec, load_inventory(spec.inventory_name())) == []

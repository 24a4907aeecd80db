"""Each game's rule settings are refused when made if no game can have them, not taken and then
misread: ``Rules(green="no")`` is a true value (the green-die variant was played), and TerraFlip's
``Options(lines="bogus")`` failed only when a game began."""

from __future__ import annotations

import pytest

from terragen.errors import SpecError


@pytest.mark.parametrize("field", ["inversion", "green", "lost", "pass_through", "rotate_start", "interactions"])
@pytest.mark.parametrize("value", ["no", 1, None])
def test_terrain_rule_switches_are_true_or_false(field, value):
    from terragen.terrain.sim.variants import Rules

    with pytest.raises(ValueError, match=f"Rules.{field} must be True or False"):
        Rules(**{field: value})
    assert getattr(Rules(**{field: True}), field) is True


@pytest.mark.parametrize("kwargs", [{"lines": "bogus"}, {"first_frame": "x"}, {"bonus_scheme": "x"},
                                    {"tower_passable": "yes"}, {"owner_knows_backs": 0}, {"bonus": (1, True)}])
def test_terraflip_options_are_checked_when_made(kwargs):
    from terragen.terraflip.rules import Options

    with pytest.raises(SpecError):
        Options(**kwargs)


def test_terrace_own_t_capture_is_true_or_false():
    from terragen.terrace.model import Rules

    with pytest.raises(SpecError, match="own_t_capture"):
        Rules(own_t_capture="no")
    assert Rules(own_t_capture=False).own_t_capture is False

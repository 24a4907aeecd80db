"""The generator's balancer caught before it simulates anything, for tests of its parts."""

import pytest

from terragen.errors import TimeLimitError
from terragen.terrain.generate import generate_board
from terragen.terrain.generate.spec import spec_from_dict


def captured_balancer(monkeypatch, spec: dict, seed: int):
    """The balancer the generator builds for its first spec-valid terrain of ``spec``, captured
    before it simulates anything (its ``run`` raises instead)."""
    from terragen.terrain.generate import balance as balance_module

    caught = []

    def capture(self):
        caught.append(self)
        raise TimeLimitError("captured")

    monkeypatch.setattr(balance_module.Balancer, "run", capture)
    with pytest.raises(TimeLimitError):
        generate_board(spec_from_dict(spec), seed, time_limit=60, best_effort=False)
    monkeypatch.undo()
    return caught[0]

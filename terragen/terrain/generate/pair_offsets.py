"""What a terrain's simulated games taught about its destination pairs (boards of two
classes of symmetric seats): how far the first class's win rate lands from the models'
prediction, per destination of each class.

Why per destination. The models (the exact race, the solo-greedy race) miss what tokens
meeting do: send-backs, a turn on doubles cutting another seat's route. Measured on 4- and
6-seat terrain (``bench/README.md``, "Offsets per destination"), one offset per terrain
leaves greedy players' pairs 1.5-3.3 points from their simulated rate, while an offset
that adds one term for the first class's destinations and one for the second's, on the
log-odds scale of the class's share of the wins, leaves 0.8-1.6: what a destination does to the
meetings is much the same whichever destination the other class has. The search hunts a
pair within about 0.7 points of fair, so a sharper prediction means fewer pairs simulated.

The fit is a small Bayesian regression: each simulated pair is one observation, weighted
by its games (binomial noise) plus a floor for what the additive form cannot capture
(once per pair: simulating a pair again does not remove it);
the terms start at zero (the models alone) and move as far as the data pull them. A
destination never simulated gets the terrain's mean offset only.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field

#: prior spreads, in points of the first class's pooled rate: the terrain's mean offset,
#: one destination's own term, and what the additive form misses (measured; see above)
MEAN_SPREAD = 0.03
TERM_SPREAD = 0.02
MISFIT = 0.01


@dataclass
class PairOffsets:
    """Observations of one kind of player on one terrain, and the fit they give.

    ``k`` is the first class's size and ``fair`` a seat's fair share, so the class's
    fair share of the wins is ``k * fair``.
    """

    k: int
    fair: float
    #: per pair (a, b): [sum of weight * log-odds offset, sum of weights], weights from the games alone
    _obs: dict[tuple[Hashable, Hashable], list[float]] = field(default_factory=dict)
    _fit: dict | None = None

    @property
    def _share(self) -> float:
        return self.k * self.fair

    @property
    def _scale(self) -> float:
        """Log-odds per unit of the pooled rate near a fair share."""
        s = self._share
        return self.k / (s * (1.0 - s))

    def _logit(self, rate: float) -> float:
        s = min(max(self.k * rate, 1e-3), 1.0 - 1e-3)
        return math.log(s / (1.0 - s))

    def add(self, a: Hashable, b: Hashable, rate: float, model: float, games: int) -> None:
        """One simulated pair: destinations ``a`` (first class) and ``b`` (second), the first
        class's pooled rate over ``games`` games and the model's prediction of it."""
        if games <= 0:
            return
        s = self._share
        weight = s * (1.0 - s) * games  # 1 / the binomial noise of the log-odds
        seen = self._obs.setdefault((a, b), [0.0, 0.0])
        seen[0] += weight * (self._logit(rate) - self._logit(model))
        seen[1] += weight
        self._fit = None

    def predict(self, a: Hashable, b: Hashable, model: float) -> float:
        """The first class's pooled rate the data expect for the pair (``model`` corrected)."""
        fit = self._solve()
        z = self._logit(model) + fit["mean"] + fit["a"].get(a, 0.0) + fit["b"].get(b, 0.0)
        return 1.0 / (1.0 + math.exp(-z)) / self.k

    def _solve(self) -> dict:
        if self._fit is not None:
            return self._fit
        if not self._obs:
            self._fit = {"mean": 0.0, "a": {}, "b": {}}
            return self._fit
        import numpy as np

        a_keys = list(dict.fromkeys(a for a, _ in self._obs))
        b_keys = list(dict.fromkeys(b for _, b in self._obs))
        ia = {key: 1 + i for i, key in enumerate(a_keys)}
        ib = {key: 1 + len(a_keys) + i for i, key in enumerate(b_keys)}
        size = 1 + len(a_keys) + len(b_keys)
        lhs = np.zeros((size, size))
        rhs = np.zeros(size)
        misfit = (MISFIT * self._scale) ** 2  # once per pair: simulating a pair again does not remove it
        for (a, b), (wz, weight) in self._obs.items():
            z = wz / weight
            cols = (0, ia[a], ib[b])
            w = 1.0 / (1.0 / weight + misfit)
            for i in cols:
                rhs[i] += w * z
                for j in cols:
                    lhs[i, j] += w
        prior = np.full(size, 1.0 / (TERM_SPREAD * self._scale) ** 2)
        prior[0] = 1.0 / (MEAN_SPREAD * self._scale) ** 2
        theta = np.linalg.solve(lhs + np.diag(prior), rhs)
        self._fit = {"mean": float(theta[0]),
                     "a": {key: float(theta[i]) for key, i in ia.items()},
                     "b": {key: float(theta[i]) for key, i in ib.items()}}
        return self._fit

"""The shipped default deck: the designer's output for seed 1 and default parameters.

Kept as data in code so that validation can resolve tile ids (``T01`` ..
``T63``) without reading a file or running the solver. A test re-runs the
designer and checks that this list is still exactly its output, so the two
cannot drift apart.
"""

from __future__ import annotations

from dataclasses import asdict

from terragen.terralogical.deck import Deck, DeckParams
from terragen.terralogical.tiles import parse_tile

DEFAULT_SEED = 1

#: Tile codes in id order (T01 first), as ``design_deck(DEFAULT_SEED)`` returns them.
DEFAULT_CODES: tuple[str, ...] = (
    "CMFF", "CMMW", "CMWM", "CMff", "CMwM", "CWWm", "CWfW", "CWwF", "Cmfw",
    "Cmmm", "Cmwf", "CwFm", "FFWM", "FFWw", "FFfM", "FFfm", "FMMM", "FMmM",
    "FMmm", "FMwc", "FWFw", "FWWf", "FWwc", "FWwm", "FcMf", "Fcmw", "FfFf",
    "FfFm", "FfFw", "FffW", "Ffmm", "FfwM", "FmWf", "FmWw", "FmwW", "FwWm",
    "FwWw", "Fwcf", "Fwmw", "MMMf", "MMcW", "MMfm", "MMmc", "MWmm", "MWwf",
    "McMf", "MffW", "Mfff", "MfwW", "Mfwf", "MmwW", "Mmwm", "WWWm", "Wffw",
    "Wfmw", "Wfww", "Wmmm", "Wmmw", "Wwfm", "Wwwf", "cwfw", "mmww", "mwww",
)


def default_deck() -> Deck:
    """The deck every command uses unless given ``--deck``."""
    tiles = [(f"T{i + 1:02d}", parse_tile(code)) for i, code in enumerate(DEFAULT_CODES)]
    return Deck(tiles, DEFAULT_SEED, asdict(DeckParams()))

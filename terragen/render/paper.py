"""Paper templates (``terragen/data/paper/*.toml``): size, printer margin, bleed, safe zone.

The page is divided into the printable area (inside the margin), and at its
foot a strip for the sheet label and the 100 mm calibration bar; everything
else is the content area imposition may fill, art and bleed included.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, replace

from terragen.errors import InputError, SpecError
from terragen.render.model import Box
from terragen.templates import template_names, template_path

#: Height of the footer strip (label line + calibration bar) inside the bottom margin.
FOOTER = 13.0
#: the largest paper side or margin a template may give (5 m: a plotter roll), so a typo cannot
#: ask for a page no renderer can hold
MAX_PAPER_MM = 5000


@dataclass(frozen=True)
class Paper:
    key: str
    name: str
    width: float
    height: float
    margin: float
    bleed: float
    safe: float
    inset_x: float = 0.0  # extra room inside the margin, so a print-scale correction above 1
    inset_y: float = 0.0  # (which grows the page about its centre) never reaches the margin

    @property
    def printable(self) -> Box:
        """Where anything may be drawn: inside the printer margin (and the scale inset)."""
        mx, my = self.margin + self.inset_x, self.margin + self.inset_y
        return Box(mx, my, self.width - mx, self.height - my)

    def for_scale(self, scale: float) -> Paper:
        """This paper with the layout area shrunk so that, once the page is scaled by ``scale``
        about its centre, everything still lands inside the printer margin."""
        if scale <= 1.0:
            return replace(self, inset_x=0.0, inset_y=0.0)
        half_w, half_h = self.width / 2 - self.margin, self.height / 2 - self.margin
        return replace(self, inset_x=half_w * (1 - 1 / scale), inset_y=half_h * (1 - 1 / scale))

    @property
    def content(self) -> Box:
        """Where imposed art (bleed included) may go: the printable area above the footer."""
        p = self.printable
        return Box(p.x0, p.y0, p.x1, p.y1 - FOOTER)


def paper_names() -> list[str]:
    return template_names("paper")


def load_paper(key: str) -> Paper:
    """Load a paper template by name (``a4``, ``letter``); a bad name is a one-line SpecError."""
    k = key.strip().lower()
    path = template_path("paper", f"{k}.toml")
    if not k.isidentifier() or not path.is_file():
        raise SpecError(f"unknown paper {key!r} (choose one of: {', '.join(paper_names())})")
    try:
        d = tomllib.loads(path.read_text(encoding="utf-8"))
        paper = Paper(k, str(d["name"]), float(d["width"]), float(d["height"]), float(d["margin"]),
                      float(d["bleed"]), float(d["safe"]))
    except (KeyError, ValueError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{path}: bad paper template ({exc})") from None
    sizes = {"width": paper.width, "height": paper.height, "margin": paper.margin, "bleed": paper.bleed,
             "safe": paper.safe}
    odd = next((k for k, v in sizes.items() if not (math.isfinite(v) and 0 <= v <= MAX_PAPER_MM)), None)
    if odd is not None:
        raise InputError(f"{path}: {odd} must be 0 to {MAX_PAPER_MM} mm, got {sizes[odd]}")
    if min(paper.width, paper.height) <= 2 * paper.margin + FOOTER:
        raise InputError(f"{path}: margins leave no room to print")
    return paper

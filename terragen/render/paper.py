"""Paper templates (``terragen/data/paper/*.toml``): size, printer margin, bleed, safe zone.

The page is divided into the printable area (inside the margin), and at its
foot a strip for the sheet label and the 100 mm calibration bar; everything
else is the content area imposition may fill, art and bleed included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from terragen.errors import SpecError
from terragen.render.model import Box
from terragen.templates import load_template_toml, template_error, template_names, template_path

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
    """Load a paper template by name (``a4``, ``letter``); a bad name is a one-line SpecError, a bad
    template (a user's own, under TERRAGEN_TEMPLATES) a one-line InputError naming its file."""
    k = key.strip().lower()
    parts = ("paper", f"{k}.toml")
    if not k.isidentifier() or not template_path(*parts).is_file():
        raise SpecError(f"unknown paper {key!r} (choose one of: {', '.join(paper_names())})")
    d = load_template_toml(*parts)
    name = d.get("name")
    if not isinstance(name, str):
        raise template_error(parts, "'name' must be the paper's name in quotes (e.g. name = \"A4\")"
                             if name is not None else "a paper template needs 'name' (e.g. name = \"A4\")")
    sizes = {key: _size(d, key, parts) for key in PAPER_SIZES}
    odd = next((k for k, v in sizes.items() if not (math.isfinite(v) and 0 <= v <= MAX_PAPER_MM)), None)
    if odd is not None:
        raise template_error(parts, f"{odd} must be 0 to {MAX_PAPER_MM} mm, got {sizes[odd]}")
    paper = Paper(k, name, **sizes)
    if min(paper.width, paper.height) <= 2 * paper.margin + FOOTER:
        raise template_error(parts, "margins leave no room to print")
    return paper


#: the lengths a paper template gives, in millimetres
PAPER_SIZES = ("width", "height", "margin", "bleed", "safe")


def _size(d: dict, key: str, parts: tuple[str, ...]) -> float:
    """One length of a paper template, in millimetres; a missing or non-numeric one named (a
    KeyError's bare "('name')" was all it said)."""
    value = d.get(key)
    if value is None:
        raise template_error(parts, f"a paper template needs '{key}' (in millimetres, e.g. {key} = 10.0)")
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        from terragen.safejson import shown

        raise template_error(parts, f"'{key}' must be a number of millimetres, got {shown(value)}")
    return float(value)

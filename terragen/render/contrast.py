"""Colour contrast, so printed text stays readable on whatever ground it sits.

Text contrast follows the WCAG 2 formula (relative luminance of sRGB colours);
a kit picks its ink per background with :func:`ink_on` rather than hard-coding
white, so a palette change cannot silently drop a label below 4.5:1. (The grey a
mono printer makes of a colour is :func:`terragen.render.palette.luminance`.)
"""

from __future__ import annotations

#: The least contrast any printed text must have against its ground (WCAG AA for normal text).
MIN_TEXT_CONTRAST = 4.5

DARK_INK = "#1a1a1a"
LIGHT_INK = "#ffffff"


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


def relative_luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#rrggbb`` colour, 0 (black) to 1 (white)."""

    def lin(v: int) -> float:
        s = v / 255.0
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 (same) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(background: str, dark: str = DARK_INK, light: str = LIGHT_INK) -> str:
    """Whichever of the two inks reads better on ``background``."""
    return dark if contrast(dark, background) >= contrast(light, background) else light


def readable(ink: str, background: str) -> str:
    """``ink`` if it reads at :data:`MIN_TEXT_CONTRAST` on ``background``, else the better plain ink."""
    return ink if contrast(ink, background) >= MIN_TEXT_CONTRAST else ink_on(background)

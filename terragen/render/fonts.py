"""The one typeface every page uses: DejaVu Sans Condensed, shipped inside the package.

A PDF that names Helvetica without embedding it prints in whatever the printer
or viewer substitutes, with other widths, so wrapped text can run over art. The
package carries an open font (``terragen/data/fonts``, licence beside it) and
the PDF back end embeds the glyphs it uses. The condensed cut is chosen because
its widths are within a few per cent of Helvetica's, so layouts made for the
old metrics still fit. SVG pages name the same family with common fallbacks
(embedding a whole font in every page would make each file hundreds of KiB).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

REGULAR = "TerragenSans"
BOLD = "TerragenSans-Bold"
FILES = {REGULAR: "DejaVuSansCondensed.ttf", BOLD: "DejaVuSansCondensed-Bold.ttf"}
SVG_FAMILY = "'DejaVu Sans Condensed', 'DejaVu Sans', 'Liberation Sans', Helvetica, Arial, sans-serif"


def font_name(bold: bool = False) -> str:
    """The registered reportlab font name for regular or bold text (registering on first use)."""
    register()
    return BOLD if bold else REGULAR


@lru_cache(maxsize=1)
def register() -> None:
    """Register the shipped fonts with reportlab once per process (lazily: reportlab is heavy).

    Ctrl-C and SIGTERM are held back while the files load: reportlab opens a font inside a bare
    ``except`` that turns any exception, an interrupt too, into "Can't open file", which the
    CLI would report as an internal error instead of stopping with 130 or 143."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from terragen.interrupts import signals_held

    with signals_held():
        for name, filename in FILES.items():
            with resources.as_file(resources.files("terragen").joinpath("data", "fonts", filename)) as path:
                pdfmetrics.registerFont(TTFont(name, str(path)))

"""Converting a file of any game between its JSON and text forms (no I/O: text in, text out).

Each game's own reader and writer do the work, so a conversion is exactly as
lossless as the game's formats: for Terrain Game layouts the text form keeps
everything beyond the file contract on its ``extra:`` line. A batch scenario
file converts to the layout it is built on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from terragen.errors import InputError

if TYPE_CHECKING:
    from terragen.terralogical.deck import Deck

FORMS = ("json", "text")


def convert_text(text: str, source: str, to: str, game: str | None = None, deck: Deck | None = None) -> tuple[str, str]:
    """``(game, converted text)`` for ``text`` read from ``source``; ``to`` is json or text.

    ``game`` forces the game; by default it is read from the file. ``deck`` (a Terralogical
    Deck) checks a board's tile ids against it; without one, an id the shipped deck does not
    hold (``T2`` of a deck of the user's) is carried over as written: converting rewrites the
    reference, not the tile, and a board made for a custom deck must convert without it
    (``validate --deck`` is where ids are judged). Raises InputError for a file that cannot
    be read, and when ``deck`` is given for another game.
    """
    from terragen.formats import detect_game, json_file_text

    if to not in FORMS:
        raise InputError(f"unknown form {to!r} (choose json or text)")
    name = game or detect_game(text)
    if deck is not None and name != "terralogical":
        raise InputError(f"--deck applies to Terralogical boards only; {source} is a {name or 'unknown'} file")
    if name == "terrain":
        from terragen.terrain.files import parse_layout
        from terragen.terrain.formats_json import write_json_layout
        from terragen.terrain.formats_text import write_text_layout

        layout = parse_layout(text, source)
        if to == "json":
            return name, write_json_layout(layout)
        try:
            return name, write_text_layout(layout)
        except InputError as exc:  # a JSON board the text form cannot hold: the problem is in the input
            from terragen.fileio import display_name

            raise InputError(f"{display_name(source)}: {exc.message}", exc.exit_code) from None
    if name == "terrace":
        from terragen.fileio import display_name
        from terragen.terrace.formats import draft_to_json, draft_to_text, parse_any

        draft = parse_any(text, source)  # as written: a position that breaks a rule converts too
        return name, draft_to_json(draft) if to == "json" else draft_to_text(draft, display_name(source))
    if name == "terralogical":
        from terragen.terralogical.default_deck import default_deck
        from terragen.terralogical.formats import parse_state, state_to_json, state_to_text

        state = parse_state(text, source, deck or default_deck(), pass_ids=deck is None)
        out = json_file_text(state_to_json(state)) if to == "json" else state_to_text(state)
        return name, out
    if name == "terraflip":
        from terragen.terraflip.formats import dumps_json, parse_position

        position = parse_position(text, source)
        return name, dumps_json(position) if to == "json" else position.to_text()
    raise InputError(f"{source}: cannot tell which game this file is for (use --game)")

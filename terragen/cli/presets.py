"""``terragen presets``: the difficulty presets of generate and batch, with their bands."""

from __future__ import annotations

import click

from terragen.cli._common import Whole, echo_json, json_option


def generator_presets(radius: int, destinations: int) -> list[dict]:
    """Each generate preset with its bands scaled to the board (as generate applies them)."""
    from terragen.terrain.generate.presets import load_preset, preset_keys, preset_names

    return [{"name": name, "description": load_preset(name).get("description", ""),
             **preset_keys(name, radius, destinations)} for name in preset_names()]


def puzzle_presets() -> list[dict]:
    """Each batch difficulty with the grade band every puzzle kind must land in."""
    from terragen.terrain.puzzles.grading import DIFFICULTIES, KINDS, preset

    return [{"name": d, "grade": {k: list(preset(k, d)["grade"]) for k in KINDS}} for d in DIFFICULTIES]


def _band(lo, hi) -> str:
    if lo is None:
        return f"up to {hi:g}"
    return f"{lo:g}+" if hi is None else f"{lo:g}-{hi:g}"


@click.command()
@click.option("--radius", type=Whole(3, 6), default=5, show_default=True,
              help="Scale generate's bands to this board radius.")
@click.option("--destinations", type=Whole(1, 3), default=1, show_default=True,
              help="Scale generate's bands to this many destinations per player.")
@json_option
def presets(radius: int, destinations: int, as_json: bool) -> None:
    """List the difficulty presets: generate's (expected turns per seat and
    the structural minimums) and batch's (the grade band of each puzzle kind).

    \b
    Examples:
      terragen presets
      terragen presets --radius 4 --destinations 2
      terragen presets --json

    Exit status: 0 listed, 2 bad options; 70, 129, 130, 143 as for every command (terragen --help).
    """
    gen = generator_presets(radius, destinations)
    puz = puzzle_presets()
    if as_json:
        echo_json({"generate": gen, "batch": puz, "radius": radius, "destinations": destinations})
        return
    import textwrap

    from terragen.plain_text import WIDTH, counted

    click.echo(f"terragen generate --difficulty NAME (bands for radius {radius}, {counted(destinations, 'destination')}):")
    for p in gen:
        lo, hi = p.get("turns_band", (None, None))
        needs = [f"{p[k]} {one if p[k] == 1 else many}" for k, one, many in (
            ("min_up3", "up-3 step per route", "up-3 steps per route"),
            ("min_cliff_exits", "cliff-side pip", "cliff-side pips"),
            ("min_critical", "rotation-critical piece per seat", "rotation-critical pieces per seat")) if p.get(k)]
        spread = f", expected-turns spread <= {p['fairness']}" if p.get("fairness") is not None else ""
        # each entry wrapped under its name: the hard and brutal lines were 120 columns
        bands = f"expected turns {_band(lo, hi)}{spread}" + (f"; at least {', '.join(needs)}" if needs else "")
        for first, text in ((f"  {p['name']:<7} ", bands), (" " * 10, p["description"])):
            for line in textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=" " * 10):
                click.echo(line)
    if (radius, destinations) != (5, 1):  # the descriptions are the presets' own, written for the standard board
        click.echo("  (the descriptions are for radius 5 with one destination; the bands above are scaled to this board)")
    from terragen.docs import doc_page

    click.echo("")
    click.echo("terragen batch --difficulty NAME (grade band per puzzle kind):")
    for p in puz:
        click.echo(f"  {p['name']:<7} " + ", ".join(f"{k} {_band(*g)}" for k, g in p["grade"].items()))
    click.echo(f"  (how a puzzle's grade is counted: {doc_page('batch.md')})")

"""``terragen examples list|show|copy``: the example files shipped inside the package."""

from __future__ import annotations

from pathlib import Path

import click

from terragen.cli._common import NameChoice, FolderName, check_outputs, echo_data, echo_json, force_option, json_option, say
from terragen.formats import GAMES



@click.group()
def examples() -> None:
    """List, print or copy the example files that ship with terragen.

    Examples are layouts and positions to validate, generator specs to start from, and
    broken boards that each show one rule. They live inside the installed
    package, so these commands work from any folder.

    \b
    Examples:
      terragen examples list
      terragen examples list --game terrain
      terragen examples copy terrain/four-players.txt
      terragen validate four-players.txt
      terragen examples show terrain/specs/example.toml

    Exit status: 0 success, 2 unknown example, bad usage or a file that exists already,
    73 (copy) a file could not be written (a file where the folder goes, read-only, disk
    full); 70, 129, 130, 143 as for every command (terragen --help).
    """


@examples.command("list")
@click.option("--game", type=NameChoice(GAMES, "game"), help="Only this game's examples.")
@json_option
def list_cmd(game: str | None, as_json: bool) -> None:
    """List the shipped examples: name and kind (layout: a Terrain Game board to open; position: a
    Terrace, Terralogical or TerraFlip position; invalid: one that breaks a rule on purpose, as
    its name says, so validate exits 1; warns: one that draws the warning its name says, and
    passes; spec: a generator spec; inventory: a piece inventory).

    \b
    Examples:
      terragen examples list --game terrain
      terragen examples list --json

    Exit status: 0 listed, 2 bad options; 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.examples import list_examples

    found = list_examples(game)
    if as_json:
        echo_json([{"name": ex.name, "game": ex.game, "kind": ex.kind} for ex in found])
        return
    width = max((len(ex.name) for ex in found), default=0)
    for ex in found:
        click.echo(f"{ex.name:<{width}}  {ex.kind}")


@examples.command("show")
@click.argument("name")
def show_cmd(name: str) -> None:
    """Print the example NAME to standard output.

    \b
    Example:
      terragen examples show terrain/specs/example.toml > my-spec.toml

    Exit status: 0 printed, 2 unknown example; 70, 129, 130, 143 as for every command
    (terragen --help).
    """
    from terragen.examples import find_example

    echo_data(find_example(name).read_bytes().decode("utf-8"))


@examples.command("copy")
@click.argument("names", nargs=-1, required=True, metavar="NAME...")
@click.option("-o", "--out", "--to", "dest", type=FolderName(path_type=Path), default=Path("."),
              show_default=True, help="Folder to copy into (created if missing); --to is the same option.")
@force_option
def copy_cmd(names: tuple[str, ...], dest: Path, force: bool) -> None:
    """Copy one or more examples into a folder, keeping their file names.

    A spec that names an inventory file brings that file along (skipped when
    the same file is already there). An existing file is never replaced unless
    --force is given; nothing is copied when any target exists.

    \b
    Examples:
      terragen examples copy terrain/four-players.txt
      terragen examples copy terrain/specs/example.toml --out specs --force

    Exit status: 0 copied, 2 unknown example or a target exists (add --force),
    73 a file could not be written (read-only, disk full, a link to nothing, a file
    where a folder goes); 70, 129, 130, 143 as for every command (terragen --help).
    """
    from terragen.errors import InputError
    from terragen.examples import find_example
    from terragen.fileio import OutputSet

    chosen = list(dict.fromkeys(find_example(n) for n in names))  # an example named twice is copied once
    for ex in list(chosen):  # a spec's inventory file comes along, or the copied spec would not run
        for c in ex.companions():
            if c in chosen:
                continue
            target = dest / c.filename
            if target.is_file() and target.read_bytes() == c.read_bytes():
                continue  # already there as shipped (two specs share one inventory): nothing to copy
            if target.exists() and not force:
                raise InputError(f"{target} exists already and differs from {c.name}, which {ex.name} needs "
                                 "beside it: add --force to replace it, or copy into another folder with --out")
            chosen.append(c)
    targets = [dest / ex.filename for ex in chosen]
    if len(set(targets)) != len(targets):
        seen: dict[Path, str] = {}
        for ex, target in zip(chosen, targets):
            if target in seen:  # name the two: the user typed neither file name
                raise InputError(f"examples {seen[target]} and {ex.name} have the same file name "
                                 f"({ex.filename}); copy each into a folder of its own (--out DIR)")
            seen[target] = ex.name
    check_outputs(targets, force)
    with OutputSet() as out:  # every example or none
        for ex, target in zip(chosen, targets):
            out.add(target, ex.read_bytes())
    for ex, target in zip(chosen, targets):
        say(f"copied {ex.name} to {target}")

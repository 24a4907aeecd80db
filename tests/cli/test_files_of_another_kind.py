"""terragen's own files that hold no layout or position (a Terralogical deck, a TerraFlip tile set,
the report of 'terraflip play', a batch manifest, a generator spec) are named for what they are by
every command that reads a layout or position (found by an audit: the commands reading Terrain Game
layouts called a deck "a Terralogical board" and a tile set "a TerraFlip position", a manifest lacked
a key 'radius', a spec gave 13 unknown sections)."""

from __future__ import annotations

import pytest

from terragen.templates import template_path

from tests.cli.test_conventions import run_cli

DECK_ELSEWHERE = "a deck goes to --deck of 'terragen terralogical play' or 'terragen kit terralogical'"
TILES_ELSEWHERE = "a tile set goes to --tiles of 'terragen terraflip play' or 'terragen kit terraflip'"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The files as the tool writes them."""
    import contextlib
    import io

    from terragen.cli import main

    folder = tmp_path_factory.mktemp("made")
    for args in (["terralogical", "deck", "--out", folder / "deck.json"],
                 ["terraflip", "tiles", "--out", folder / "tiles.json"],
                 ["terraflip", "play", "--games", "2", "--out", folder / "res.json"],
                 ["batch", "--count", "1", "--out", folder / "b"],
                 ["examples", "copy", "terrain/specs/example.toml", "terrain/specs/partial-inventory.toml",
                  "terrace/full-setup.txt", "--out", folder]):
        with contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit) as exc:
            main([str(a) for a in args])
        assert exc.value.code == 0, args
    return folder


TERRAIN_READERS = [["simulate"], ["render"], ["show"]]
#: validate and convert read each file with the reader of the game it names
ANY_READERS = [["validate"], ["convert"]]


@pytest.mark.parametrize("command", TERRAIN_READERS + ANY_READERS)
@pytest.mark.parametrize("name,says,own", [
    ("deck.json", f"this is a Terralogical deck, not a Terrain Game layout ({DECK_ELSEWHERE})",
     "this is a Terralogical deck, not a Terralogical board (a deck goes to --deck)"),
    ("tiles.json", f"this is a TerraFlip tile set, not a Terrain Game layout ({TILES_ELSEWHERE})",
     "this is a TerraFlip tile set, not a TerraFlip position (a tile set goes to --tiles)"),
    ("res.json", "this is the report of 'terragen terraflip play', not a Terrain Game layout",
     "this is the report of 'terragen terraflip play', not a TerraFlip position"),
    ("b/manifest.json", "this is a batch manifest, not a Terrain Game layout (give one of its scenarios/*.json)",
     None),
], ids=["deck", "tiles", "report", "manifest"])
def test_every_command_names_terragens_own_files(capsys, files, command, name, says, own):
    code, out, err = run_cli(capsys, *command, files / name)
    expected = own if command in ANY_READERS and own else says
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"terragen: error: {files / name}") and err.rstrip("\n").endswith(expected), err


@pytest.mark.parametrize("command", TERRAIN_READERS + ANY_READERS)
@pytest.mark.parametrize("edit,says", [
    (lambda d: d.update(layout=None), "$.layout: a batch scenario's board must be a layout object, got null"),
    (lambda d: d.pop("layout"), "$: a batch scenario ('terrain-puzzle') holds its board under 'layout', and this "
                                "one has no 'layout' key"),
    (lambda d: d.update(version=99), "$.version: unsupported batch scenario format version 99 (this terragen reads "
                                     "version 1)"),
], ids=["null-layout", "no-layout", "version-99"])
def test_a_batch_scenario_without_its_layout_or_of_another_version_is_named(capsys, files, tmp_path, command,
                                                                            edit, says):
    """A scenario without its layout was called "a 'terrain-puzzle' file, not a Terrain Game layout",
    and one of version 99 was read as valid where a layout of version 2 is refused."""
    import json

    data = json.loads((files / "b" / "scenarios" / "00000-route.json").read_text(encoding="utf-8"))
    edit(data)
    scenario = tmp_path / "sc.json"
    scenario.write_text(json.dumps(data, indent=2), encoding="utf-8")
    code, out, err = run_cli(capsys, *command, scenario, *(["-o", tmp_path / "x.pdf"] if command == ["render"] else []))
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"terragen: error: {scenario}:") and err.rstrip("\n").endswith(says), err


@pytest.mark.parametrize("command", [["terrace", "validate"], ["terrace", "show"]])
def test_the_other_games_readers_name_them_too(capsys, files, command):
    for name, says in [("deck.json", f"this is a Terralogical deck, not a Terrace position ({DECK_ELSEWHERE})"),
                       ("tiles.json", f"this is a TerraFlip tile set, not a Terrace position ({TILES_ELSEWHERE})"),
                       ("b/manifest.json", "this is a batch manifest, not a Terrace position (its scenarios/*.json "
                                           "are Terrain Game layouts)")]:
        code, _, err = run_cli(capsys, *command, files / name)
        assert code == 2 and err == f"terragen: error: {files / name}: {says}\n"


@pytest.mark.parametrize("command", [["validate"], ["simulate"], ["render"], ["show"], ["convert"]])
def test_a_generator_spec_is_named_in_one_line(capsys, files, command):
    """validate listed 13 [syntax] errors ("unknown section 'corners:'", ...), the others the first of them."""
    code, out, err = run_cli(capsys, *command, files / "example.toml")
    assert code == 2 and out == ""
    assert err == (f"terragen: error: {files / 'example.toml'}: this is a generator spec, not a Terrain Game layout: "
                   "use 'terragen generate --spec FILE'\n")
    code, out, err = run_cli(capsys, *command, files / "partial-inventory.toml")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "this is a piece inventory, not a Terrain Game layout (give it as --inventory FILE" in err


@pytest.mark.parametrize("command, wanted", [(["terrace", "show"], "Terrace position"),
                                             (["terrace", "validate"], "Terrace position"),
                                             (["terralogical", "validate"], "Terralogical board"),
                                             (["terraflip", "validate"], "TerraFlip position")])
def test_the_other_games_readers_name_a_generator_spec_too(capsys, files, command, wanted):
    """terrace show called a spec "a Terrain Game layout" (its 'radius = ...' line); terralogical
    validate said its first line must be 'game: terralogical'."""
    code, out, err = run_cli(capsys, *command, files / "example.toml")
    assert code == 2 and out == ""
    assert err == (f"terragen: error: {files / 'example.toml'}: this is a generator spec, not a {wanted}: "
                   "use 'terragen generate --spec FILE'\n")


def test_a_text_layout_written_with_equals_signs_is_still_a_layout():
    """The form takes 'radius = 2'; such a file must not be taken for TOML."""
    from terragen.formats import toml_file
    from terragen.terrain.files import parse_layout

    text = (template_path("terrain", "examples", "two-players.txt").read_text(encoding="utf-8")
            .replace("radius:", "radius =").replace("map:", "map ="))
    assert toml_file(text, "terrain") is None
    assert parse_layout(text, "b.txt").radius > 0
    assert toml_file("radius = 3\n", "terrain") is None  # one line of the text form, not a spec


def test_show_points_a_file_of_another_game_to_the_command_for_it(capsys, files):
    code, _, err = run_cli(capsys, "show", files / "full-setup.txt")
    assert code == 2 and err.endswith("'terragen terrace show FILE' prints a Terrace position\n"), err
    board = template_path("terralogical", "examples", "three-players-start.txt")
    code, _, err = run_cli(capsys, "show", board)
    assert code == 2 and "'terragen convert FILE --to text' prints a Terralogical board" in err, err


@pytest.mark.parametrize("command", [
    ["terralogical", "play", "--games", "1"],
    ["kit", "terralogical"],
    ["validate", template_path("terralogical", "examples", "three-players-start.txt")],
    ["convert", template_path("terralogical", "examples", "three-players-start.txt")],
])
def test_a_text_file_given_as_the_deck_is_not_a_deck(capsys, tmp_path, command):
    """It said "invalid JSON: Expecting value" at 1:1, as --tiles no longer did."""
    layout = template_path("terrain", "examples", "two-players.txt")
    extra = ["--out", tmp_path / "kit"] if command[0] == "kit" else []
    code, _, err = run_cli(capsys, *command, "--deck", layout, *extra)
    assert code == 2 and err == (f"terragen: error: --deck: {layout}: not a Terralogical deck (a deck is the JSON "
                                 "'terragen terralogical deck' writes)\n"), err

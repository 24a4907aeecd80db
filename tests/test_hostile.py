"""Hostile input over every command that reads a file: a documented exit code, at most one
stderr line, no traceback, bounded time and memory (issue 17).

The committed corpus (tests/data/hostile) holds the small nasty files; larger ones, device
files, FIFOs and streams are made here. Each command runs as a real subprocess with an
address-space cap (RLIMIT_AS) and a timeout, so a hang or a memory blow-up fails the test
instead of the machine.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from terragen.errors import TerragenError
from terragen.templates import template_path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "hostile"
MEMORY_CAP = 2 * 1024**3  # bytes of address space per command
TIME_CAP = 30  # seconds per command
DOCUMENTED = {1, 2, 73}  # what a hostile input may end in: failed its check, unreadable input, cannot write


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_capped(args: list[str], cwd: Path, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TERRAGEN_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "terragen", *args], cwd=cwd, env=env, stdin=stdin,
                          capture_output=True, text=True, timeout=TIME_CAP, preexec_fn=_cap_memory)


def assert_clear_failure(proc: subprocess.CompletedProcess, args) -> None:
    assert proc.returncode in DOCUMENTED, (args, proc.returncode, proc.stderr[-500:])
    assert "Traceback" not in proc.stderr, (args, proc.stderr[-2000:])
    lines = proc.stderr.strip().splitlines()
    assert len(lines) <= 1, (args, proc.stderr[-2000:])
    if proc.returncode == 2:
        assert len(lines) == 1 and len(lines[0]) < 800, (args, proc.stderr[:900])


def _example(game: str, name: str) -> str:
    return template_path(game, "examples", name).read_text(encoding="utf-8")


def big_files(folder: Path) -> dict[str, Path]:
    """The hostile files too large to commit: thousands of players, a megabyte token."""
    layout = json.loads(_example("terrain", "four-players.json"))
    players = dict(layout, players=[{"seat": i, "corner": i % 6, "destinations": [{"q": 0, "r": 0}]}
                                    for i in range(20_000)])
    dests = dict(layout, players=[dict(p, destinations=[{"q": 0, "r": 0}] * 5000) for p in layout["players"]])
    made = {
        "players-20000.json": json.dumps(players),
        "destinations-5000.json": json.dumps(dests),
        "token-1mb.txt": "radius: " + "x" * 1_000_000 + "\nmap:\n",
        "level-1mb.txt": "radius: 1\nmap:\n  1A0 " + "9" * 25 + "Q" * 1_000_000 + " 1A0\n",
    }
    out = {}
    for name, text in made.items():
        (folder / name).write_text(text)
        out[name] = folder / name
    return out


#: command line per reader; FILE is replaced by the hostile file, OUT by a fresh folder
READERS = {
    "validate": ["validate", "FILE"],
    "simulate": ["simulate", "FILE", "--games", "5"],
    "render": ["render", "FILE", "--out", "OUT/sheet.pdf"],
    "terrace-moves": ["terrace", "moves", "FILE"],
    "terraflip-play": ["terraflip", "play", "--tiles", "FILE", "--games", "1"],
    "kit-terraflip": ["kit", "terraflip", "--tiles", "FILE", "--out", "OUT"],
    "kit-terralogical": ["kit", "terralogical", "--deck", "FILE", "--out", "OUT"],
    "generate-spec": ["generate", "--spec", "FILE", "--no-gate", "--time-limit", "5", "--out", "OUT"],
    "generate-inventory": ["generate", "--inventory", "FILE", "--no-gate", "--time-limit", "5", "--out", "OUT"],
}

#: which readers each corpus file is aimed at (validate reads every layout and position)
TARGETS = {
    ".json": ["validate"],
    ".txt": ["validate"],
    ".toml": ["generate-spec", "generate-inventory"],
}
EXTRA = {
    "deep-terraflip.json": ["terraflip-play"],
    "deep-tileset.json": ["kit-terraflip", "terraflip-play"],
    "deep-terralogical.json": ["kit-terralogical"],
    "deep-terrace.json": ["terrace-moves"],
    "huge-terrace.txt": ["terrace-moves"],
    "huge-terraflip.json": ["terraflip-play"],
    "huge-radius.txt": ["simulate", "render"],
    "nan-radius.json": ["simulate", "render"],
    "far-cell-terrain.json": ["simulate", "render"],
    "players-20000.json": ["simulate", "render"],
    "destinations-5000.json": ["simulate", "render"],
    "token-1mb.txt": ["render"],
}


def corpus_cases() -> list[tuple[str, str]]:
    names = sorted(p.name for p in CORPUS.iterdir() if p.suffix in TARGETS)
    names += ["players-20000.json", "destinations-5000.json", "token-1mb.txt", "level-1mb.txt"]
    return [(name, reader) for name in names for reader in TARGETS[Path(name).suffix] + EXTRA.get(name, [])]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    return big_files(tmp_path_factory.mktemp("hostile"))


def _args(reader: str, file: str, out: Path) -> list[str]:
    return [str(out) if a == "OUT" else f"{out}/sheet.pdf" if a == "OUT/sheet.pdf" else file if a == "FILE" else a
            for a in READERS[reader]]


@pytest.mark.parametrize("name,reader", corpus_cases())
def test_hostile_file(name, reader, made, tmp_path):
    path = made.get(name, CORPUS / name)
    args = _args(reader, str(path), tmp_path / "out")
    proc = run_capped(args, tmp_path)
    assert_clear_failure(proc, args)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir()), "wrote output for bad input"


@pytest.mark.parametrize("reader", sorted(READERS))
def test_device_files_fifos_and_streams(reader, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for file in ("/dev/zero", "/dev/urandom", str(fifo)):
        args = _args(reader, file, tmp_path / "out")
        proc = run_capped(args, tmp_path)
        assert_clear_failure(proc, args)
        assert proc.returncode == 2, (args, proc.stderr)


def test_an_endless_stdin_stream_is_capped(tmp_path):
    with open("/dev/zero", "rb") as zero:
        proc = run_capped(["terrace", "moves", "-"], tmp_path, stdin=zero)
    assert_clear_failure(proc, "terrace moves - < /dev/zero")
    assert "limit" in proc.stderr


def test_newline_in_a_file_name_stays_on_one_line(tmp_path):
    proc = run_capped(["validate", "a\nb.txt"], tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "a\\nb.txt" in proc.stderr


def test_a_megabyte_token_is_elided_in_the_error(made, tmp_path):
    proc = run_capped(["validate", str(made["token-1mb.txt"])], tmp_path)
    assert proc.returncode == 2 and len(proc.stderr) < 800 and "more characters" in proc.stderr


def test_thousands_of_players_are_reported_without_analysis(made, tmp_path):
    proc = run_capped(["validate", str(made["players-20000.json"]), "--json"], tmp_path)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert any(f["code"] == "player-count" for f in report["errors"]) and report["analysis"] == "skipped"


# --- in process: every reader raises only TerragenError on mutated input ---------------------

def _readers():
    from terragen.formats import VALIDATORS
    import importlib

    out = [importlib.import_module(m).validate_text for m in VALIDATORS.values()]
    from terragen.terraflip.tilefile import parse_tileset
    from terragen.terralogical.formats import deck_from_json

    out += [parse_tileset, deck_from_json]
    return out


SEEDS = [_example("terrain", "four-players.txt"), _example("terrain", "four-players.json"),
         _example("terrace", "full-setup.txt"), _example("terrace", "four-players-setup.json"),
         _example("terralogical", "three-players-start.txt"), _example("terraflip", "three-players-midgame.txt")]
NASTY = ["[" * 3000, "1" * 5000, "NaN", "Infinity", "-1e999", "\x00", "\n" * 3, "9999999", "-9999", '"', "{", "}"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SEEDS), st.integers(0, 10**9), st.sampled_from(NASTY), st.integers(0, 40))
def test_mutated_files_raise_only_terragen_errors(seed_text, where, nasty, cut):
    at = where % (len(seed_text) + 1)
    text = seed_text[:at] + nasty + seed_text[at + cut:]
    for read in _readers():
        try:
            read(text, "fuzz")
        except TerragenError:
            pass


@pytest.mark.parametrize("args", [
    ["batch", "--count", "1000000000000", "--kind", "route", "--out", "OUT"],
    ["simulate", str(Path(str(template_path("terrain", "examples", "two-players.txt")))), "--games", "1000000000000"],
    ["generate", "--seed", "9" * 5000, "--out", "OUT"],
    ["generate", "--players", "2", "--time-limit", "nan", "--out", "OUT"],
    ["kit", "terrain", "--scale", "inf", "--out", "OUT"],
], ids=["batch-count", "simulate-games", "huge-seed", "nan-time-limit", "inf-scale"])
def test_absurd_flags_are_refused_at_once(args, tmp_path):
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    proc = run_capped(args, tmp_path)
    assert proc.returncode == 2 and len(proc.stderr) < 800, proc.stderr[:900]
    assert_clear_failure(proc, args)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text,says", [
    ('{"game": "terrain", "version": 1,\n "radius": 5, "radius": 3, "cells": [], "players": []}',
     'key "radius" twice in the object {"game": "terrain", "version": 1, ...}'),
    ('{"game": "terrain", "version": 1, "radius": 5, "cells": [{"q": 0, "r": 0, "level": 1},\n'
     ' {"q": 1, "r": 0, "level": 2, "level": 3}], "players": []}',
     'key "level" twice in the object {"q": 1, "r": 0, ...}'),
])
def test_a_key_twice_in_one_object_is_refused_naming_the_object(text, says):
    """Python's json keeps the last of two equal keys without a word; the file says two things. The
    object is named by its values (the key's text may stand in every object of the file)."""
    from terragen.errors import InputError
    from terragen.safejson import load_json

    with pytest.raises(InputError) as err:
        load_json(text, "board.json")
    assert err.value.message == f"board.json: invalid JSON: {says} (which one counts?)"


def test_a_deck_or_tile_set_given_as_a_position_is_named_as_such_and_versions_are_checked():
    from terragen.errors import InputError
    from terragen.terraflip.formats import dumps_json, parse_position
    from terragen.terralogical.formats import parse_state

    deck = Path(str(template_path("terralogical", "default-deck.json"))).read_text()
    with pytest.raises(InputError, match="this is a Terralogical deck, not a Terralogical board"):
        parse_state(deck, "deck.json")
    tiles = json.dumps({"game": "terraflip", "kind": "tileset", "seed": 0, "tiles": []})
    with pytest.raises(InputError, match="this is a TerraFlip tile set, not a TerraFlip position"):
        parse_position(tiles, "tiles.json")
    position = parse_position(Path(str(template_path("terraflip", "examples", "three-players-midgame.txt"))).read_text(), "p.txt")
    data = json.loads(dumps_json(position))
    assert parse_position(json.dumps(data), "p.json").players == position.players
    data["version"] = 2
    with pytest.raises(InputError, match="unsupported version 2"):
        parse_position(json.dumps(data), "p.json")


def test_a_deck_of_thousands_of_tiles_is_refused_before_any_kit_page():
    from terragen.errors import InputError, SpecError
    from terragen.terralogical.deck import MAX_DECK_TILES, DeckParams
    from terragen.terralogical.formats import deck_from_json

    deck = json.loads(Path(str(template_path("terralogical", "default-deck.json"))).read_text())
    tile = deck["tiles"][0]
    deck["tiles"] = [{**tile, "id": f"T{i}"} for i in range(MAX_DECK_TILES + 1)]
    with pytest.raises(InputError, match=f"at most {MAX_DECK_TILES}"):
        deck_from_json(json.dumps(deck), "big.json")
    deck["tiles"] = deck["tiles"][:MAX_DECK_TILES]
    assert len(deck_from_json(json.dumps(deck), "ok.json").tiles) == MAX_DECK_TILES
    with pytest.raises(SpecError, match="param tiles"):
        DeckParams.from_pairs([f"tiles={MAX_DECK_TILES + 1}"])


@pytest.mark.parametrize("text", ['{"a": "\\ud800"}', '{"\\udfff": 1}', '[["x\\udbff"]]'])
def test_half_a_utf16_pair_is_refused_when_read_not_when_written(text):
    """JSON lets "\\ud800" stand alone; Python read it, and writing it as UTF-8 then failed (exit 70, web 500)."""
    from terragen.errors import InputError
    from terragen.safejson import load_json

    with pytest.raises(InputError, match="half of a UTF-16 pair"):
        load_json(text, "f.json")
    assert load_json('{"a": "\\ud83d\\ude00"}', "f.json") == {"a": "\U0001F600"}  # a whole pair is a character


@pytest.mark.parametrize("game, text", [
    ("terralogical", "# x\fgame: terralogical\fplayers: red green\fhands: 3 3\f7,0  sun  0\f0,7  flower  0\f"
                     + "1" * 5000 + ",1  FFFF  0  red\n"),
    ("terraflip", "# x\u2028game: terraflip\u2028" + "1" * 5000 + "\n"),
    ("terrace", "# x\x85game: terrace\x85size: " + "1" * 5000 + "\n"),
])
def test_line_breaks_other_than_newlines_hide_no_long_number(tmp_path, capsys, game, text):
    """A form feed, U+0085 or U+2028 split lines for the games' readers but not for the guard against
    over-long numbers, so a 5000-digit number behind a comment reached int(): exit 70."""
    from terragen.cli import main

    f = tmp_path / f"{game}.txt"
    f.write_text(text, encoding="utf-8")
    for args in (["validate", str(f)], ["convert", str(f), str(tmp_path / "out.json")]):
        with pytest.raises(SystemExit) as exc:
            main(args)
        err = capsys.readouterr().err
        assert exc.value.code in (1, 2) and "internal error" not in err, err


def test_a_player_key_of_a_non_ascii_digit_on_an_extra_line_is_not_a_seat(tmp_path, capsys):
    from terragen.cli import main
    from terragen.templates import template_path

    text = template_path("terrain", "examples", "two-players.txt").read_text() + 'extra: {"players": {"\u00b2": {"a": 1}}}\n'
    f = tmp_path / "b.txt"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["validate", str(f)])
    assert exc.value.code in (0, 1, 2) and "internal error" not in capsys.readouterr().err


ARABIC_INDIC = str.maketrans("0123456789", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669")
EXAMPLE_TEXTS = sorted(template_path("terrain", "examples", "two-players.txt").parents[2].glob("*/examples/*.txt"))


@pytest.mark.parametrize("example", EXAMPLE_TEXTS, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_numbers_are_ascii_digits_in_every_text_form(tmp_path, capsys, example):
    """Python's int() reads Arabic-Indic or Devanagari digits, so the readers took them where the
    writers never put them: one rule (ASCII digits) for every number in every game's text form."""
    from terragen.cli import main

    lines = example.read_text(encoding="utf-8").split("\n")
    numbered = [i for i, line in enumerate(lines) if any(c.isdigit() for c in line.split("#", 1)[0])]
    assert numbered
    for i in numbered:
        code, hash_, comment = lines[i].partition("#")
        changed = lines[:i] + [code.translate(ARABIC_INDIC) + hash_ + comment] + lines[i + 1:]
        f = tmp_path / example.name
        f.write_text("\n".join(changed), encoding="utf-8")
        with pytest.raises(SystemExit) as exc:
            main(["validate", str(f)])
        err = capsys.readouterr()
        assert exc.value.code in (1, 2), f"line {i + 1} read as numbers: {changed[i]!r}"
        assert "internal error" not in err.err
        assert f"{example.name}:" in err.out + err.err, (i + 1, err)  # where: a digit in a name fails later


@given(st.one_of(st.text(max_size=40), st.text(max_size=20).map(lambda t: '{"a": "' + t)))
def test_a_json_syntax_error_never_ends_on_a_dangling_at(text):
    """Python's json says "Unterminated string starting at" and keeps the place apart: the message
    read as cut off, on the page and on the command line alike."""
    from terragen.errors import InputError
    from terragen.safejson import load_json

    try:
        load_json(text, "board.json")
    except InputError as err:
        assert not err.message.rstrip().endswith(" at"), err.message


def test_an_unterminated_string_names_where_it_starts():
    from terragen.errors import InputError
    from terragen.safejson import load_json

    with pytest.raises(InputError) as err:
        load_json('{"a": "xx', "board.json")
    assert err.value.message == "board.json:1:7: invalid JSON: Unterminated string starting at line 1 column 7"


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12)


def _paths(value, path="$"):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            if k and not set(k) & set(".["):  # the readers' paths name plain keys only
                yield from _paths(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, f"{path}[{i}]")


@settings(max_examples=150, deadline=None)
@given(_JSON_VALUES, st.sampled_from([None, 0, 2]), st.booleans())
def test_a_json_path_leads_to_its_value_in_the_text(value, indent, ascii_only):
    """What an error at $.cells[41].level names must be where the editor's cursor goes: the line
    and column found for every path start the very value the path holds, however the file is laid out."""
    from terragen.safejson import json_path_position

    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    lines = text.split("\n")
    for path, held in _paths(value):
        line, col = json_path_position(text, path)
        at = sum(len(x) + 1 for x in lines[:line - 1]) + col - 1
        assert json.JSONDecoder().raw_decode(text, at)[0] == held, (text, path)
    assert json_path_position(text, "$.no-such-key") is None
    assert json_path_position(text, "$[99]") is None


@pytest.mark.parametrize("wrap", [False, True], ids=["layout", "batch scenario"])
def test_a_wrong_value_in_a_json_layout_is_named_with_its_line_and_column(tmp_path, capsys, wrap):
    """A string where a level goes was named only as $.cells[5].level: the user counted objects in an
    editor. The line and column now lead there, in a batch scenario's layout too, and --json gives
    them as fields while still calling the file unreadable (it is well-formed JSON, not a syntax error)."""
    from terragen.cli import main
    from terragen.terrain.files import parse_layout
    from terragen.terrain.formats_json import write_json_layout

    text = write_json_layout(parse_layout(template_path("terrain", "examples", "two-players.txt").read_text()))
    if wrap:
        text = '{"game": "terrain-puzzle", "layout": ' + text.replace("\n", "\n  ") + "}"
    lines = text.split("\n")
    row = [n for n, line in enumerate(lines) if '"level"' in line][5]
    lines[row] = lines[row].replace('"level": ', '"level": "', 1).replace(', "pattern"', '", "pattern"', 1)
    f = tmp_path / "board.json"
    f.write_text("\n".join(lines))
    col = lines[row].index('"level": "') + len('"level": ') + 1
    with pytest.raises(SystemExit) as exc:
        main(["validate", str(f)])
    err = capsys.readouterr().err
    path = "$.layout.cells[5].level" if wrap else "$.cells[5].level"  # the path in the file itself
    assert exc.value.code == 2 and f"{f}:{row + 1}:{col}: {path}: expected a whole number, got the string" in err, err
    with pytest.raises(SystemExit):
        main(["validate", "--json", str(f)])
    (error,) = json.loads(capsys.readouterr().out)["errors"]
    assert (error["code"], error["line"], error["col"]) == ("unreadable", row + 1, col), error
    assert error["message"].startswith(f"{path}: "), error


def test_a_deck_tile_id_holding_a_control_character_is_refused_when_read():
    """Such an id passed the one-word check and reached the kit's pages, three of which no viewer opened."""
    from terragen.errors import InputError
    from terragen.terralogical.formats import deck_from_json

    data = json.loads(template_path("terralogical", "default-deck.json").read_text())
    data["tiles"][0]["id"] = "T\x01"
    with pytest.raises(InputError, match=r"tile id 'T\\x01' holds a character no page can print"):
        deck_from_json(json.dumps(data), "deck.json")


@pytest.mark.parametrize("line, refused", [
    ('inventory = "inv_1234567890123456789012345678901.toml"', False),  # a file name, not a number
    ('name = "b1234567890123456789012345678901"', False),
    ("seed = 1234567890123456789012345678901", True),
    ("seed = -1234567890123456789012345678901", True),
    ("x = [1, 1234567890123456789012345678901]", True),
    ('note = "b 1234567890123456789012345678901234567890 c"', False),  # inside a string, spaces or not
    ("seed = 1234567890_1234567890_1234567890_1", True),  # TOML's underscores: 31 digits all the same
])
def test_only_a_long_run_of_digits_standing_as_a_number_is_refused(line, refused):
    """Any run of more than 30 digits was refused as a number, inside a quoted file name too."""
    from terragen.errors import InputError
    from terragen.safejson import check_text_numbers

    if refused:
        with pytest.raises(InputError, match="number with 3[12] digits"):
            check_text_numbers(line + "\n", "spec.toml", extra_line=False)
    else:
        check_text_numbers(line + "\n", "spec.toml", extra_line=False)


@pytest.mark.parametrize("text, says, where", [
    ('{"a": 1,}', "a comma with nothing after it (JSON allows no comma before '}' or ']')", "1:9"),
    ("[1,]", "a comma with nothing after it", "1:4"),
    ("{a: 1}", "a key must be a string in double quotes", "1:2"),
    ('{"a": 1 "b": 2}', "a comma is missing before this", "1:9"),
    ('{"a" 1}', "a ':' is missing after the key", "1:6"),
    ('{"a": }', "a value is missing here", "1:7"),
    ('{"a": 1} x', "more text after the end of the JSON document", "1:10"),
])
def test_json_slips_are_told_in_an_editors_words(text, says, where):
    """A comma before '}' got Python's "Expecting property name enclosed in double quotes"."""
    from terragen.errors import InputError
    from terragen.safejson import load_json

    with pytest.raises(InputError) as caught:
        load_json(text, "b.json")
    assert caught.value.message.startswith(f"b.json:{where}: invalid JSON: {says}"), caught.value.message

import pytest


def test_report_uses_the_seat_numbers_the_file_gives():
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim import simulate_layout
    from terragen.templates import template_path

    layout = load_layout(template_path("terrain", "examples", "two-players.txt"))
    for p in layout.players:
        p.seat += 5
    report = simulate_layout(layout, games=10, seed=1)
    assert [s.seat for s in report.seats] == [5, 6]


PLUGINS = '''
class Raising:
    def choose_move(self, state, seat, roll, options):
        raise ValueError("oops")
    def choose_rotation(self, state, seat, roll, options):
        return None
class Illegal(Raising):
    def choose_move(self, state, seat, roll, options):
        return -12345
class Fine(Raising):
    def choose_move(self, state, seat, roll, options):
        return min(options)
class Quits(Raising):
    def choose_move(self, state, seat, roll, options):
        raise SystemExit(0)
class FloatCell(Raising):
    def choose_move(self, state, seat, roll, options):
        return float(min(options))
class NumberForAction(Fine):
    def choose_rotation(self, state, seat, roll, options):
        return 5
class EmptyAction(Fine):
    def choose_rotation(self, state, seat, roll, options):
        return ()
class DictAction(Fine):
    def choose_rotation(self, state, seat, roll, options):
        return {"a": 1}
'''


@pytest.mark.parametrize("spec, says", [
    ("myplayers:Raising", "policy myplayers:Raising failed during a game: ValueError: oops"),
    ("myplayers:Illegal", "policy myplayers:Illegal chose cell -12345, which is not a legal end"),
    ("myplayers:Fine,myplayers:Raising", "policy myplayers:Raising failed during a game: ValueError: oops"),
    ("myplayers:Quits", "policy myplayers:Quits failed during a game: SystemExit"),
    ("myplayers:FloatCell", ".0, not a cell number (an int among the options)"),
    ("myplayers:NumberForAction", "policy myplayers:NumberForAction chose 5, not an action"),
    ("myplayers:EmptyAction", "policy myplayers:EmptyAction chose (), not an action"),
    ("myplayers:DictAction", "policy myplayers:DictAction chose {'a': 1}, not an action"),
    ("broken:X", "cannot import policy module 'broken': SyntaxError"),
    ("./myplayers.py:Raising", "is not package.module:ClassName"),
    (":X", "is not package.module:ClassName"),
])
def test_a_plug_in_players_fault_is_exit_2_naming_it(tmp_path, spec, says):
    """A user's player that raises, cheats or quits is the user's to fix: never "please report it"."""
    import os
    import subprocess
    import sys

    from terragen.templates import template_path

    (tmp_path / "myplayers.py").write_text(PLUGINS)
    (tmp_path / "broken.py").write_text("def x(:\n")
    board = str(template_path("terrain", "examples", "two-players.txt"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    p = subprocess.run([sys.executable, "-m", "terragen", "simulate", board, "--games", "40", "--policy", spec,
                        "--workers", "2"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    assert says in p.stderr and "report" not in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_a_board_with_an_unreachable_destination_says_no_game_was_played(capsys):
    """Its rates would be 0% for every seat: a table of them reads as games everyone lost."""
    import json

    from terragen.cli import main
    from terragen.templates import template_path

    board = template_path("terrain", "examples", "invalid", "destination-unreachable.txt")
    for extra in ([], ["--json"]):
        with pytest.raises(SystemExit) as exc:
            main(["simulate", str(board), "--games", "20", *extra])
        out = capsys.readouterr().out
        assert exc.value.code == 1
        if extra:
            data = json.loads(out)
            assert (data["games"], data["played"], data["playable"]) == (20, 0, False)
        else:
            assert "0 of 20 games played" in out and "win rate" not in out and "cannot reach" in out
    with pytest.raises(SystemExit):
        main(["simulate", str(template_path("terrain", "examples", "two-players.txt")), "--games", "20", "--json"])
    assert json.loads(capsys.readouterr().out)["played"] == 20


def test_the_table_stays_aligned_with_a_plug_in_players_long_name(tmp_path):
    """A package.module:Class name ran the columns after it out of line."""
    import os
    import subprocess
    import sys

    from terragen.templates import template_path

    (tmp_path / "myplayers.py").write_text(PLUGINS)
    board = str(template_path("terrain", "examples", "two-players.txt"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    p = subprocess.run([sys.executable, "-m", "terragen", "simulate", board, "--games", "40", "--policy",
                        "myplayers:Fine,greedy"], capture_output=True, text=True, env=env, cwd=tmp_path)
    lines = p.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("seat  policy"))
    rows = lines[header:header + 3]
    assert [row.index("%") for row in rows[1:]] == [rows[0].index("win rate") + 6] * 2, rows


def test_a_quick_look_says_its_verdict_can_go_either_way():
    """--games 100 on a board generate had just called fair printed NOT BALANCED as a finding; a run
    below the games the verdict is sized for says so, and one at that size does not."""
    from dataclasses import replace

    from terragen.templates import template_path
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim import default_games, simulate_layout

    layout = load_layout(template_path("terrain", "examples", "two-players.txt"))
    quick = simulate_layout(layout, games=60, seed=1)
    assert quick.reliable_games == default_games(2) and quick.to_json()["reliable_games"] == default_games(2)
    note = [line for line in quick.lines() if "quick look" in line]
    assert len(note) == 1 and f"{default_games(2):,} games" in note[0]
    # the share it names is the one the default is sized by (it said a third while it was a seventh)
    from terragen.terrain.sim.runner import NOISE_SHARE

    named = {"a third": 1 / 3, "a fifth": 1 / 5, "a seventh": 1 / 7}
    said = [share for words, share in named.items() if f"noise to {words} of the margin" in note[0]]
    assert said == [NOISE_SHARE]
    assert not [line for line in replace(quick, reliable_games=60).lines() if "quick look" in line]


def test_a_one_game_report_says_game_not_games():
    """'(1 finished games)' and '1 games are a quick look'."""
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim import simulate_layout
    from terragen.templates import template_path

    layout = load_layout(template_path("terrain", "examples", "two-players.txt"))
    text = "\n".join(simulate_layout(layout, games=1, seed=1).lines())
    assert "(1 finished game)" in text and "1 game is a quick look" in text and "1 games" not in text


def test_a_batch_scenario_is_refused_as_a_puzzle_not_sent_to_validate(tmp_path, capsys):
    """validate passes a scenario, so "terragen validate lists every problem" sent users to a
    command that found none."""
    import json

    from terragen.cli import main
    from terragen.terrain.puzzles.batch import run_batch

    run_batch(1, "route", "easy", 3, tmp_path / "b", workers=1, booklet=False)
    scenario = str(next((tmp_path / "b" / "scenarios").glob("*.json")))
    for extra in ([], ["--json"]):
        with pytest.raises(SystemExit) as exc:
            main(["simulate", scenario, "--games", "10", *extra])
        captured = capsys.readouterr()
        said = json.loads(captured.out)["reason"] if extra else captured.err
        assert exc.value.code == 1 and "one-player puzzle from terragen batch" in said and "lists every" not in said

"""``terragen generate`` as a user meets it: files, exit codes, one-line errors."""

import json


def test_writes_three_files_and_summary(cli, tmp_path):
    out = tmp_path / "g"
    p = cli("generate", "--players", 2, "--difficulty", "easy", "--seed", 3, "--out", out, "--no-balance")
    assert p.returncode == 0, p.stderr
    assert {f.name for f in out.iterdir()} == {"board.json", "board.txt", "board.svg"}
    data = json.loads((out / "board.json").read_text())
    assert data["meta"]["seed"] == 3 and data["meta"]["build_order"]
    assert all("piece" in c for c in data["cells"])
    top, bottom = p.stdout.splitlines()[:2]  # the table's heading, two lines, named as validate names it
    assert top[top.index("race,"):].split()[0] == "race," and bottom[top.index("race,"):].split()[0] == "rotating"
    assert "fragility" in top and "difficulty: easy" in p.stdout
    assert "balance: not simulated" in p.stdout and "balance" not in data["meta"]
    v = cli("validate", out / "board.json")
    assert v.returncode == 0 and "0 errors, 0 warnings" in v.stdout
    v = cli("validate", out / "board.txt")
    assert v.returncode == 0
    # --json gives each seat's race model as validate --json does
    again = cli("generate", "--players", 2, "--difficulty", "easy", "--seed", 3, "--out", tmp_path / "j", "--no-balance",
                "--json")
    seats = json.loads(again.stdout)["players"]
    checked = json.loads(cli("validate", out / "board.json", "--json").stdout)["players"]
    assert [s["win_probability_race"] for s in seats] == [s["win_probability_race"] for s in checked]
    assert all(s["finish_rounds"] for s in seats)


def test_same_seed_byte_identical_files(cli, tmp_path):
    for name in ("a", "b"):
        p = cli("generate", "--players", 3, "--radius", 4, "--difficulty", "medium", "--seed", 7, "--out", tmp_path / name,
                "--no-balance")
        assert p.returncode == 0, p.stderr
    for f in ("board.json", "board.txt", "board.svg"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()


def test_same_files_with_one_simulation_process_or_two(cli, tmp_path):
    # a 5-point margin: samples of 2000 games, enough that the two processes share them
    for workers in ("1", "2"):
        p = cli("generate", "--players", 2, "--radius", 4, "--difficulty", "easy", "--margin", 0.05, "--seed", 2,
                "--out", tmp_path / workers, env={"TERRAGEN_WORKERS": workers})
        assert p.returncode == 0, p.stderr
    for f in ("board.json", "board.txt", "board.svg"):
        assert (tmp_path / "1" / f).read_bytes() == (tmp_path / "2" / f).read_bytes()
    # --workers says it on the command line (a user tried it as simulate has it, and was offered --force)
    p = cli("generate", "--players", 2, "--radius", 4, "--difficulty", "easy", "--margin", 0.05, "--seed", 2,
            "--out", tmp_path / "flag", "--workers", 2, env={"TERRAGEN_WORKERS": "1"})
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "flag" / "board.json").read_bytes() == (tmp_path / "1" / "board.json").read_bytes()
    p = cli("generate", "--players", 2, "--workers", 10_000, "--out", tmp_path / "many")
    assert p.returncode == 2 and "--workers must be 0" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "many").exists()


def test_spec_file_and_exit_codes(cli, tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('players = 2\nplacement = "opposite"\ncost_band = [0, 8]\n')
    p = cli("generate", "--spec", spec, "--out", tmp_path / "x")
    assert p.returncode == 3 and "cost_band" in p.stderr and "Traceback" not in p.stderr
    assert not (tmp_path / "x").exists()
    p = cli("generate", "--players", 9, "--out", tmp_path / "y")
    assert p.returncode == 2 and "players" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    p = cli("generate", "--difficulty", "impossible", "--out", tmp_path / "y")
    assert p.returncode == 2 and "difficulty" in p.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("players = [\n")
    p = cli("generate", "--spec", bad)
    assert p.returncode == 2 and "TOML" in p.stderr


def test_tiny_time_limit_gives_exit_4_or_a_valid_board(cli, tmp_path):
    out = tmp_path / "t"
    p = cli("generate", "--players", 6, "--difficulty", "brutal", "--time-limit", "0.05", "--out", out)
    assert p.returncode in (0, 4), p.stderr
    if p.returncode == 4:
        assert "time" in p.stderr and not out.exists()
    else:
        assert cli("validate", out / "board.json").returncode == 0


def test_a_time_limit_too_short_for_any_attempt_asks_only_for_a_longer_limit(cli, tmp_path):
    """With no attempt made, the line listed every band of the spec to widen ("(0 attempts); try a
    wider turns_band ..."), though nothing was learnt of the spec: only more time can help."""
    p = cli("generate", "--players", 2, "--difficulty", "hard", "--time-limit", "0.001", "--out", tmp_path / "t")
    line = p.stderr.strip()
    assert p.returncode == 4 and len(line.splitlines()) == 1, p.stderr
    assert "ran out before a first attempt could start" in line and line.endswith("try a longer --time-limit")
    assert "turns_band" not in line and not (tmp_path / "t").exists()


def test_example_spec_file_generates(cli, tmp_path):
    from pathlib import Path
    example = Path(__file__).resolve().parents[3] / "terragen" / "data" / "terrain" / "specs" / "example.toml"
    p = cli("generate", "--spec", example, "--seed", 1, "--out", tmp_path / "e", "--no-balance")
    assert p.returncode == 0, p.stderr
    # the showcase spec builds a symmetric board (its pin, which turned the symmetry off and made the
    # board end best effort, NOT BALANCED, is shown commented out)
    assert json.loads((tmp_path / "e" / "board.json").read_text())["meta"]["symmetry"] != "none"


def test_progress_goes_to_stderr_only_when_asked(cli, tmp_path):
    p = cli("generate", "--players", 2, "--difficulty", "easy", "--no-progress", "--out", tmp_path / "p", "--no-balance")
    assert p.returncode == 0 and p.stderr == ""


def test_radius_6_uses_the_extended_inventory(cli, tmp_path):
    p = cli("generate", "--players", 2, "--radius", 6, "--difficulty", "easy", "--seed", 1, "--out", tmp_path / "r6",
            "--no-balance")
    assert p.returncode == 0, p.stderr
    data = json.loads((tmp_path / "r6" / "board.json").read_text())
    assert len(data["cells"]) == 127 and data["meta"]["spec"]["inventory"] == "extended"


def test_the_kit_hint_comes_only_for_a_kit_other_than_the_default(cli, tmp_path):
    """A spec naming the boxed set itself ("standard", as the shipped example does) was told to print
    the default kit by name."""
    spec = tmp_path / "s.toml"
    spec.write_text('players = 2\ndifficulty = "easy"\ninventory = "standard"\n')
    p = cli("generate", "--spec", spec, "--seed", 2, "--out", tmp_path / "s", "--no-balance")
    assert p.returncode == 0 and "to print a kit" not in p.stdout, p.stdout
    p = cli("generate", "--players", 2, "--radius", 4, "--difficulty", "easy", "--seed", 2, "--out", tmp_path / "r4",
            "--no-balance")
    assert "to print a kit with its board and pieces: terragen kit terrain --radius 4" in p.stdout


def test_partial_set_spec_uses_its_inventory(cli, tmp_path):
    from pathlib import Path
    spec = Path(__file__).resolve().parents[3] / "terragen" / "data" / "terrain" / "specs" / "partial-set-radius4.toml"
    p = cli("generate", "--spec", spec, "--seed", 2, "--out", tmp_path / "ps", "--no-balance", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    data = json.loads((tmp_path / "ps" / "board.json").read_text())
    assert len(data["cells"]) == 61 and max(c["level"] for c in data["cells"]) <= 7


def test_balanced_board_and_its_record_replay_with_terragen_simulate(cli, tmp_path):
    out = tmp_path / "g"
    p = cli("generate", "--players", 2, "--radius", 4, "--difficulty", "easy", "--seed", 2, "--margin", 0.05,
            "--out", out)
    assert p.returncode == 0, p.stderr
    assert "balance: BALANCED for greedy players" in p.stdout and "solitary players" in p.stdout
    # experts were not simulated: on two seats the symmetry makes them even, and the summary says so
    assert "expert players not simulated; every seat is an image of every other" in p.stdout
    bal = json.loads((out / "board.json").read_text())["meta"]["balance"]
    check = bal["verification"][0]
    assert bal["margin"] == 0.05 and check["verdict"] == "BALANCED"
    # anyone can replay the generator's final check from what the board records
    again = cli("simulate", out / "board.json", "--games", check["games"], "--seed", check["seed"],
                "--policy", check["policy"], "--json")
    rates = [s["win_rate"] for s in json.loads(again.stdout)["seats"]]
    assert rates == check["win_rates"]
    _summary_says_when_experts_were_not_checked(out / "board.json")


def _summary_says_when_experts_were_not_checked(board) -> None:
    """A board whose seats are not all images of each other (here the 2-seat board with its
    symmetry taken out of its record) says plainly that experts were not checked, and how to;
    a board whose record has the experts' check says nothing more."""
    from terragen.terrain.generate.report import generation_report as summary
    from terragen.terrain.analysis import analyse
    from terragen.terrain.files import load_layout
    from terragen.terrain.generate.spec import Spec

    layout = load_layout(str(board))
    assert any("expert players not simulated" in line for line in summary(layout, analyse(layout), Spec(players=2)))
    layout.extra["meta"]["symmetry"] = "none"
    layout.extra["meta"]["seat_classes"] = [[0], [1]]
    lines = summary(layout, analyse(layout), Spec(players=2))
    assert any("expert players (who turn pieces against a leader close to winning) not checked (add --check-experts" in line
               for line in lines)
    checks = layout.extra["meta"]["balance"]["verification"]
    assert not any("quick look" in line for line in lines)
    # a board of two classes the experts' glance looked at says what it saw, and how sure that is
    glance = {"games": 600, "seed": 1234567, "policy": "expert", "win_rates": [0.27, 0.23, 0.27, 0.23],
              "pooled_worst_deviation": 0.02, "pooled_limit": 0.025, "verdict": "NOT PLAINLY OFF"}
    layout.extra["meta"]["balance"]["expert_glance"] = glance
    lines = summary(layout, analyse(layout), Spec(players=2))
    said = [line for line in lines if "expert players" in line]
    assert len(said) == 1 and "only glanced at: 600 fresh games" in said[0] and "2.00 points" in said[0]
    assert "--check-experts" in said[0] and "NOT BALANCED" not in said[0]
    # over the margin but within the glance's noise: said as likely unfair, with the bar it applied
    # ("3.58 points ... refuses only a board plainly over 2.5" read as a contradiction)
    glance.update(pooled_worst_deviation=0.0358, refused_above=0.0371)
    said = [line for line in summary(layout, analyse(layout), Spec(players=2)) if "expert players" in line]
    assert len(said) == 1 and "3.58 points" in said[0] and "likely NOT BALANCED for experts" in said[0]
    assert "refuses only above 3.7" in said[0]
    # what to do comes first, in plain words, before the glance's figures
    assert said[0].index("add --check-experts (slower)") < said[0].index("3.58 points")
    glance.update(pooled_worst_deviation=0.06, verdict="PLAINLY OFF")  # kept only because the search was late
    said = [line for line in summary(layout, analyse(layout), Spec(players=2)) if "expert players" in line]
    assert len(said) == 1 and "NOT BALANCED for expert players" in said[0] and "6.00 points" in said[0]
    # written at once (five seats): it says the search stopped looking, not that nothing else passed
    assert "plainly over 2.5" in said[0] and "spent its share of work" in said[0]
    assert "no board the search found" not in said[0]
    glance["chosen_from"] = 1  # set aside while the search went on, and nothing passed after it
    said = [line for line in summary(layout, analyse(layout), Spec(players=2)) if "expert players" in line]
    assert "no board the search found in time passed the glance, so it wrote a board balanced" in said[0]
    glance["chosen_from"] = 3  # the search set three such boards aside and wrote the fairest
    said = [line for line in summary(layout, analyse(layout), Spec(players=2)) if "expert players" in line]
    assert "the fairest for experts of the 3 boards balanced for the others" in said[0]
    del glance["chosen_from"]
    # a six-seat glance refuses any board read over the margin: its bar is the margin itself
    glance.update(pooled_worst_deviation=0.02, refused_above=0.025, verdict="NOT PLAINLY OFF")
    said = [line for line in summary(layout, analyse(layout), Spec(players=2)) if "expert players" in line]
    assert len(said) == 1 and "it refuses any board read over 2.5" in said[0] and "twice its noise" not in said[0]
    # held back early as near the margin, and written as no board read closer came in time
    glance.update(pooled_worst_deviation=0.022, held_above=0.02, held_from=2)
    said = [line for line in summary(layout, analyse(layout), Spec(players=2)) if "expert players" in line]
    assert len(said) == 1 and "2.20 points" in said[0] and "NOT BALANCED" not in said[0]
    assert "held it back for one read within 2.0 and found none in time" in said[0]
    del glance["held_above"], glance["held_from"]
    glance.update(pooled_worst_deviation=0.03, verdict="PLAINLY OFF")
    said = [line for line in summary(layout, analyse(layout), Spec(players=2)) if "expert players" in line]
    assert len(said) == 1 and "3.00 points" in said[0] and "over 2.5" in said[0] and "plainly" not in said[0]
    # a best-effort board chosen with the glance: what it saw of it, and that it refused nothing
    layout.extra["meta"]["balance"]["expert_glance"] = {"games": 600, "seed": 99, "policy": "expert",
                                                        "pooled_worst_deviation": 0.011, "chosen_among": 3}
    said = [line for line in summary(layout, analyse(layout), Spec(players=2)) if "expert players" in line]
    assert len(said) == 1 and "to choose this board among the 3 fairest" in said[0] and "1.10 points" in said[0]
    assert "NOT BALANCED" not in said[0] and "--check-experts" in said[0]
    del layout.extra["meta"]["balance"]["expert_glance"]
    checks.append(dict(checks[0], policy="expert"))
    assert not any("not checked" in line or "glanced" in line for line in summary(layout, analyse(layout), Spec(players=2)))
    # a best-effort board says what that means: it missed the promise, which simulate may still pass
    layout.extra["meta"]["balance"].update(best_effort=True, ended_by="work budget")
    checks[0].update(verdict="NOT BALANCED", simulate_odds_bound=0.01, simulate_odds_needed=0.99)
    lines = summary(layout, analyse(layout), Spec(players=2))
    assert any("odds of at least 1% (a cautious bound" in line for line in lines)
    checks[0].update(simulate_odds_bound=0.9996)  # a lower bound is rounded down: "at least 100%" read oddly
    lines = summary(layout, analyse(layout), Spec(players=2))
    assert any("odds of at least 99.9% (a cautious bound" in line for line in lines)
    if len({c["games"] for c in checks}) == 1:  # checks of as many games need no word on their sizes
        assert not any("different numbers of games" in line for line in lines)
    checks[-1]["games"] = checks[0]["games"] * 2  # 4000 beside 9600 read as a slip: said why
    assert any("different numbers of games" in line for line in summary(layout, analyse(layout), Spec(players=2)))
    checks[-1]["games"] = checks[0]["games"]
    checks[0].update(simulate_odds_bound=0.0004)  # "odds of at least 0%" told a user nothing
    lines = summary(layout, analyse(layout), Spec(players=2))
    assert not any("at least 0%" in line for line in lines)
    assert any("no odds that a default 'terragen simulate' run says BALANCED can be promised" in line for line in lines)
    checks[0].update(simulate_odds_bound=0.9996)
    assert any("simulate may still call it BALANCED" in line for line in lines)
    del layout.extra["meta"]["balance"]["best_effort"]
    checks[0].update(verdict="BALANCED")
    # a check on fewer games than a balance check needs (a small --balance-games) is called a quick look
    checks[0]["games"] = 200
    assert any("quick look only: 200 fresh games" in line for line in summary(layout, analyse(layout), Spec(players=2)))


def test_the_line_on_unchecked_experts_gives_the_odds_for_the_boards_seat_count():
    from terragen.terrain.generate.report import _experts_line

    assert "four five-seat boards in five" in _experts_line(5, [[s] for s in range(5)])
    assert "4- and 6-seat" in _experts_line(4, [[0, 2], [1, 3]]) and "4- and 6-seat" in _experts_line(6, [[0, 2, 4], [1, 3, 5]])
    for n in (2, 3):  # no figure was measured for free-form boards of 2 or 3 seats: none is quoted
        line = _experts_line(n, [[s] for s in range(n)])
        assert "--check-experts" in line and "unfair" not in line


def test_old_gate_flags_still_work(cli, tmp_path):
    p = cli("generate", "--players", 2, "--difficulty", "easy", "--seed", 1, "--no-gate", "--out", tmp_path / "n")
    assert p.returncode == 0 and "balance: not simulated" in p.stdout
    assert "balance" not in json.loads((tmp_path / "n" / "board.json").read_text())["meta"]


def test_check_experts_adds_their_verdict_and_needs_the_balance_check(cli, tmp_path):
    out = tmp_path / "e"
    p = cli("generate", "--players", 2, "--radius", 4, "--difficulty", "easy", "--seed", 2, "--margin", 0.05,
            "--check-experts", "--out", out)
    assert p.returncode == 0, p.stderr
    assert "balance: BALANCED for expert players" in p.stdout
    checks = json.loads((out / "board.json").read_text())["meta"]["balance"]["verification"]
    assert [c["policy"] for c in checks] == ["greedy", "solitary", "expert"]
    p = cli("generate", "--players", 2, "--check-experts", "--no-balance", "--out", tmp_path / "n")
    assert p.returncode == 2 and "--check-experts" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "n").exists()
    # --strict-balance promises a verified balance, which --no-balance never checks
    p = cli("generate", "--players", 2, "--strict-balance", "--no-balance", "--out", tmp_path / "s")
    assert p.returncode == 2 and "--strict-balance" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "s").exists()



def test_four_seat_checks_played_as_twin_games_replay_with_terragen_simulate(cli, tmp_path):
    out = tmp_path / "g4"
    p = cli("generate", "--players", 4, "--difficulty", "easy", "--seed", 3, "--out", out)
    assert p.returncode == 0, p.stderr
    checks = json.loads((out / "board.json").read_text())["meta"]["balance"]["verification"]
    for check in checks:
        # the summary says how the check was played, and the record is enough to play it again
        assert f"on {check['games']} fresh games" in p.stdout
        assert f"  seed {check['seed']}, twin dice {check['twin_dice']}" in p.stdout
        again = cli("simulate", out / "board.json", "--games", check["games"], "--seed", check["seed"],
                    "--policy", check["policy"], "--twin-dice", check["twin_dice"], "--json")
        assert [s["win_rate"] for s in json.loads(again.stdout)["seats"]] == check["win_rates"]


def test_a_board_written_not_balanced_says_so_on_stderr_with_what_to_try(monkeypatch, capsys, tmp_path):
    # a best-effort board the search could not balance: the summary's verdict, and one warning line
    import terragen.terrain.generate as generator
    from terragen.cli import main
    from terragen.terrain.generate.spec import spec_from_dict

    layout = generator.generate_board(spec_from_dict({"players": 3, "difficulty": "easy"}), 3)
    record = layout.extra["meta"]["balance"]
    for check in record["verification"]:
        check["verdict"] = "NOT BALANCED"
    record.update({"best_effort": True, "ended_by": "work budget", "verdict": "NOT BALANCED"})
    monkeypatch.setattr(generator, "generate_board", lambda *args, **kwargs: layout)
    try:
        main(["generate", "--players", "3", "--difficulty", "easy", "--seed", "3", "--out", str(tmp_path / "b")])
    except SystemExit as stop:
        assert stop.code in (0, None)
    out, err = capsys.readouterr()
    assert "balance: NOT BALANCED (best effort: the search's work budget was spent while tuning)" in " ".join(out.split())
    warning = err.strip().splitlines()
    assert len(warning) == 1 and "this board is NOT BALANCED" in warning[0]
    assert warning[0].startswith("terragen: warning: ")  # the shape of every warning, as of every error
    assert "try another --seed, a longer --time-limit or a wider --margin" in warning[0]


def test_the_summary_fits_80_columns_with_three_destinations_a_seat(cli, tmp_path):
    """Three destinations on one row took the heading and rule to 86 columns."""
    p = cli("generate", "--players", 6, "--destinations", 3, "--no-balance", "--seed", 5, "--out", tmp_path / "g")
    assert p.returncode == 0, p.stderr
    lines = [line for line in p.stdout.splitlines() if str(tmp_path) not in line]  # the lines naming files
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    assert sum(1 for line in lines if line.lstrip().startswith("(")) == 12  # two more destinations for each seat


def test_the_not_balanced_warning_says_what_ended_the_search_and_what_to_try():
    from terragen.terrain.generate.report import not_balanced_warning
    from terragen.terrain.layout import Layout, Player

    def board(seats: int, record: dict) -> Layout:
        players = [Player(seat=s, corner=s, destinations=[]) for s in range(seats)]
        return Layout(radius=5, cells=[], players=players, extra={"meta": {"balance": record}})

    assert not_balanced_warning(board(4, {"verdict": "BALANCED"})) is None
    four = not_balanced_warning(board(4, {"verdict": "NOT BALANCED", "ended_by": "work budget"}))
    assert four.startswith("the search's work budget") and "NOT BALANCED (see the balance lines)" in four
    assert "a longer --time-limit" in four and "five seats" not in four
    five = not_balanced_warning(board(5, {"verdict": "NOT BALANCED", "ended_by": "time limit"}), as_json=True)
    assert five.startswith("the time ran out") and "the balance record in the JSON" in five
    assert "another --seed (five seats are the hardest" in five and "seldom helps" in five
    # a quick look the user asked for: its NOT BALANCED may be noise, and other seeds are no answer
    quick = not_balanced_warning(board(2, {"verdict": "NOT BALANCED", "ended_by": "work budget",
                                           "verification": [{"policy": "greedy", "games": 100}]}))
    assert quick.startswith("the balance check was a quick look of 100 games") and "noise" in quick
    assert "--seed" not in quick and "terragen simulate" in quick
    # cut short by the time limit, not asked for: the usual advice
    cut = not_balanced_warning(board(2, {"verdict": "NOT BALANCED", "ended_by": "time limit", "time_limited": True,
                                         "verification": [{"policy": "greedy", "games": 600}]}))
    assert cut.startswith("the time ran out")
    # within the margin, short of the promise: not called unbalanced, and simulate named as the judge
    short = not_balanced_warning(board(5, {"verdict": "UNVERIFIED", "ended_by": "work budget"}))
    assert "UNVERIFIED" in short and "NOT BALANCED" not in short and "'terragen simulate' on the board" in short
    assert "for a verified board, try another --seed" in short


def test_generate_says_how_to_print_the_board_it_wrote(cli, tmp_path):
    """A new user looking for what to print after generate was not told the build sheet is
    render's, nor that a radius-3 board needs its own kit board."""
    p = cli("generate", "--players", 2, "--radius", 3, "--no-balance", "--seed", 5, "--out", tmp_path / "my board")
    assert p.returncode == 0, p.stderr
    said = p.stdout.splitlines()
    assert f"to print its build sheet: terragen render '{tmp_path}/my board/board.json'" in said
    assert "to print a kit with its board and pieces: terragen kit terrain --radius 3" in said
    p = cli("generate", "--players", 2, "--no-balance", "--seed", 5, "--out", tmp_path / "r5")
    assert not [line for line in p.stdout.splitlines() if "kit terrain" in line]


def test_an_out_named_like_a_file_is_said_to_be_a_folder(cli, tmp_path):
    """--out myboard.json made a folder of that name without a word; users looked for a file. A warning
    came first; the name is now refused before any work, so no folder of that name is left to find."""
    p = cli("generate", "--players", 2, "--no-balance", "--seed", 5, "--out", tmp_path / "myboard.json")
    assert p.returncode == 2 and "looks like a file name, but --out names a folder" in p.stderr, p.stderr
    assert not (tmp_path / "myboard.json").exists()
    (tmp_path / "boards.json").mkdir()  # a folder the user made with that name is theirs to use
    p = cli("generate", "--players", 2, "--no-balance", "--seed", 5, "--out", tmp_path / "boards.json")
    assert p.returncode == 0 and (tmp_path / "boards.json" / "board.json").is_file(), p.stderr
    p = cli("generate", "--players", 2, "--no-balance", "--seed", 5, "--out", tmp_path / "plain")
    assert p.returncode == 0 and "names a folder" not in p.stderr


def test_flags_that_no_balance_makes_idle_are_named(cli, tmp_path):
    """--no-balance --margin 0.1 ran without a word, as if the margin had been kept."""
    p = cli("generate", "--players", 2, "--radius", 3, "--no-balance", "--margin", 0.1, "--no-expert-glance",
            "--out", tmp_path / "a")
    assert p.returncode == 0, p.stderr
    assert "warning: --margin and --no-expert-glance do nothing with --no-balance" in p.stderr
    p = cli("generate", "--players", 2, "--radius", 3, "--no-balance", "--out", tmp_path / "b")
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr

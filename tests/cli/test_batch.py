import csv
import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from terragen.terrain.puzzles.batch import run_batch
from terragen.cli import main
from terragen.errors import InputError
from terragen.terrain.formats_json import layout_from_data

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "terragen", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)


def _files(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def _pages(pdf: Path) -> int:
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in out.splitlines() if line.startswith("Pages:")))


def test_mix_batch_writes_scenarios_manifest_and_booklet(tmp_path):
    out = tmp_path / "b"
    summary = run_batch(5, "mix", "easy", 3, out, workers=1)
    assert summary["count"] == 5
    manifest = json.loads((out / "manifest.json").read_text())
    assert [r["index"] for r in manifest["scenarios"]] == list(range(5))
    assert [r["kind"] for r in manifest["scenarios"]] == ["route", "rotation", "dice", "route", "rotation"]
    csv_lines = (out / "manifest.csv").read_text().splitlines()
    assert csv_lines[0].startswith("index,id,kind,difficulty,grade") and len(csv_lines) == 6
    for row in manifest["scenarios"]:
        data = json.loads((out / row["json"]).read_text())
        assert data["solution"] and data["metrics"]["grade"] == row["grade"]
        layout = layout_from_data(data["layout"])
        assert len(layout.cells) == 37 and layout.players[0].destinations[0].hex == tuple(data["puzzle"]["goal"])
        svg = ET.fromstring((out / row["svg"]).read_text())
        assert svg.tag.endswith("svg") and data["question"][:20] in "".join(svg.itertext())
    pdf = out / "booklet.pdf"
    # a page on how to solve them, then 5 puzzles one to a page, then 5 answer pages
    assert _pages(pdf) == 11
    png = tmp_path / "png"
    png.mkdir()
    subprocess.run(["pdftoppm", "-png", "-r", "20", str(pdf), str(png / "p")], check=True)
    assert len(list(png.glob("p-*.png"))) == 11


def test_same_seed_same_files_whatever_the_workers(tmp_path):
    run_batch(6, "mix", "medium", 9, tmp_path / "one", workers=1)
    run_batch(6, "mix", "medium", 9, tmp_path / "two", workers=2)
    assert _files(tmp_path / "one") == _files(tmp_path / "two")
    run_batch(6, "mix", "medium", 10, tmp_path / "other", workers=1)
    assert _files(tmp_path / "one") != _files(tmp_path / "other")


def test_interrupt_leaves_consistent_manifest_and_resume_finishes_identically(tmp_path):
    out = tmp_path / "b"
    seen = []

    def stop_after_three(index):
        seen.append(index)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(7, "route", "easy", 4, out, workers=2, on_result=stop_after_three)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["done"] == 3 == len(manifest["scenarios"])
    for row in manifest["scenarios"]:
        json.loads((out / row["json"]).read_text())  # complete, parseable
    assert not (out / "booklet.pdf").exists()
    summary = run_batch(7, "route", "easy", 4, out, workers=2, resume=True)
    assert summary["computed"] == 4 and summary["count"] == 7
    run_batch(7, "route", "easy", 4, tmp_path / "fresh", workers=1)
    assert _files(out) == _files(tmp_path / "fresh")


_BATCH_40 = ["batch", "--count", "40", "--kind", "rotation", "--difficulty", "medium", "--seed", "2", "--workers", "2"]


def _started_batch(out: Path) -> subprocess.Popen:
    """A 40-scenario batch on two workers, once its first manifest is written."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "terragen", *_BATCH_40, "--out", str(out), "--no-progress"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 20
    while time.time() < deadline and not (out / "manifest.json").exists():
        time.sleep(0.05)
    return proc


def _resume_finishes(out: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    rc = subprocess.run([sys.executable, "-m", "terragen", *_BATCH_40, "--out", str(out), "--resume", "--no-progress"],
                        cwd=ROOT, env=env, capture_output=True, text=True)
    assert rc.returncode == 0, rc.stderr
    assert json.loads((out / "manifest.json").read_text())["done"] == 40


def test_real_sigint_then_resume(tmp_path):
    out = tmp_path / "b"
    proc = _started_batch(out)
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    if proc.returncode == 0:
        pytest.skip("the batch finished before the signal arrived")
    assert proc.returncode == 130
    assert "Traceback" not in err and "--resume" in err
    manifest = json.loads((out / "manifest.json").read_text())
    done = manifest["done"]
    assert 0 < done < 40
    for row in manifest["scenarios"]:
        json.loads((out / row["json"]).read_text())
    _resume_finishes(out)


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc to find the workers")
def test_a_worker_killed_from_outside_stops_the_batch_with_one_line_then_resume(tmp_path):
    out = tmp_path / "b"
    proc = _started_batch(out)
    workers = _children(proc.pid)
    if proc.poll() is not None or not workers:
        proc.kill()
        pytest.skip("the batch finished before a worker could be killed")
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the batch finished before the worker was killed")
    assert proc.returncode == 70, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "worker process ended" in err and "--resume" in err
    _resume_finishes(out)


@pytest.mark.parametrize("argv,msg", [
    (["--kind", "maze"], "--kind"),
    (["--difficulty", "insane"], "--difficulty"),
    (["--count", "0"], "--count must be 1–100000 (got 0)"),
    (["--workers", "-1"], "--workers must be 0"),
    (["--scheduler", "tcp://x:1"], "--scheduler needs --backend dask"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, argv, msg):
    with pytest.raises(SystemExit) as exc:
        main(["batch", "--out", str(tmp_path / "x"), "--no-progress"] + argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert msg in err and len(err.strip().splitlines()) == 1


def test_existing_batch_needs_resume_and_matching_settings(tmp_path, capsys):
    out = tmp_path / "b"
    run_batch(2, "route", "easy", 1, out, workers=1, booklet=False)
    with pytest.raises(SystemExit) as exc:
        main(["batch", "--count", "2", "--kind", "route", "--difficulty", "easy", "--seed", "1", "--out", str(out)])
    assert exc.value.code == 2 and "--resume" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["batch", "--count", "2", "--kind", "route", "--difficulty", "easy", "--seed", "2", "--out", str(out),
              "--resume"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "different settings (--seed 1 there, 2 now)" in err and "{" not in err


def test_dask_backend_on_a_local_cluster_gives_the_same_files(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
        run_batch(4, "mix", "easy", 5, tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address)
    run_batch(4, "mix", "easy", 5, tmp_path / "local", workers=1)
    assert _files(tmp_path / "dask") == _files(tmp_path / "local")


def test_resume_can_grow_the_count(tmp_path):
    out = tmp_path / "b"
    run_batch(3, "dice", "easy", 8, out, workers=1)
    summary = run_batch(5, "dice", "easy", 8, out, workers=2, resume=True)
    assert summary["computed"] == 2
    run_batch(5, "dice", "easy", 8, tmp_path / "fresh", workers=1)
    assert _files(out) == _files(tmp_path / "fresh")


def test_answer_key_text_names_the_solution():
    from terragen.render.kits.terrain.booklet import answer_text
    from terragen.terrain.puzzles import make_puzzle

    dice = make_puzzle("dice", "medium", 1, 0).to_data()
    text = answer_text(dice)
    assert text.count("Turn") + text.count("turn") == len(dice["puzzle"]["rolls"])
    for q, r in dice["solution"]["ends"]:
        assert f"({q},{r})" in text
    rot = make_puzzle("rotation", "easy", 1, 0).to_data()
    t = rot["solution"]["turns"][0]
    assert f"{t['piece']} at ({t['q']},{t['r']})" in answer_text(rot)


def test_throttled_manifest_is_still_complete_after_interrupt(tmp_path, monkeypatch):
    import terragen.terrain.puzzles.batch as batch_mod

    monkeypatch.setattr(batch_mod, "MANIFEST_GROWTH", 10.0)  # never rewrite on growth
    monkeypatch.setattr(batch_mod, "MANIFEST_SECONDS", 1e9)  # nor on time: only on the way out
    out = tmp_path / "b"
    seen = []

    def stop_after_four(index):
        seen.append(index)
        if len(seen) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(6, "route", "medium", 2, out, workers=1, on_result=stop_after_four)
    manifest = json.loads((out / "manifest.json").read_text())
    assert [r["index"] for r in manifest["scenarios"]] == seen == [0, 1, 2, 3]


def test_resume_removes_stray_temporaries_and_rewrites_both_manifests(tmp_path):
    out = tmp_path / "b"
    run_batch(4, "route", "easy", 1, out, workers=1, booklet=False)
    (out / "scenarios" / ".0000-route.json.k2j3.tmp").write_text("half")
    (out / ".manifest.csv.x9.tmp").write_text("half")
    (out / "manifest.csv").write_text("index,id\n")  # a row behind, as after SIGKILL between renames
    run_batch(4, "route", "easy", 1, out, workers=1, booklet=False, resume=True)
    assert not list(out.rglob("*.tmp"))
    rows = list(csv.DictReader((out / "manifest.csv").open()))
    manifest = json.loads((out / "manifest.json").read_text())
    assert [int(r["index"]) for r in rows] == [s["index"] for s in manifest["scenarios"]] == [0, 1, 2, 3]


def test_resume_with_a_smaller_count_is_refused(tmp_path):
    out = tmp_path / "b"
    run_batch(6, "route", "easy", 1, out, workers=1, booklet=False)
    with pytest.raises(InputError, match="--count 6 or more"):
        run_batch(3, "route", "easy", 1, out, workers=1, resume=True)
    summary = run_batch(8, "route", "easy", 1, out, workers=1, resume=True)
    assert summary["count"] == 8 and summary["computed"] == 2


def test_two_batches_cannot_share_a_folder(tmp_path):
    from terragen.terrain.puzzles.batch import lock_folder
    from terragen.errors import OutputError

    out = tmp_path / "b"
    out.mkdir()
    held = lock_folder(out)  # stands for a batch that is still running
    try:
        p = run_cli("batch", "--count", "2", "--kind", "route", "--seed", "9", "--out", out, "--no-progress")
        assert p.returncode == 73 and "another terragen batch" in p.stderr
        assert len(p.stderr.strip().splitlines()) == 1
        with pytest.raises(OutputError):
            run_batch(2, "route", "easy", 9, out, workers=1)
    finally:
        os.close(held)
    assert list(out.iterdir()) == []


def test_workers_die_quietly_when_the_batch_is_killed(tmp_path):
    out = tmp_path / "b"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "terragen", "batch", "--count", "60", "--kind", "rotation",
                             "--difficulty", "medium", "--seed", "4", "--workers", "2", "--out", str(out),
                             "--no-progress"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.time() + 20
    while time.time() < deadline and not list(out.glob("scenarios/*.json")):
        time.sleep(0.05)
    time.sleep(0.3)
    proc.kill()
    _, err = proc.communicate(timeout=20)  # EOF only once every worker has closed the pipe too
    assert "Traceback" not in err and "BrokenPipeError" not in err
    if (out / "manifest.json").exists():
        # a SIGKILL exactly between the two renames can leave the CSV one rewrite behind the JSON
        # (docs/batch.md): never ahead of it, every listed scenario complete, and the next run agrees
        listed = json.loads((out / "manifest.json").read_text())["scenarios"]
        rows = [int(r["index"]) for r in csv.DictReader((out / "manifest.csv").open())]
        assert set(rows) <= {s["index"] for s in listed}
        assert all((out / s[k]).is_file() for s in listed for k in ("json", "svg"))
        p = run_cli("batch", "--count", "60", "--kind", "rotation", "--difficulty", "medium", "--seed", "4",
                    "--out", out, "--resume", "--no-progress")
        assert p.returncode == 0, p.stderr
        rows = [int(r["index"]) for r in csv.DictReader((out / "manifest.csv").open())]
        assert rows == [s["index"] for s in json.loads((out / "manifest.json").read_text())["scenarios"]]
        assert rows == list(range(60))


def test_booklet_pages_load_scenarios_only_as_they_are_drawn():
    from terragen.render.kits.terrain.booklet import booklet_pages
    from terragen.terrain.puzzles import make_puzzle

    data = [make_puzzle("route", "easy", 1, i).to_data() for i in range(6)]
    loaded = []

    def load(i):
        loaded.append(i)
        return data[i]

    pages = booklet_pages(6, load)
    next(pages)
    assert loaded == []  # the page on how to solve them needs no scenario
    next(pages)
    assert loaded == [0]  # the first puzzle's page needs the first scenario and nothing more
    rest = list(pages)
    assert len(rest) == 11 and sorted(set(loaded)) == list(range(6))


@pytest.mark.parametrize("name", ["booklet.pdf", "manifest.csv", "scenarios/00001-rotation.json"])
def test_files_of_a_batchs_names_in_a_folder_without_a_batch_need_force(tmp_path, name):
    """No command replaces an existing file without --force; a folder with no manifest holds no
    batch to resume, but its files may still be someone's."""
    out = tmp_path / "mine"
    (out / name).parent.mkdir(parents=True, exist_ok=True)
    (out / name).write_text("mine\n")
    with pytest.raises(InputError, match="exists already.*--force"):
        run_batch(2, "mix", "easy", 1, out, workers=1)
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == [Path(name).name]
    assert (out / name).read_text() == "mine\n"
    run_batch(2, "mix", "easy", 1, out, workers=1, force=True)
    assert (out / name).read_bytes() != b"mine\n"


def test_a_file_in_the_way_of_the_scenarios_folder_fails_before_anything_is_written(tmp_path):
    from terragen.errors import OutputError

    out = tmp_path / "b"
    out.mkdir()
    (out / "scenarios").write_text("")
    with pytest.raises(OutputError, match="is a file, not a folder"):
        run_batch(2, "route", "easy", 1, out, workers=1)
    assert [p.name for p in out.iterdir()] == ["scenarios"]


def test_worker_checks_run_while_results_keep_coming(monkeypatch):
    """A killed worker is replaced by the pool and the others' results keep coming, so the wait
    for a result never timed out: the batch ran on for a minute before noticing."""
    import types

    import terragen.terrain.puzzles.batch as batch_mod
    from terragen.process_pool import WorkerDied

    class Flowing:  # results always ready at once: the wait for one never times out
        def __init__(self, tasks):
            self.items = iter(range(len(tasks)))

        def next(self, timeout=None):
            return next(self.items)

    pool = types.SimpleNamespace(imap_unordered=lambda fn, tasks, chunksize=1: Flowing(tasks))
    dead_worker = types.SimpleNamespace(exitcode=-9)
    monkeypatch.setattr("terragen.process_pool.start_pool", lambda n, method: (pool, [dead_worker]))
    monkeypatch.setattr("terragen.process_pool.end_pool", lambda pool, procs: None)
    monkeypatch.setattr("terragen.process_pool.POLL", 0.0)  # every result comes "half a second later"
    tasks = [("route", "easy", 3, i) for i in range(50)]
    got = []
    with pytest.raises(WorkerDied):
        for item in batch_mod.run_local(tasks, 2):
            got.append(item)
    assert len(got) < 3


def test_force_removes_scenarios_a_killed_run_wrote_after_its_last_manifest(tmp_path):
    out = tmp_path / "b"
    run_batch(3, "route", "easy", 4, out, workers=1, booklet=False)
    stray = out / "scenarios" / "00250-route.json"  # written after the last manifest, then SIGKILL
    stray.write_text("{}")
    (out / "scenarios" / "notes.txt").write_text("mine")  # not a scenario's name: kept
    run_batch(2, "dice", "easy", 1, out, workers=1, booklet=False, force=True)
    names = sorted(p.name for p in (out / "scenarios").iterdir())
    assert names == ["00000-dice.json", "00000-dice.svg", "00001-dice.json", "00001-dice.svg", "notes.txt"]


def test_force_never_deletes_a_file_an_edited_manifest_names_outside_scenarios(tmp_path):
    out = tmp_path / "b"
    run_batch(2, "route", "easy", 4, out, workers=1, booklet=False)
    notes = out / "notes.txt"
    notes.write_text("mine")
    data = json.loads((out / "manifest.json").read_text())
    data["scenarios"][0]["json"] = "notes.txt"
    (out / "manifest.json").write_text(json.dumps(data))
    run_batch(2, "route", "easy", 4, out, workers=1, booklet=False, force=True)
    assert notes.read_text() == "mine"


def test_resume_recomputes_a_damaged_scenario_or_row(tmp_path):
    out = tmp_path / "b"
    run_batch(4, "route", "easy", 2, out, workers=1)
    whole = _files(out)
    damaged = out / "scenarios" / "00002-route.json"
    damaged.write_text(damaged.read_text()[:100])
    data = json.loads((out / "manifest.json").read_text())
    del data["scenarios"][1]["grade"]  # an edited row: was an internal error (KeyError)
    (out / "manifest.json").write_text(json.dumps(data))
    summary = run_batch(4, "route", "easy", 2, out, workers=1, resume=True)
    assert summary["computed"] == 2
    assert _files(out) == whole


@pytest.mark.parametrize("damage", ["empty object", "cut board", "another scenario", "one level changed"])
def test_resume_recomputes_a_scenario_file_that_parses_but_is_not_the_one_written(tmp_path, damage):
    """'{}' or a board cut to five cells failed the booklet (exit 70); another scenario's file, or
    one edited by a hand, drew a wrong puzzle: each parsed as JSON, which was all --resume asked."""
    out = tmp_path / "b"
    run_batch(4, "route", "easy", 3, out, workers=1)
    whole = _files(out)
    target = out / "scenarios" / "00002-route.json"
    data = json.loads(target.read_text())
    if damage == "empty object":
        target.write_text("{}")
    elif damage == "cut board":
        data["layout"]["cells"] = data["layout"]["cells"][:5]
        target.write_text(json.dumps(data))
    elif damage == "another scenario":
        target.write_text((out / "scenarios" / "00003-route.json").read_text())
    else:
        data["layout"]["cells"][0]["level"] = 1 + data["layout"]["cells"][0]["level"] % 8
        target.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    summary = run_batch(4, "route", "easy", 3, out, workers=1, resume=True)
    assert summary["computed"] == 1
    assert _files(out) == whole


def test_a_growing_resume_removes_the_old_booklet_until_it_is_drawn_again(tmp_path, monkeypatch):
    out = tmp_path / "b"
    run_batch(2, "dice", "easy", 3, out, workers=1)
    assert (out / "booklet.pdf").is_file()

    def stop(index):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(4, "dice", "easy", 3, out, workers=1, resume=True, on_result=stop)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["batch"]["count"] == 4 and not (out / "booklet.pdf").exists()  # no booklet of 2 beside it
    run_batch(4, "dice", "easy", 3, out, workers=1, resume=True)
    assert _pages(out / "booklet.pdf") > 0


def test_a_run_that_produced_nothing_leaves_no_batch(tmp_path, monkeypatch):
    import terragen.terrain.puzzles.batch as batch_mod

    def nothing(tasks, workers):
        raise KeyboardInterrupt
        yield  # pragma: no cover

    monkeypatch.setattr(batch_mod, "run_local", nothing)
    out = tmp_path / "b"
    with pytest.raises(KeyboardInterrupt):
        run_batch(3, "route", "easy", 1, out, workers=1)
    assert not (out / "manifest.json").exists()
    monkeypatch.undo()
    run_batch(3, "route", "easy", 1, out, workers=1)  # the same command again: no --resume needed


def test_a_run_stopped_between_its_first_manifest_and_first_scenario_leaves_no_manifest(tmp_path, monkeypatch):
    """The manifest written just before the first scenario stayed behind, a batch of none."""
    import terragen.terrain.puzzles.batch as batch_mod

    real = batch_mod.write_manifest

    def then_stop(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(batch_mod, "write_manifest", then_stop)
    out = tmp_path / "b"
    with pytest.raises(KeyboardInterrupt):
        run_batch(3, "route", "easy", 1, out, workers=1)
    assert not (out / "manifest.json").exists() and not (out / "manifest.csv").exists()


def test_bad_scheduler_address_and_dash_folder_are_bad_usage(tmp_path, capsys):
    pytest.importorskip("distributed")
    for argv, msg in ((["--backend", "dask", "--scheduler", "garbage!!", "--out", str(tmp_path / "d")],
                       "not a Dask scheduler address"),
                      (["--out", "-"], "standard output")):
        with pytest.raises(SystemExit) as exc:
            main(["batch", "--count", "2", "--no-progress", *argv])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and msg in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "d" / "manifest.json").exists()


def _scenarios_done(out) -> int:
    """How many scenarios the batch in ``out`` lists as complete (0 while it has none, or its
    manifest is being replaced)."""
    from terragen.terrain.puzzles.batch import read_manifest

    try:
        return len((read_manifest(out) or {"scenarios": []})["scenarios"])
    except (InputError, OSError, ValueError):
        return 0


def test_ctrl_c_on_a_local_dask_cluster_is_one_line(tmp_path):
    """Ctrl-C reaches the whole process group; the cluster's processes printed their tracebacks."""
    pytest.importorskip("distributed")
    out = tmp_path / "dk"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "terragen", "batch", "--count", "3000", "--kind", "route",
                             "--difficulty", "hard", "--seed", "5", "--workers", "2", "--backend", "dask",
                             "--out", str(out), "--no-progress"], cwd=ROOT, env=env, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.time() + 60
    # interrupted once a scenario is complete: the manifest is written as the batch starts, and a batch
    # stopped before its first scenario removes its folder again (and rightly offers no --resume)
    while time.time() < deadline and not _scenarios_done(out):
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "--resume" in err


def test_the_booklet_comes_on_letter_paper_and_the_scenarios_stay_the_same(tmp_path):
    """Every booklet was A4 (docs/cli.md lists --paper among the shared options)."""
    import re

    for paper in ("a4", "letter"):
        run_batch(2, "mix", "easy", 3, tmp_path / paper, workers=1, paper=paper)
    sizes = {p: re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", (tmp_path / p / "booklet.pdf").read_bytes())[0]
             for p in ("a4", "letter")}
    assert [round(float(v)) for v in sizes["a4"]] == [595, 842] and [round(float(v)) for v in sizes["letter"]] == [612, 792]
    for f in (tmp_path / "a4" / "scenarios").iterdir():
        assert f.read_bytes() == (tmp_path / "letter" / "scenarios" / f.name).read_bytes()


def test_a_run_stopped_before_its_first_scenario_leaves_no_folder_it_made(tmp_path, monkeypatch):
    """A refused Dask scheduler or a Ctrl-C before the first scenario left empty folders behind
    (nest/a/b), which generate and kit never do; a folder that was there before stays."""
    import terragen.terrain.puzzles.batch_workers as workers_module

    def stopped(task):
        raise KeyboardInterrupt

    monkeypatch.setattr(workers_module, "build_scenario", stopped)
    with pytest.raises(KeyboardInterrupt):
        run_batch(3, "route", "easy", 1, tmp_path / "nest" / "a" / "b", workers=1)
    assert not (tmp_path / "nest").exists()
    (tmp_path / "mine").mkdir()
    with pytest.raises(KeyboardInterrupt):
        run_batch(3, "route", "easy", 1, tmp_path / "mine", workers=1)
    assert (tmp_path / "mine").is_dir() and not any((tmp_path / "mine").iterdir())


def test_a_disk_that_fills_at_the_first_manifest_leaves_a_batch_resume_finishes(tmp_path, monkeypatch):
    """The first scenario's files were written before any manifest; the disk filled as the manifest
    was written, and --resume (and a plain run) then refused the scenario files as no batch's."""
    import errno

    import terragen.terrain.puzzles.batch as batch_mod
    from terragen.errors import OutputError

    fresh = tmp_path / "fresh"
    run_batch(3, "route", "easy", 5, fresh, workers=1)
    real = batch_mod.write_manifest
    calls = []

    def full_after_first(out, batch, rows):
        calls.append(len(rows))
        if rows:  # the manifest once a scenario is in: the disk is full
            raise OutputError(f"cannot write {out}/manifest.csv: {os.strerror(errno.ENOSPC).lower()}")
        real(out, batch, rows)

    monkeypatch.setattr(batch_mod, "write_manifest", full_after_first)
    out = tmp_path / "b"
    with pytest.raises(OutputError):
        run_batch(3, "route", "easy", 5, out, workers=1)
    monkeypatch.setattr(batch_mod, "write_manifest", real)
    run_batch(3, "route", "easy", 5, out, workers=1, resume=True)
    assert _files(out) == _files(fresh)


def test_a_batch_whose_manifest_has_no_digests_keeps_its_whole_scenarios_on_resume(tmp_path):
    """Rows written before the digests: every scenario was computed again (minutes on a long batch);
    whole files naming their row's scenario are kept, a damaged or swapped one is computed again."""
    out = tmp_path / "b"
    run_batch(4, "route", "easy", 6, out, workers=1)
    whole = _files(out)
    data = json.loads((out / "manifest.json").read_text())
    for row in data["scenarios"]:
        del row["sha256"]
    (out / "manifest.json").write_text(json.dumps(data))
    (out / "scenarios" / "00001-route.json").write_text("{}")
    (out / "scenarios" / "00002-route.json").write_text((out / "scenarios" / "00003-route.json").read_text())
    summary = run_batch(4, "route", "easy", 6, out, workers=1, resume=True)
    assert summary["computed"] == 2
    assert _files(out) == whole


def test_resume_of_a_manifest_claiming_more_scenarios_than_a_batch_can_hold_says_it_is_damaged(tmp_path):
    """It said 'use --count 1000000000000 or more', a count --count refuses."""
    out = tmp_path / "b"
    run_batch(2, "route", "easy", 2, out, workers=1)
    data = json.loads((out / "manifest.json").read_text())
    data["batch"]["count"] = 10**12
    (out / "manifest.json").write_text(json.dumps(data))
    p = run_cli("batch", "--count", "2", "--kind", "route", "--difficulty", "easy", "--seed", "2",
                "--out", str(out), "--resume", "--no-progress")
    code, err = p.returncode, p.stderr
    assert code == 2 and "the manifest is damaged; --force starts the batch again" in err and "or more" not in err


def test_progress_reports_the_kept_scenarios_first_then_each_one_written(tmp_path):
    out = tmp_path / "b"
    run_batch(2, "route", "easy", 1, out, workers=1, booklet=False)
    seen = []
    run_batch(4, "route", "easy", 1, out, workers=1, booklet=False, resume=True,
              progress=lambda done, total: seen.append((done, total)))
    assert seen == [(2, 4), (3, 4), (4, 4)]


def test_resume_where_there_is_no_batch_yet_starts_one_and_says_so(tmp_path, capsys):
    """--resume continues a batch, and where none is (a first run stopped before its first scenario, a
    mistyped --out) it starts one, so a script may always pass it; a warning names the folder."""
    out = tmp_path / "typo"
    with pytest.raises(SystemExit) as exc:
        main(["batch", "--count", "2", "--kind", "dice", "--difficulty", "easy", "--out", str(out), "--resume",
              "--no-progress"])
    err = capsys.readouterr().err
    assert exc.value.code == 0, err
    assert f"terragen: warning: nothing to resume in {out}: it holds no batch yet, so a new one starts there" in err
    assert len(list((out / "scenarios").glob("*.json"))) == 2
    with pytest.raises(SystemExit):
        main(["batch", "--count", "2", "--kind", "dice", "--difficulty", "easy", "--out", str(out), "--resume",
              "--no-progress"])
    assert "nothing to resume" not in capsys.readouterr().err  # a batch there: continued, no warning


def test_resume_in_a_folder_holding_part_of_a_batch_says_one_thing(tmp_path):
    """A folder whose manifest.json was a folder, or missing beside the batch's other files, got a
    warning that a new batch starts there and then an error refusing to start one."""
    odd = tmp_path / "odd"
    (odd / "manifest.json").mkdir(parents=True)
    p = run_cli("batch", "--count", 2, "--out", odd, "--resume")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "warning" not in p.stderr, p.stderr
    assert "manifest.json: is a folder" in p.stderr
    fresh = tmp_path / "fresh"
    p = run_cli("batch", "--count", 1, "--seed", 1, "--out", fresh, "--resume")  # nothing there: a new batch
    assert p.returncode == 0 and "nothing to resume" in p.stderr, p.stderr
    (fresh / "manifest.json").unlink()
    p = run_cli("batch", "--count", 1, "--seed", 1, "--out", fresh, "--resume")
    assert p.returncode == 2 and "warning" not in p.stderr and "not part of a batch" in p.stderr, p.stderr


def test_resume_says_when_it_made_damaged_scenarios_again(tmp_path):
    """A damaged scenario file was made again without a word: the user never learnt something had
    touched the folder."""
    out = tmp_path / "b"
    assert run_cli("batch", "--count", 3, "--seed", 1, "--out", out).returncode == 0
    before = _files(out)
    first, second = sorted((out / "scenarios").glob("*.json"))[:2]
    first.write_text("{}")
    second.unlink()
    p = run_cli("batch", "--count", 3, "--seed", 1, "--out", out, "--resume")
    assert p.returncode == 0 and "warning: 2 scenarios of the earlier run" in p.stderr and "were made again" in p.stderr
    assert _files(out) == before
    p = run_cli("batch", "--count", 3, "--seed", 1, "--out", out, "--resume")
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr


def test_a_scenario_is_checked_and_drawn_as_a_puzzle_and_a_lone_player_elsewhere_is_warned(tmp_path):
    """validate called every batch scenario INVALID ([player-count] 1 player), though its help gives
    one as the example; render drew any one-player board without the warning every broken rule gets."""
    out = tmp_path / "b"
    assert run_cli("batch", "--count", 1, "--seed", 1, "--out", out).returncode == 0
    (scenario,) = (out / "scenarios").glob("*.json")
    p = run_cli("validate", scenario)
    assert p.returncode == 0 and "valid terrain layout (0 errors" in p.stdout, p.stdout
    p = run_cli("batch", "--count", 1, "--seed", 1, "--out", out, "--resume")  # ('1 scenarios in ...')
    assert p.stdout.startswith(f"1 scenario in {out}"), p.stdout
    p = run_cli("render", scenario, "--strict", "--out", tmp_path / "s.pdf")
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr
    lone = ROOT / "terragen" / "data" / "terrain" / "examples" / "invalid" / "player-count.txt"
    p = run_cli("render", lone, "--out", tmp_path / "l.pdf")
    assert p.returncode == 0 and "warning: " in p.stderr and "[player-count] 1 player" in p.stderr, p.stderr
    assert run_cli("validate", lone).returncode == 1


def test_resuming_a_whole_batch_writes_nothing_and_says_so(tmp_path):
    """Scripts are told to always pass --resume: on a finished batch it drew the booklet again (13 s
    for 500 puzzles), rewrote the manifests and said "written:" over files it had not changed."""
    out = tmp_path / "b"
    assert run_cli("batch", "--count", 3, "--kind", "route", "--difficulty", "easy", "--out", out).returncode == 0
    before = {name: os.stat(out / name).st_mtime_ns for name in ("manifest.json", "manifest.csv", "booklet.pdf")}
    files = _files(out)
    again = run_cli("batch", "--count", 3, "--kind", "route", "--difficulty", "easy", "--out", out, "--resume")
    assert again.returncode == 0, again.stderr
    assert "whole already, nothing written" in again.stdout and "written:" not in again.stdout
    assert {name: os.stat(out / name).st_mtime_ns for name in before} == before and _files(out) == files
    as_json = run_cli("batch", "--count", 3, "--kind", "route", "--difficulty", "easy", "--out", out, "--resume",
                      "--json")
    assert json.loads(as_json.stdout)["unchanged"] is True and json.loads(as_json.stdout)["computed"] == 0
    # a booklet cut short is drawn again, and so is one for other paper; the scenarios stay as they are
    (out / "booklet.pdf").write_bytes(files["booklet.pdf"][:1000])
    redrawn = run_cli("batch", "--count", 3, "--kind", "route", "--difficulty", "easy", "--out", out, "--resume")
    assert redrawn.returncode == 0 and (out / "booklet.pdf").read_bytes() == files["booklet.pdf"]
    assert "scenarios/" not in redrawn.stdout.splitlines()[-1] and "booklet.pdf" in redrawn.stdout
    letter = run_cli("batch", "--count", 3, "--kind", "route", "--difficulty", "easy", "--out", out, "--resume",
                     "--paper", "letter")
    assert letter.returncode == 0 and (out / "booklet.pdf").read_bytes() != files["booklet.pdf"]
    assert json.loads((out / "manifest.json").read_text())["batch"]["paper"] == "letter"
    assert {p: b for p, b in _files(out).items() if p.startswith("scenarios")} == \
        {p: b for p, b in files.items() if p.startswith("scenarios")}


def test_a_resume_stopped_while_drawing_another_papers_booklet_leaves_no_booklet_to_be_taken_as_whole(
        tmp_path, monkeypatch):
    """The manifest named the new paper before the booklet was drawn: a run stopped there left the old
    paper's booklet, which the next resume called whole (found in review)."""
    import terragen.render.kits.terrain.booklet as booklet_mod

    out = tmp_path / "b"
    run_batch(2, "dice", "easy", 3, out, workers=1)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(booklet_mod, "booklet_pdf", stopped)
    with pytest.raises(KeyboardInterrupt):
        run_batch(2, "dice", "easy", 3, out, workers=1, resume=True, paper="letter")
    monkeypatch.undo()
    assert not (out / "booklet.pdf").exists()  # not the A4 one beside a manifest saying letter
    again = run_batch(2, "dice", "easy", 3, out, workers=1, resume=True, paper="letter")
    assert not again["unchanged"] and b"/MediaBox [ 0 0 612 792 ]" in (out / "booklet.pdf").read_bytes()

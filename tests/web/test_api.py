"""Every endpoint of the web API, its answers checked against the library and the CLI, and hostile input."""

from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import TAB

JSON_HEADERS = {"Content-Type": "application/json", "X-Terragen-Tab": TAB}


def examples(*parts: str):
    from terragen.templates import template_path

    return template_path("terrain", "examples", *parts)


def post(client, path: str, body, headers: dict | None = None):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(path, data=data, headers={**JSON_HEADERS, **(headers or {})})


def layout_data(name: str = "four-players.json") -> dict:
    from terragen.terrain.files import load_layout
    from terragen.terrain.formats_json import layout_to_data

    return layout_to_data(load_layout(examples(name)))


def wait_job(client, job_id: str, timeout: float = 120.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = client.get(f"/api/jobs/{job_id}").get_json()
        if state["state"] != "running":
            return state
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still running after {timeout} s")


# -- the page -----------------------------------------------------------------------------------
def test_page_and_assets_are_served_from_the_package_with_a_strict_policy(client):
    page = client.get("/")
    assert page.status_code == 200 and b"terragen" in page.data
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    for src in ("/static/app.js", "/static/api.js", "/static/board.js", "/static/style.css", "/static/icon.svg"):
        assert src.encode() in page.data or src == "/static/api.js" or src == "/static/board.js"
        r = client.get(src)
        assert r.status_code == 200 and r.data
    assert b"http" not in client.get("/static/style.css").data  # nothing from a CDN
    for bad in ("/static/..%2Fapp.py", "/static/app.py", "/static/nothing.js", "/static/.hidden.js",
                "/static/" + "a" * 300 + ".js"):  # too long for a file name: a 500 and a traceback
        assert client.get(bad).status_code == 404


def test_info_lists_presets_with_descriptions_and_hides_file_options(client):
    info = client.get("/api/info").get_json()
    names = {o["name"]: o for o in info["generate"]}
    assert {"players", "difficulty", "seed", "radius"} <= set(names)
    assert not {"spec_file", "out_dir", "progress"} & set(names)
    presets = {c["value"]: c["description"] for c in names["difficulty"]["choices"]}
    assert {"easy", "medium", "hard", "brutal"} <= set(presets) and all(presets.values())
    assert names["inventory"]["choices"] == ["standard", "extended"]
    # what the command picks when a field is left empty, shown in it (the form said only "default")
    assert (names["players"]["shown_default"], names["difficulty"]["shown_default"]) == ("4", "medium")
    assert "shown_default" not in names["balance_games"]  # a sentence, not a value: left to the help
    # each field is named in plain words for the page, with the command's flag kept for the hint
    for o in info["generate"]:
        assert o["label"][0].isupper() and "--" not in o["label"] and "_" not in o["label"], o
        assert o["flag"].startswith("--")
    assert (names["players"]["label"], names["time_limit"]["label"]) == ("Seats", "Time limit (s)")
    games = info["simulate"]["defaults"]["games"]
    assert (games is None or games >= 1) and "greedy" in info["simulate"]["policies"]  # None: chosen per seat count
    assert set(info["kits"]) == {"terrain", "terrace", "terralogical", "terraflip"}
    assert info["colours"]["levels"]["1"].startswith("#")


# -- layouts ------------------------------------------------------------------------------------
def test_empty_board_has_every_position_missing(client):
    r = post(client, "/api/empty", {"radius": 4})
    layout = r.get_json()["layout"]
    assert layout["radius"] == 4 and layout["cells"] == [] and len(layout["players"]) == 2
    check = post(client, "/api/check", {"layout": layout}).get_json()
    assert len(check["board"]["positions"]) == 61
    missing = [e for e in check["report"]["errors"] if e["code"] == "cell-missing"]
    assert len(missing) == 1 and len(missing[0]["cells"]) == 61
    for bad in (0, 13, "5", True, None, 2.5):
        assert post(client, "/api/empty", {"radius": bad}).status_code == 400


def test_check_is_the_validators_report_plus_the_drawing(client):
    from terragen.terrain.files import load_layout
    from terragen.terrain.pieces import exits
    from terragen.terrain.validation import validate_layout

    data = layout_data()
    r = post(client, "/api/check", {"layout": data})
    assert r.status_code == 200
    got = r.get_json()
    assert got["report"] == json.loads(json.dumps(validate_layout(load_layout(examples("four-players.json"))).to_json()))
    assert got["report"]["valid"]
    cells = {(c["q"], c["r"]): c["exits"] for c in got["board"]["cells"]}
    for c in data["cells"]:
        assert cells[(c["q"], c["r"])] == list(exits(c["pattern"], c["rotation"]))
    assert [s["hex"] for s in got["board"]["starts"]] == [[5, 0], [5, -5], [-5, 0], [-5, 5]]
    for cliff in got["board"]["cliffs"]:
        assert 0 <= cliff["direction"] <= 5


@pytest.mark.parametrize("name", ["level-out-of-range.txt", "cell-missing.txt", "destination-shared.txt"])
def test_check_marks_the_broken_cells(client, name):
    code = name.removesuffix(".txt")
    up = post(client, "/api/upload", {"text": examples("invalid", name).read_text(), "name": name})
    assert up.status_code == 200
    report = post(client, "/api/check", {"layout": up.get_json()["layout"]}).get_json()["report"]
    assert not report["valid"]
    finding = next(e for e in report["errors"] if e["code"] == code)
    assert finding["cells"], finding


def test_upload_reads_both_forms_like_the_cli(client):
    from terragen.terrain.files import load_layout
    from terragen.terrain.formats_json import layout_to_data

    for name in ("two-players.txt", "four-players.json", "six-players.txt"):
        path = examples(name)
        got = post(client, "/api/upload", {"text": path.read_text(), "name": name}).get_json()["layout"]
        assert got == json.loads(json.dumps(layout_to_data(load_layout(path))))


@pytest.mark.parametrize("text, status, words", [
    ("", 400, ["empty"]),
    ("   \n", 400, ["empty"]),
    ("radius: 5\x00\x01\x02", 400, ["binary"]),
    ('{"radius": ' + "9" * 5000 + "}", 400, ["digits"]),
    ("[" * 100_000 + "]" * 100_000, 400, ["nested"]),
    ('{"radius": 5, "cells": [{"q": 0}]}', 400, ["$.cells[0]"]),
    ('{"radius": 1e400}', 400, ["whole number", "out of range"]),
    ('{"game": "terrace"}', 400, ["Terrace position; the page edits Terrain Game boards only. 'terragen validate "
                                   "upload.txt' checks it"]),
    ("game: terraflip\n", 400, ["this is a TerraFlip position; the page edits Terrain Game boards only"]),
    ("radius: 1\nmap:\n  5B3 4A0\n 5B3 9Z9 zz\n 5B3 4A0\n", 400, ["upload.txt:4"]),
    ("x" * 1_100_000, 413, ["limit"]),
], ids=["empty", "blank", "binary", "huge-number", "deep", "missing-key", "float", "other-game", "other-game-text",
     "typo", "oversize"])
def test_upload_refuses_hostile_files_with_one_clear_message(client, text, status, words):
    r = post(client, "/api/upload", {"text": text, "name": "upload.txt"})
    assert r.status_code == status
    message = r.get_json()["error"]
    assert any(w in message for w in words), message  # the file readers' own wording
    assert message.startswith("upload.txt") or status == 413


def test_upload_never_echoes_a_path_from_the_name(client):
    r = post(client, "/api/upload", {"text": "", "name": "../../etc/passwd"})
    assert r.status_code == 400 and "/" not in r.get_json()["error"].split(":")[0]


def test_export_round_trips_in_both_forms(client):
    data = layout_data()
    for fmt, name in (("json", "board.json"), ("text", "board.txt")):
        r = post(client, "/api/export", {"layout": data, "format": fmt})
        assert r.status_code == 200
        assert r.headers["Content-Disposition"] == f'attachment; filename="{name}"'
        back = post(client, "/api/upload", {"text": r.data.decode(), "name": name}).get_json()["layout"]
        assert back["cells"] == data["cells"] and back["players"] == data["players"]
    assert post(client, "/api/export", {"layout": data, "format": "pdf"}).status_code == 400


# -- hostile requests ---------------------------------------------------------------------------
@pytest.mark.parametrize("body, words", [
    (b"[" * 50_000 + b"]" * 50_000, "nested"),
    (b'{"layout": {"radius": ' + b"7" * 6000 + b"}}", "digits"),
    (b'{"layout": NaN}', "NaN"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "binary"),
    (b'{"layout": "\xff\xfe"}', "UTF-8"),
    (b"[1, 2, 3]", "JSON object"),
    (b"{not json", "invalid JSON"),
    (b'{"layout": [1]}', "must be a JSON object"),
    (b'{"layout": {"radius": 5, "cells": [{"q": 0, "r": 0, "level": "5", "pattern": "A", "rotation": 0}]}}', "$.cells[0].level"),
    (b'{"layout": {"radius": 100000000000000000000}}', "radius"),
], ids=["deep", "huge-number", "nan", "png", "bad-utf8", "list", "syntax", "layout-list", "string-level", "huge-radius"])
def test_check_refuses_hostile_bodies(client, body, words):
    r = post(client, "/api/check", body)
    assert r.status_code == 400
    assert words in r.get_json()["error"]


def test_huge_levels_and_coordinates_are_reported_not_crashed(client):
    data = layout_data()
    data["cells"][0]["level"] = 10**25  # within the readers' 30-digit limit
    data["cells"][1]["q"] = -(10**20)
    report = post(client, "/api/check", {"layout": data}).get_json()["report"]
    codes = {e["code"] for e in report["errors"]}
    assert {"level-out-of-range", "cell-off-board", "cell-missing"} <= codes


def test_oversize_bodies_are_refused_before_reading(client):
    r = client.post("/api/check", data=b"{" + b" " * (9 * 1024 * 1024) + b"}", headers=JSON_HEADERS)
    assert r.status_code == 413 and "larger than" in r.get_json()["error"]


def test_posts_must_be_json(client):
    r = client.post("/api/check", data="layout=1", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415


@pytest.mark.parametrize("headers", [
    {"Host": "evil.example"},
    {"Host": "evil.example:8000"},
    {"Host": "127.0.0.1.evil.example"},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
])
def test_foreign_host_or_origin_is_refused(client, headers):
    for r in (client.get("/api/info", headers=headers), post(client, "/api/empty", {"radius": 5}, headers)):
        assert r.status_code == 403 and "refused" in r.get_json()["error"]


def test_own_origin_is_allowed(client):
    assert client.get("/api/info", headers={"Origin": "http://localhost"}).status_code == 200


def test_real_server_checks_host_and_port(server):
    import http.client

    def get(host: str) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/api/info", headers={"Host": host})
        status = conn.getresponse().status
        conn.close()
        return status

    assert get(f"127.0.0.1:{server.port}") == 200
    assert get(f"localhost:{server.port}") == 200
    assert get(f"localhost:{server.port + 1}") == 403  # another port: a rebinding page's view of us
    assert get("attacker.example") == 403


def test_unknown_routes_and_methods_answer_json(client):
    assert client.get("/api/nothing").get_json()["error"]
    assert client.get("/api/check").status_code == 405


def test_a_refused_method_names_the_ones_the_address_takes(client):
    """HTTP asks a 405 to say what is allowed; the answers had no Allow header."""
    for method in ("GET", "DELETE", "OPTIONS"):
        r = client.open("/api/check", method=method)
        assert r.status_code == 405 and r.is_json and r.headers.get("Allow") == "POST", method
    r = client.open("/api/nothing", method="OPTIONS")  # no such address: 404 as for any method, no empty Allow
    assert r.status_code == 404 and r.is_json and "Allow" not in r.headers


# -- jobs ---------------------------------------------------------------------------------------
def test_generate_job_gives_a_valid_board_as_the_cli_would(client):
    r = post(client, "/api/jobs/generate", {"options": {"players": 2, "difficulty": "easy", "seed": 5, "balance_games": 200}})
    assert r.status_code == 200, r.get_json()
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "done", job
    layout = job["result"]["layout"]
    assert len(layout["cells"]) == 91 and len(layout["players"]) == 2
    assert layout["meta"]["spec"]["difficulty"] == "easy"
    assert any("simulated" in line for line in job["result"]["summary"])
    # the command's printing hint named the job's temporary folder, which is deleted: the page's tab instead
    assert not any("terragen render" in line or "terragen-web-" in line for line in job["result"]["summary"])
    assert "to print its build sheet: Print tab → Build sheet PDF" in job["result"]["summary"]
    # the command's own warning travels with the board (the page had a copy of its own, which went stale)
    from terragen.terrain.formats_json import layout_from_data
    from terragen.terrain.generate.report import not_balanced_warning

    said = not_balanced_warning(layout_from_data(layout))
    assert job["result"]["warning"] == ({"verdict": layout["meta"]["balance"]["verdict"], "text": said} if said else None)
    assert post(client, "/api/check", {"layout": layout}).get_json()["report"]["valid"]
    assert set(job["files"]) == {"board.json", "board.txt", "board.svg"}
    assert client.get(f"/api/jobs/{job['id']}/files/board.svg").data.lstrip().startswith((b"<?xml", b"<svg"))


def test_an_unticked_box_turns_off_an_option_that_is_on_by_default():
    from terragen.web.tasks import generate_flags

    assert generate_flags({"expert_glance": False, "no_balance": False}) == ["--no-expert-glance"]
    assert generate_flags({"expert_glance": True, "check_experts": True, "players": 4}) == [
        "--expert-glance", "--check-experts", "--players", "4"]


@pytest.mark.parametrize("options, words", [
    ({"out_dir": "/tmp/x"}, "unknown generate option"),
    ({"spec_file": "/etc/passwd"}, "unknown generate option"),
    ({"inventory": "/etc/passwd"}, "must be one of"),
    ({"players": "4"}, "whole number"),
    ({"players": 10**30}, "digits"),
    ({"players": 10**20}, "between 2 and 6"),
    ({"players": 7}, "between 2 and 6"),  # the command's own range, known to the form
    ({"difficulty": "impossible"}, "must be one of"),
    ({"time_limit": 1e4}, "at most"),
    ({"time_limit": 1e300}, "must be"),
    ({"time_limit": 1e7}, "at most 600"),  # said "must be a number"
    ({"players": 99}, "Seats (--players) must be between 2 and 6"),  # named the flag alone
    ({"time_limit": 0}, "above 0"),  # the command wants more than 0 s: refused here, not after a job starts
    ({"time_limit": -1}, "above 0"),
    ({"players": 2.5}, "whole number"),  # the page sends numbers as typed; none is cut to a whole one
    ({"balance_games": 0}, "between"),
    ({"no_balance": "yes"}, "true or false"),
    ({"no_balance": True, "check_experts": True}, "--check-experts needs the balance check"),
    ({"no_balance": True, "strict_balance": True}, "give one of them"),
    ([1, 2], "must be an object"),
])
def test_generate_refuses_bad_options(client, options, words):
    r = post(client, "/api/jobs/generate", {"options": options})
    assert r.status_code == 400 and words in r.get_json()["error"]


def test_every_seed_the_command_takes_is_taken_here():
    """/api/info promises seeds up to 2**63-1; the form refused 2**40 as "not a whole number"."""
    from terragen.web.api import check_generate, check_simulate

    assert check_generate({"seed": 2**63 - 1})["seed"] == 2**63 - 1
    assert check_simulate({"seed": 2**40})["seed"] == 2**40
    with pytest.raises(Exception, match="between 0 and 9223372036854775807"):
        check_generate({"seed": 2**63})


def test_generate_job_reports_the_commands_own_error(client):
    r = post(client, "/api/jobs/generate", {"options": {"players": 6, "difficulty": "brutal", "strict_balance": True,
                                                        "time_limit": 0.5}})
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "failed" and job["exit_code"] == 4
    assert "work budget" in job["error"] and "Traceback" not in job["error"] and "--help" not in job["error"]


def test_one_job_per_tab_and_cancel_stops_it(client):
    from terragen.web.jobs import JobManager

    slow = {"options": {"players": 6, "difficulty": "brutal", "seed": 11, "time_limit": 120}}
    first = post(client, "/api/jobs/generate", slow).get_json()
    again = post(client, "/api/jobs/generate", slow)
    assert again.status_code == 409 and "already running" in again.get_json()["error"]
    other_tab = post(client, "/api/jobs/build-sheet", {"layout": layout_data()}, {"X-Terragen-Tab": "another-tab-1"})
    assert other_tab.status_code == 200  # another tab may run its own
    manager: JobManager = client.application.extensions["terragen_jobs"]
    process = manager.jobs[first["id"]].process
    cancelled = client.post(f"/api/jobs/{first['id']}/cancel").get_json()
    assert cancelled["state"] == "cancelled"
    assert not process.is_alive()
    assert post(client, "/api/jobs/generate", {"options": {"players": 2, "no_balance": True}}).status_code == 200  # the tab is free again
    wait_job(client, other_tab.get_json()["id"])


def test_jobs_need_a_tab_id(client):
    r = client.post("/api/jobs/build-sheet", data=json.dumps({"layout": layout_data()}),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "X-Terragen-Tab" in r.get_json()["error"]


def test_server_wide_job_limit(client):
    manager = client.application.extensions["terragen_jobs"]
    manager.max_running = 1
    slow = {"options": {"players": 6, "difficulty": "brutal", "seed": 12, "time_limit": 120}}
    first = post(client, "/api/jobs/generate", slow).get_json()
    busy = post(client, "/api/jobs/generate", slow, {"X-Terragen-Tab": "another-tab-2"})
    assert busy.status_code == 409 and "already runs" in busy.get_json()["error"]
    client.post(f"/api/jobs/{first['id']}/cancel")


def test_simulate_job_reports_rates_intervals_and_verdict(client):
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.runner import simulate_layout

    data = layout_data("two-players.txt")
    r = post(client, "/api/jobs/simulate", {"layout": data, "options": {"games": 60, "seed": 4}})
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "done", job
    rep = job["result"]["report"]
    expected = simulate_layout(load_layout(examples("two-players.txt")), games=60, seed=4).to_json()
    assert rep == json.loads(json.dumps(expected))
    assert all(len(s["ci95"]) == 2 for s in rep["seats"]) and rep["verdict"].startswith(("PLAYABLE", "NOT PLAYABLE"))


@pytest.mark.parametrize("options, words", [
    ({"policy": "os:system"}, "policy"),
    ({"policy": "terragen.terrain.sim.policies:GreedyPolicy"}, "policy"),
    ({"games": 0}, "games"),
    ({"games": 10**9}, "games"),
    ({"variants": ["tems"]}, "variants"),
    ({"margin": 2}, "margin"),
    ({"margin": 0}, "margin"),
    ({"margin": 1e-9, "games": 10}, "Fairness margin (--margin) must be a number from 0.001"),
    ({"margin": 0.001}, "needs 9,187,500 games"),
    ({"policy": "greedy,greedy,greedy"}, "Players (--policy): 3 given for 4 seats"),
    ({"games": 0}, "Games to play (--games) must be a whole number from 1"),
    ({"workers": 8}, "unknown"),
])
def test_simulate_refuses_bad_options(client, options, words):
    r = post(client, "/api/jobs/simulate", {"layout": layout_data(), "options": options})
    assert r.status_code == 400 and words in r.get_json()["error"]


def test_build_sheet_job_gives_the_render_commands_pdf(client, tmp_path):
    import os
    import subprocess
    import sys

    from tests.web.conftest import ROOT

    r = post(client, "/api/jobs/build-sheet", {"layout": layout_data(), "paper": "letter"})
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "done", job
    pdf = client.get(f"/api/jobs/{job['id']}/files/board-build.pdf")
    assert pdf.data.startswith(b"%PDF") and pdf.headers["Content-Disposition"].startswith("attachment")
    # byte for byte what the command gives for the same file under the same name (the page has no folder)
    board = tmp_path / "board.json"
    board.write_bytes(post(client, "/api/export", {"layout": layout_data(), "format": "json"}).data)
    cli = subprocess.run([sys.executable, "-m", "terragen", "render", str(board), "--paper", "letter", "--name", "board.json"],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert cli.returncode == 0, cli.stderr
    assert (tmp_path / "board-build.pdf").read_bytes() == pdf.data
    assert client.get(f"/api/jobs/{job['id']}/files/..%2Fboard.json").status_code == 404
    assert client.get(f"/api/jobs/{job['id']}/files/other.pdf").status_code == 404
    assert post(client, "/api/jobs/build-sheet", {"layout": layout_data(), "paper": "a0"}).status_code == 400


def test_build_sheet_of_a_board_being_built_and_its_errors_name_no_private_folder(client):
    """A board clicked together from scratch has no destinations yet: its sheet is drawn all the
    same. A board the command refuses (no player at all) fails with the command's own line, naming
    the board and not the job's temporary folder."""
    data = layout_data()
    for player in data["players"]:
        player["destinations"] = []
    job = wait_job(client, post(client, "/api/jobs/build-sheet", {"layout": data, "paper": "a4"}).get_json()["id"])
    assert job["state"] == "done", job
    data["players"] = []
    job = wait_job(client, post(client, "/api/jobs/build-sheet", {"layout": data, "paper": "a4"}).get_json()["id"])
    assert job["state"] == "failed" and job["error"].startswith("board.json: 0 players"), job
    assert "terragen-web-" not in job["error"] and "/tmp" not in job["error"]


def test_kit_job_gives_every_pdf_of_the_kit(client):
    r = post(client, "/api/jobs/kit", {"game": "terrace", "options": {"paper": "a4", "flip": "short"}})
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "done", job
    assert sorted(job["files"]) == ["terrace-board-a4.pdf", "terrace-pieces-a4.pdf", "terrace-rules-a4.pdf",
                                    "terrace-setups-a4.pdf"]
    for name in job["files"]:
        assert client.get(f"/api/jobs/{job['id']}/files/{name}").data.startswith(b"%PDF")


def test_the_pages_print_options_give_the_commands_files(client, tmp_path):
    """The page's kit had no palette, low ink or back offset: the alignment test every kit prints
    measured an offset the page could not use, and a black-and-white printer got colour pieces."""
    import os
    import subprocess
    import sys

    from tests.web.conftest import ROOT

    def cli(*args: str) -> None:
        done = subprocess.run([sys.executable, "-m", "terragen", *args], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
        assert done.returncode == 0, done.stderr

    options = {"paper": "a4", "palette": "grey", "low_ink": True, "back_offset": " -0.5, 1 "}
    job = wait_job(client, post(client, "/api/jobs/kit", {"game": "terrain", "options": options}).get_json()["id"])
    assert job["state"] == "done", job
    cli("kit", "terrain", "--out", str(tmp_path / "kit"), "--palette", "grey", "--low-ink", "--back-offset=-0.5,1")
    for name in ("terrain-tiles-a4.pdf", "terrain-tokens-a4.pdf"):
        assert client.get(f"/api/jobs/{job['id']}/files/{name}").data == (tmp_path / "kit" / name).read_bytes(), name
    sheet = post(client, "/api/jobs/build-sheet", {"layout": layout_data(), "name": "b.json", "palette": "grey"})
    job = wait_job(client, sheet.get_json()["id"])
    assert job["state"] == "done", job
    (tmp_path / "b.json").write_text(json.dumps(layout_data()))
    cli("render", str(tmp_path / "b.json"), "--palette", "grey", "--out", str(tmp_path / "b-build.pdf"))
    assert client.get(f"/api/jobs/{job['id']}/files/b-build.pdf").data == (tmp_path / "b-build.pdf").read_bytes()


def test_a_terrain_kit_for_the_board_on_the_page_takes_its_radius(client, tmp_path):
    """The page's board may be radius 3-6; its kit's board sheets marked a radius-5 board's corners."""
    import os
    import subprocess
    import sys

    from tests.web.conftest import ROOT

    r = post(client, "/api/jobs/kit", {"game": "terrain", "options": {"paper": "a4", "radius": 3}})
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "done", job
    cli = subprocess.run([sys.executable, "-m", "terragen", "kit", "terrain", "--radius", "3", "--out", str(tmp_path)],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert cli.returncode == 0, cli.stderr
    board = client.get(f"/api/jobs/{job['id']}/files/terrain-board-r3-a4.pdf").data
    assert board == (tmp_path / "terrain-board-r3-a4.pdf").read_bytes()


def test_kit_cut_lines_are_the_kits_own_unless_turned_on_or_off(client, tmp_path):
    """The form's three choices for cut lines give what `terragen kit` gives with no flag,
    --outlines and --no-outlines (an unticked box once sent nothing, so hex tiles kept theirs)."""
    import os
    import subprocess
    import sys

    from tests.web.conftest import ROOT

    for outlines, flags in ((None, []), (True, ["--outlines"]), (False, ["--no-outlines"])):
        r = post(client, "/api/jobs/kit", {"game": "terraflip", "options": {"paper": "a4", "outlines": outlines}})
        job = wait_job(client, r.get_json()["id"])
        assert job["state"] == "done", job
        out = tmp_path / str(outlines)
        cli = subprocess.run([sys.executable, "-m", "terragen", "kit", "terraflip", "--out", str(out), *flags],
                             capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
        assert cli.returncode == 0, cli.stderr
        for name in ("terraflip-tiles-a4.pdf", "terraflip-tokens-a4.pdf"):
            assert client.get(f"/api/jobs/{job['id']}/files/{name}").data == (out / name).read_bytes(), (outlines, name)
    tiles = {o: (tmp_path / str(o) / "terraflip-tiles-a4.pdf").read_bytes() for o in (None, True, False)}
    assert tiles[None] != tiles[False]  # hex tiles have cut lines unless asked not to


@pytest.mark.parametrize("body, words", [
    ({"game": "chess", "options": {}}, "game"),
    ({"game": "terrain", "options": {"outlines": "yes"}}, "outlines"),
    ({"game": "terrace", "options": {"nets": True}}, "nets"),
    ({"game": "terrain", "options": {"flip": "sideways"}}, "flip"),
    ({"game": "terrain", "options": {"out_dir": "/tmp"}}, "unknown"),
    ({"game": "terrain", "options": {"paper": "../a4"}}, "paper"),
    ({"game": "terrain", "options": {"radius": 9}}, "radius"),
    ({"game": "terrain", "options": {"radius": True}}, "radius"),
    ({"game": "terrace", "options": {"radius": 3}}, "Terrain Game"),
    ({"game": "terrain", "options": {"palette": "../colour"}}, "palette"),
    ({"game": "terraflip", "options": {"palette": "grey"}}, "Terrain Game kit only"),
    ({"game": "terrain", "options": {"low_ink": "yes"}}, "low_ink"),
    ({"game": "terrain", "options": {"back_offset": "1;2"}}, "the back offset must be two numbers"),
    ({"game": "terrain", "options": {"back_offset": 1.5}}, "back_offset"),
    ({"game": "terrain", "options": {"back_offset": "50,0"}}, "the back offset is limited to 10 mm"),
    ({"game": "terrain", "options": {"back_offset": "1e300,0"}}, "the back offset is limited to 10 mm"),
])
def test_kit_refuses_bad_options(client, body, words):
    r = post(client, "/api/jobs/kit", body)
    assert r.status_code == 400 and words in r.get_json()["error"]


def test_unknown_job(client):
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.post("/api/jobs/nope/cancel").status_code == 404


# -- fuzzing: whatever the browser sends, the answer is a report or one clear error -------------

_scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False) \
    | st.text(max_size=4)
_keys = st.sampled_from(["radius", "cells", "players", "q", "r", "level", "pattern", "rotation", "inverted", "seat",
                         "corner", "destinations", "game", "version", "piece", "meta"])


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the client is stateless here
@given(st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=6),
                    max_leaves=25))
def test_check_fuzz_answers_a_report_or_a_clear_error(client, data):
    r = post(client, "/api/check", {"layout": data})
    assert r.status_code in (200, 400), r.get_json()
    assert ("report" in r.get_json()) == (r.status_code == 200)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the client is stateless here
@given(st.lists(st.tuples(st.integers(0, 90), st.sampled_from(["level", "pattern", "rotation", "inverted", "q"]),
                          st.integers(-3, 12) | st.sampled_from(["A", "B", "C", "D", "Z", ""]) | st.booleans()),
                max_size=6))
def test_check_of_edited_boards_never_fails_inside(client, edits):
    data = layout_data()
    for index, key, value in edits:
        data["cells"][index][key] = value
    r = post(client, "/api/check", {"layout": data})
    assert r.status_code in (200, 400), r.get_json()
    if r.status_code == 200:
        body = r.get_json()
        assert body["report"]["valid"] == (not body["report"]["errors"])


def test_a_commands_progress_bar_becomes_job_progress():
    from terragen.web.tasks import progress_of

    got = progress_of("terragen generate [####....................] 10/60 s limit  attempt 6", "generate")
    assert got == {"done": 10.0, "total": 60.0, "message": "10/60 s limit  attempt 6"}
    assert progress_of("searching for a board", "generate") == {"message": "searching for a board"}
    assert progress_of("terragen generate: warning: 2 seats off", "generate") == {"message": "warning: 2 seats off"}
    # warnings read "terragen: warning: ..." in every command now: the page shows them the same way
    assert progress_of("terragen: warning: 2 seats off", "generate") == {"message": "warning: 2 seats off"}
    assert progress_of("terragen: error: no board", "generate") == {"message": "error: no board"}


def test_upload_drops_a_byte_order_mark_as_the_cli_does(client):
    """Editors on Windows start files with a BOM; the CLI reads them, so the page must too."""
    for name in ("two-players.txt", "four-players.json"):
        text = examples(name).read_text()
        plain = post(client, "/api/upload", {"text": text, "name": name}).get_json()
        marked = post(client, "/api/upload", {"text": "\ufeff" + text, "name": name}).get_json()
        assert "layout" in marked and marked == plain


def test_a_body_over_the_limit_gets_a_json_refusal_from_the_real_server(server):
    """waitress answers a body over its own limit in plain text; the page reads JSON errors."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    body = b'{"text": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    conn.request("POST", "/api/upload", body=body, headers={"Content-Type": "application/json",
                                                            "Host": f"127.0.0.1:{server.port}"})
    r = conn.getresponse()
    assert r.status == 413 and r.getheader("Content-Type", "").startswith("application/json")
    assert "error" in json.loads(r.read())


def test_an_upload_of_a_whole_file_of_non_ascii_text_fits_a_request():
    """The 1 MB text limit was unreachable for non-ASCII files: escaped, the body passed 2 MiB first."""
    from terragen.web.api import MAX_TEXT_CHARS
    from terragen.web.app import MAX_BODY

    assert len(json.dumps({"name": "b.txt", "text": "é" * MAX_TEXT_CHARS})) < MAX_BODY


def test_job_progress_lines_hide_the_jobs_temporary_folder(client):
    data = layout_data()
    data["cells"][0]["pattern"] = "Z"  # a rule break render warns about, naming the file
    r = post(client, "/api/jobs/build-sheet", {"layout": data, "paper": "a4"})
    job = wait_job(client, r.get_json()["id"])
    seen = json.dumps(job)
    assert "terragen-web-" not in seen and "/tmp" not in seen


@pytest.mark.parametrize("method, path", [("OPTIONS", "/api/check"), ("OPTIONS", "/api/info"), ("GET", "/api//info")])
def test_odd_requests_get_a_json_answer(client, method, path):
    r = client.open(path, method=method)
    assert r.status_code in (404, 405) and r.is_json and r.get_json()["error"]


def test_port_80_accepts_the_host_and_origin_browsers_send_without_the_port():
    """Browsers leave the default port out of Host and Origin: on --port 80 every request was refused."""
    from terragen.web.app import create_app

    app = create_app(port=80)
    with app.test_client() as c:
        for host in ("127.0.0.1", "localhost", "127.0.0.1:80"):
            r = c.get("/api/info", headers={"Host": host, "Origin": f"http://{host}"})
            assert r.status_code == 200, (host, r.get_json())
        assert c.get("/api/info", headers={"Host": "evil.example"}).status_code == 403
    app.extensions["terragen_jobs"].shutdown()
    with create_app(port=8765).test_client() as c:  # elsewhere the port must be named
        assert c.get("/api/info", headers={"Host": "localhost"}).status_code == 403


def test_a_body_beyond_the_servers_own_limit_gets_waitresss_plain_text_answer(server):
    """Up to 32 MiB the app answers its JSON 413; beyond, waitress cuts the request off before the
    app sees it, in plain text, as docs/web.md says (it holds a body whole before the app runs)."""
    import http.client

    from terragen.web.server import SERVER_MAX_BODY

    for size, media in ((SERVER_MAX_BODY - 1, "application/json"), (SERVER_MAX_BODY + 1, "text/plain")):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        conn.putrequest("POST", "/api/upload", skip_host=True)
        for name, value in (("Host", f"127.0.0.1:{server.port}"), ("Content-Type", "application/json"),
                            ("Content-Length", str(size))):
            conn.putheader(name, value)
        conn.endheaders()
        if media == "application/json":  # the app answers once waitress has the whole body
            conn.send(b" " * size)
        r = conn.getresponse()
        assert r.status == 413 and r.getheader("Content-Type", "").startswith(media), (size, r.getheader("Content-Type"))
        conn.close()


def test_a_new_job_forgets_only_the_tabs_last_job_of_the_same_kind():
    """Make kit, then Simulate in the same tab: the kit's links, still on the page, answered 404."""
    from terragen.web.api import check_kit, check_simulate
    from terragen.web.jobs import JobManager

    manager = JobManager()

    def finished(kind, args):
        job = manager.start("tab-kinds-1", kind, args, 120)
        end = time.monotonic() + 120
        while manager.get(job.id).state == "running" and time.monotonic() < end:
            time.sleep(0.05)
        assert manager.get(job.id).state == "done"
        return job

    try:
        kit = finished("kit", ("terrace", check_kit("terrace", {})))
        sim = finished("simulate", (layout_data("two-players.txt"), check_simulate({"games": 20})))
        assert manager.get(kit.id) is not None  # another kind: the kit's files stay
        finished("simulate", (layout_data("two-players.txt"), check_simulate({"games": 20})))
        assert manager.get(sim.id) is None and manager.get(kit.id) is not None
    finally:
        manager.shutdown()


def test_build_sheet_names_the_file_the_user_opened(client):
    import shutil
    import subprocess

    """The page knows the file's name: the sheet's title and render's messages use it, not board.json."""
    r = post(client, "/api/jobs/build-sheet", {"layout": layout_data(), "paper": "a4", "name": "castle.txt"})
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "done", job
    assert job["files"] == ["castle-build.pdf"]  # named as render names it beside castle.txt
    pdf = client.get(f"/api/jobs/{job['id']}/files/castle-build.pdf").data
    assert b"(The Terrain Game: build sheet of castle.txt)" in pdf  # the PDF's title
    if shutil.which("pdftotext"):  # and the page's own, when poppler can show it
        page = subprocess.run(["pdftotext", "-l", "1", "-", "-"], input=pdf, capture_output=True, timeout=60).stdout
        assert page.startswith(b"Build sheet: castle.txt"), page[:80]
    data = layout_data()
    data["players"] = []
    for name, shown in (("castle.txt", "castle.txt"), ("../../etc/passwd", "....etcpasswd"), ("..", "board.json"),
                        ("board-build.pdf", "board-build.pdf"), (None, "board.json")):
        job = wait_job(client, post(client, "/api/jobs/build-sheet", {"layout": data, "name": name}).get_json()["id"])
        assert job["state"] == "failed" and job["error"].startswith(f"{shown}: 0 players"), (name, job)


def test_upload_limit_is_in_characters_as_the_page_counts():
    """The page counted bytes against a limit the server counts in characters."""
    from terragen.web.api import MAX_TEXT_CHARS, ApiError, parse_upload

    text = "# " + "é" * (MAX_TEXT_CHARS - 100) + "\nradius: 1\nmap:\n 5A0 5A0\n5A0 5A0 5A0\n 5A0 5A0\n"
    assert len(text.encode("utf-8")) > MAX_TEXT_CHARS  # over the limit in bytes, not in characters
    assert parse_upload(text, "long.txt")["layout"]["radius"] == 1
    with pytest.raises(ApiError, match="limit of 1,000,000 characters"):
        parse_upload("x" * (MAX_TEXT_CHARS + 1), "long.txt")


def test_the_print_tabs_note_on_gutter_fold_files_is_true(client):
    """The note said every kit has a gutter-fold file; the Terrace kit has none."""
    page = client.get("/").get_data(as_text=True)
    note = page[page.index('id="kit-note"'):].split("</p>")[0]
    assert "Each kit" not in note and "Terrace kit prints on one side only" in note
    r = post(client, "/api/jobs/kit", {"game": "terrace", "options": {}})
    assert not [f for f in wait_job(client, r.get_json()["id"])["files"] if "gutter" in f]


def test_a_build_sheet_named_in_four_byte_letters_is_drawn(client):
    """80 emoji are 320 bytes, past the 255 a file name may have: the job ended as an internal
    error naming its temporary folder."""
    r = post(client, "/api/jobs/build-sheet", {"layout": layout_data(), "paper": "a4", "name": "\U0001F600" * 80})
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "done", job
    # the download's name in a header: UTF-8 as RFC 6266 says, with an ASCII stand-in
    from urllib.parse import quote

    name = job["files"][0]
    got = client.get(f"/api/jobs/{job['id']}/files/{quote(name)}")
    assert got.status_code == 200 and got.headers["Content-Disposition"].endswith(f"filename*=UTF-8''{quote(name, safe='')}")


def test_a_layout_larger_than_a_file_may_be_is_refused_before_any_work(client):
    """A 7.5 MB layout of 140,000 cells was checked (3.7 s, a 21 MB answer; thirty at once took
    the server to 1.4 GB): a layout sent in a request has the limit of a file."""
    data = layout_data()
    data["cells"] = data["cells"] + [{"q": 50 + k, "r": 0, "level": 1, "pattern": "A", "rotation": 0}
                                     for k in range(30_000)]
    r = post(client, "/api/check", {"layout": data})
    assert r.status_code == 413 and "larger than the limit of 1,000,000 characters" in r.get_json()["error"]
    assert post(client, "/api/check", {"layout": layout_data()}).status_code == 200


def test_a_job_cancelled_at_once_leaves_no_temporary_folder(client):
    """A job killed before it could clean up left its terragen-web-* folder in /tmp; the server
    now makes each job's folder (the job's temporary files go in it) and removes it when the job
    ends, however it ends."""
    from pathlib import Path

    manager = client.application.extensions["terragen_jobs"]
    folders = []
    for kind, body in [("kit", {"game": "terrace", "options": {"paper": "a4"}}),
                       ("build-sheet", {"layout": layout_data(), "paper": "a4"})] * 3:
        job = post(client, f"/api/jobs/{kind}", body).get_json()
        folders.append(Path(manager.jobs[job["id"]].scratch))
        assert folders[-1].is_dir()
        assert client.post(f"/api/jobs/{job['id']}/cancel").get_json()["state"] == "cancelled"
    job = post(client, "/api/jobs/build-sheet", {"layout": layout_data()}).get_json()
    folders.append(Path(manager.jobs[job["id"]].scratch))
    assert wait_job(client, job["id"])["state"] == "done"
    assert not any(folder.exists() for folder in folders)


def test_cancel_ends_a_job_by_its_sigterm_where_a_simulation_pool_started_the_fork_server():
    """Jobs are forked by multiprocessing's fork server, one per process, and its children start
    with its signal mask. A simulation pool starts it with SIGTERM held back (it must not be split
    by an interrupt), so in a process that had generated a board first, a cancelled job ignored its
    SIGTERM and was killed 5 s later (the tests' slowest, 16 s, in the full suite). Played in a
    fresh process: the fork server of this one may already be running."""
    import signal
    import subprocess
    import sys

    script = (
        "from terragen.terrain.sim.pool import GamePool\n"
        "from terragen.web.jobs import JobManager\n"
        "with GamePool(2) as pool:\n"
        "    pool.start_early()\n"
        "manager = JobManager()\n"
        "job = manager.start('tab', 'kit', ('terrace', {'paper': 'a4', 'flip': 'long'}), 60)\n"
        "manager.cancel(job.id)\n"
        "print(job.state, job.process.exitcode)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    state, code = done.stdout.split()
    assert state == "cancelled" and int(code) != -signal.SIGKILL, done.stdout + done.stderr


def test_the_pages_messages_point_to_the_page_not_to_a_command(client):
    """'terragen validate lists them all' is no help to someone on the page."""
    r = post(client, "/api/upload", {"text": "map:\n  5Q3 4A9\n", "name": "bad.txt"})
    assert r.status_code == 400 and "terragen validate" not in r.get_json()["error"]
    data = layout_data()
    data["cells"][0]["level"] = 99
    r = post(client, "/api/jobs/simulate", {"layout": data, "options": {"games": 10}})
    said = r.get_json()["error"]  # refused up front: a job started and then failed
    assert r.status_code == 400 and "cannot simulate this board" in said and "terragen validate" not in said
    data = layout_data()
    data["players"] = []
    assert post(client, "/api/jobs/simulate", {"layout": data, "options": {"games": 10}}).status_code == 400


def test_the_page_parses_without_stray_attributes(client):
    """A tooltip quoting a column name in double quotes ended its attribute early: the rest became
    junk attributes ('race,', 'rotating"') and the tooltip was cut short."""
    from html.parser import HTMLParser

    names: list[str] = []

    class Attributes(HTMLParser):
        def handle_starttag(self, tag, attrs):
            names.extend(name for name, _ in attrs)

    Attributes().feed(client.get("/").get_data(as_text=True))
    assert names and all(re.fullmatch(r"[a-z][a-z0-9-]*", name) for name in names), names


def test_a_job_that_sends_its_result_and_ends_between_two_looks_is_done_not_failed():
    """The manager looks at the pipe, then at whether the process lives; a job that sent its result
    and ended in between was called 'stopped unexpectedly' and its result lost (found in review)."""
    from terragen.web.jobs import Job, JobManager

    class Pipe:  # empty at the first look, the result there by the second
        def __init__(self) -> None:
            self.looks = 0

        def poll(self) -> bool:
            self.looks += 1
            return self.looks == 2

        def recv(self) -> tuple:
            return ("done", "the result")

        def close(self) -> None:
            pass

    class Ended:
        def is_alive(self) -> bool:
            return False

        def join(self, timeout: float | None = None) -> None:
            pass

    job = Job("j1", "tab", "generate", Ended(), Pipe(), started=0.0, deadline=float("inf"))
    manager = JobManager()
    manager.jobs[job.id] = job
    assert manager.running() == 0
    assert job.state == "done" and job.result == "the result" and job.error is None


def test_the_pages_simulate_options_read_as_the_command_lines():
    """Policy names in any case, as `simulate --policy` takes them (the page refused GREEDY); the
    variants offered are the simulator's own, less the plain rules."""
    from terragen.web.api import VARIANT_CANDIDATES, check_simulate

    assert check_simulate({"policy": "GREEDY,Expert"})["policy"] == "GREEDY,Expert"
    assert "no-interactions" in VARIANT_CANDIDATES and "teams" in VARIANT_CANDIDATES and "standard" not in VARIANT_CANDIDATES


def test_check_names_the_errors_for_which_the_seats_figures_are_left_out(client):
    """A seat with no destination left the page's seats table with its headers only, without a word."""
    data = layout_data()
    assert post(client, "/api/check", {"layout": data}).get_json()["skipped_by"] == []
    data["players"].append({"seat": 4, "corner": 2, "destinations": []})
    answer = post(client, "/api/check", {"layout": data}).get_json()
    assert answer["report"]["players"] == [] and answer["report"]["analysis"] == "skipped"
    assert answer["skipped_by"] == ["destination-count"]


def test_generates_kit_hint_points_to_the_print_tab_unless_another_piece_set_needs_the_command():
    from terragen.web.tasks import summary_for_page

    lines = ["board: radius 4", "written: /tmp/terragen-web-x/board/board.json, board.txt, board.svg",
             "to print its build sheet: terragen render /tmp/terragen-web-x/board/board.json",
             "to print a kit with its board and pieces: terragen kit terrain --radius 4"]
    assert summary_for_page(lines) == [
        "board: radius 4", "to print its build sheet: Print tab → Build sheet PDF",
        "to print a kit with its board and pieces: Print tab → Make kit (The Terrain Game; its board sheets take "
        "this board's radius)"]
    other = "to print a kit with its board and pieces: terragen kit terrain --inventory extended"
    assert summary_for_page([other]) == [other]


def test_simulate_job_gives_each_seats_figures_as_the_command_prints_them(client):
    """The page rounded the report's 0.6225 (itself rounded) again and showed 62.3% where the command
    printed 62.2%: the job now gives the command's own strings."""
    from types import SimpleNamespace

    from terragen.terrain.sim.stats import SeatStats
    from terragen.web.tasks import shown_rates

    r = post(client, "/api/jobs/simulate", {"layout": layout_data("two-players.txt"), "options": {"games": 60, "seed": 4}})
    job = wait_job(client, r.get_json()["id"])
    rows = [re.findall(r"\d+\.\d%", line) for line in job["result"]["lines"] if re.match(r"^\s+\d+\s", line)]
    for row, shown in zip(rows, job["result"]["shown"], strict=True):  # rate, interval, fair share
        assert [shown["win_rate"], *shown["ci95"], shown["fair"]] == row, (row, shown)
    seat = SeatStats(0, "greedy", 62249, 100000, 0.5)  # a rate of 0.62249: 0.6225 in the report
    assert shown_rates(SimpleNamespace(seats=[seat]))[0]["win_rate"] == "62.2%"
    assert seat.to_json()["win_rate"] == 0.6225


def test_info_gives_the_default_games_for_each_seat_count():
    """The page's 'Games to play' said only 'default'."""
    from terragen.terrain.sim.runner import DEFAULT_MARGIN, default_games
    from terragen.web.api import info

    sim = info()["simulate"]
    assert sim["default_games"] == {str(n): default_games(n, DEFAULT_MARGIN, n) for n in range(2, 7)}
    assert set(sim["pace"]) == set(sim["policies"]) and all(v > 0 for v in sim["pace"].values())


def test_info_names_each_kits_game_as_its_sheets_do():
    """The kit list showed the ids (terrain, terrace, ...), not the games' names."""
    from terragen.web.api import info

    assert info()["kit_names"] == {"terrain": "The Terrain Game", "terrace": "Terrace",
                                   "terralogical": "Terralogical", "terraflip": "TerraFlip"}


@pytest.mark.parametrize("name, saved, plain", [("weird%20name.txt", "weird%20name-build.pdf", "weird_20name-build.pdf"),
                                                (".json", "board-build.pdf", "board-build.pdf")])
def test_a_build_sheet_download_name_survives_clients_and_is_never_hidden(client, name, saved, plain):
    """'a%20b' went as a plain filename, which some clients decode to 'a b'; a file called '.json'
    gave '.json-build.pdf', a hidden file."""
    from urllib.parse import quote

    r = post(client, "/api/jobs/build-sheet", {"layout": layout_data(), "paper": "a4", "name": name})
    job = wait_job(client, r.get_json()["id"])
    assert job["state"] == "done" and job["files"] == [saved], job
    said = client.get(f"/api/jobs/{job['id']}/files/{quote(saved)}").headers["Content-Disposition"]
    assert said.startswith(f'attachment; filename="{plain}"'), said
    assert plain == saved or said.endswith(f"filename*=UTF-8''{quote(saved, safe='')}"), said


def test_a_batch_scenario_opened_on_the_page_is_checked_as_its_puzzle(client, tmp_path):
    """terragen validate calls a scenario valid; the page called the same file INVALID for its one
    player and gave no seat figures."""
    from terragen.terrain.puzzles.batch import run_batch

    run_batch(1, "route", "easy", 1, tmp_path / "b", workers=1)
    (scenario,) = (tmp_path / "b" / "scenarios").glob("*.json")
    opened = post(client, "/api/upload", {"text": scenario.read_text(), "name": scenario.name}).get_json()
    assert opened["puzzle"] is True
    checked = post(client, "/api/check", {"layout": opened["layout"], "puzzle": True}).get_json()
    assert checked["report"]["valid"] and not checked["skipped_by"], checked["report"]["errors"]
    plain = post(client, "/api/check", {"layout": opened["layout"]}).get_json()  # not said: the whole game's rules
    assert [e["code"] for e in plain["report"]["errors"]] == ["player-count"]
    board = post(client, "/api/upload", {"text": examples("two-players.txt").read_text(), "name": "t.txt"}).get_json()
    assert board["puzzle"] is False


@pytest.mark.parametrize("path, body, key", [
    ("/api/check", {"layout": None, "puzzle": "yes"}, "puzzle"),
    ("/api/upload", {"text": "radius: 1", "name": 5}, "name"),
    ("/api/jobs/build-sheet", {"layout": None, "name": ["board"]}, "name"),
])
def test_a_wrong_type_of_a_side_value_is_a_400_naming_it(client, path, body, key):
    """"puzzle": "yes" was read as false and a number for a name as no name, with a 200."""
    body = {**body, "layout": layout_data()} if "layout" in body else body
    res = post(client, path, body, headers={"X-Terragen-Tab": TAB})
    assert res.status_code == 400 and f"'{key}' must be" in res.get_json()["error"], res.get_json()


def test_the_check_tells_work_not_yet_done_from_a_mistake():
    """A new board came back as three errors, drawn in red, before the user touched it."""
    from terragen.web.api import check, empty_layout

    layout = empty_layout(3)["layout"]
    result = check(layout)
    codes = [f["code"] for f in result["report"]["errors"]]
    assert codes == ["cell-missing", "destination-count", "destination-count"] and result["to_do"] == [0, 1, 2]
    # a level out of range is a mistake; a seat with four destinations too, unlike the seat with none
    layout["cells"] = [{"q": 0, "r": 0, "level": 9, "pattern": "A", "rotation": 0}]
    layout["players"][0]["destinations"] = [{"q": 1, "r": 0}, {"q": 2, "r": 0}, {"q": 0, "r": 1}, {"q": 0, "r": 2}]
    result = check(layout)
    errors = result["report"]["errors"]
    pending = {(errors[i]["code"], errors[i]["message"].split(";")[0]) for i in result["to_do"]}
    assert ("destination-count", "seat 1 has 0 destinations") in pending
    assert not any(code == "destination-count" and msg.startswith("seat 0") for code, msg in pending)
    assert all(errors[i]["code"] in ("cell-missing", "destination-count", "destination-off-board")
               for i in result["to_do"])
    assert any(f["code"] == "level-out-of-range" for i, f in enumerate(errors) if i not in result["to_do"])


def test_destinations_placed_before_their_pieces_are_work_to_do_but_one_off_the_board_is_a_mistake():
    """Placing the destinations first turned a board still being built red."""
    from terragen.web.api import check

    layout = layout_data("two-players.txt")
    kept = [c for c in layout["cells"] if (c["q"], c["r"]) != (1, 0)]
    waiting = {**layout, "cells": kept,
               "players": [{**layout["players"][0], "destinations": [{"q": 1, "r": 0}]}, *layout["players"][1:]]}
    result = check(waiting)
    errors = result["report"]["errors"]
    assert {errors[i]["code"] for i in result["to_do"]} >= {"cell-missing", "destination-off-board"}
    assert len(result["to_do"]) == len(errors), errors  # nothing but work still to do
    off = {**waiting, "players": [{**waiting["players"][0], "destinations": [{"q": 9, "r": 0}]}, *layout["players"][1:]]}
    result = check(off)
    errors = result["report"]["errors"]
    assert any(f["code"] == "destination-off-board" for i, f in enumerate(errors) if i not in result["to_do"])


def test_the_page_plays_team_play_with_the_default_partners_and_says_where_it_cannot(client):
    """Team play was left off the page (no list of teams to give); with the default partners on
    neighbouring corners it plays as 'terragen simulate --variant teams' does."""
    from terragen.terrain.files import load_layout
    from terragen.terrain.sim.runner import simulate_layout
    from terragen.terrain.sim.variants import rules_from_names

    options = {"games": 40, "seed": 5, "variants": ["teams"]}
    r = post(client, "/api/jobs/simulate", {"layout": layout_data(), "options": options})
    assert r.status_code == 200, r.get_json()
    rep = wait_job(client, r.get_json()["id"])["result"]["report"]
    layout = load_layout(examples("four-players.json"))
    corners = [p.corner for p in sorted(layout.players, key=lambda p: p.seat)]
    rules = rules_from_names(["teams"], 4, corners=corners)
    assert rep == json.loads(json.dumps(simulate_layout(layout, games=40, seed=5, rules=rules).to_json()))
    assert "teams 0+1,2+3" in rep["variant"]
    r = post(client, "/api/jobs/simulate", {"layout": layout_data("two-players.txt"), "options": options})
    said = r.get_json()["error"]
    assert r.status_code == 400 and "for 4 or 6 seats (this board has 2)" in said and "--teams'" in said, said


def test_the_page_knows_team_plays_default_games(client):
    """The page's hint showed the seats' own default (10,890 for six) where the command plays the
    teams' (17,424 for three teams)."""
    from terragen.terrain.sim.runner import default_games

    sim = client.get("/api/info").get_json()["simulate"]
    assert sim["default_team_games"] == {"4": default_games(2, 0.025, 4), "6": default_games(3, 0.025, 6)}
    assert sim["default_team_games"]["6"] == 17424


def test_no_chances_badge_while_a_seat_has_no_route():
    """A board of two pieces showed a red "chances far from even" beside its own "unfinished": a seat
    with no route wins no race of lone tokens, which says nothing about the board yet."""
    from terragen.web.api import check, empty_layout

    layout = empty_layout(5)["layout"]  # two players on opposite corners
    layout["cells"] = [{"q": 5, "r": -5, "level": 1, "pattern": "A", "rotation": 0},
                       {"q": -5, "r": 5, "level": 1, "pattern": "A", "rotation": 0}]
    layout["players"][0]["destinations"] = [{"q": 5, "r": -5}]
    layout["players"][1]["destinations"] = [{"q": -5, "r": 5}]
    result = check(layout)
    assert result["chances"] is None
    assert any(line.startswith("chances: not judged while a seat has no route") for line in result["summary"])
    assert check(layout_data("two-players.txt"))["chances"] == "far"  # a whole board still gets its badge


def test_a_job_no_page_asks_about_makes_room_when_the_server_is_full():
    """A browser killed with two jobs running said nothing: they ran on to their time limit, and
    every other tab was told the server was full."""
    from terragen.web.api import check_simulate
    from terragen.web.jobs import ABANDONED_SECONDS, Busy, Job, JobManager

    class Quiet:  # a running job's pipe and process that nothing has been heard from
        stopped = False

        def poll(self) -> bool:
            return False

        def close(self) -> None:
            pass

        def is_alive(self) -> bool:
            return not self.stopped

        def terminate(self) -> None:
            self.stopped = True

        kill = terminate

        def join(self, timeout: float | None = None) -> None:
            pass

    manager = JobManager(max_running=1)
    now = time.monotonic()
    quiet = Quiet()
    asked = Job("j-asked", "tab-a", "generate", quiet, quiet, started=now, deadline=float("inf"), seen=now)
    manager.jobs[asked.id] = asked
    args = (layout_data("two-players.txt"), check_simulate({"games": 20}))
    try:
        with pytest.raises(Busy):  # a job its page still asks about keeps its place
            manager.start("tab-b", "simulate", args, 60)
        asked.seen = now - ABANDONED_SECONDS - 1  # its page went silent
        job = manager.start("tab-b", "simulate", args, 60)
        assert asked.state == "cancelled" and quiet.stopped and "no page asked about this job" in asked.error["error"]
        assert manager.get(job.id).state in ("running", "done")
    finally:
        manager.shutdown()
    # room for one job is what is wanted: only the job silent longest goes
    manager = JobManager(max_running=2)
    older, newer = Quiet(), Quiet()
    for name, pipe, silent in (("j-older", older, 400), ("j-newer", newer, 200)):
        manager.jobs[name] = Job(name, name, "generate", pipe, pipe, started=now, deadline=float("inf"),
                                 seen=now - silent)
    try:
        manager.start("tab-c", "simulate", args, 60)
        assert older.stopped and not newer.stopped and manager.jobs["j-newer"].state == "running"
    finally:
        manager.shutdown()

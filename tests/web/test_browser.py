"""The whole page in headless Chromium: generate, edit, see the error, fix it, simulate, download.

One browser session drives the flow of a user; screenshots go to
``$TERRAGEN_SCREENSHOTS`` (or a pytest temporary folder) so a person can look at them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.web.conftest import ROOT

@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("TERRAGEN_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def wait(driver, condition, timeout: float = 60.0, what: str = "condition"):
    """Poll ``condition(driver)`` until it is truthy; fail naming ``what`` and the browser's errors."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition(driver)
        if value:
            return value
        time.sleep(0.1)
    logs = [e["message"] for e in driver.get_log("browser")]
    raise AssertionError(f"timed out waiting for {what}; browser log: {logs}")


def js(driver, script: str, *args):
    return driver.execute_script(script, *args)


def checked(driver) -> dict | None:
    """The page's check of the layout it shows now (None while an edit waits for its check)."""
    return js(driver, "const s = window.terragen;"
                      "return (s && s.check && s.checkedFor === JSON.stringify(s.layout)) ? s.check : null;")


def cell_classes(driver, q: int, r: int) -> str:
    return js(driver, "const g = document.querySelector(`g.cell[data-q='${arguments[0]}'][data-r='${arguments[1]}']`);"
                      "return g ? g.getAttribute('class') : '';", q, r)


def click_cell(driver, q: int, r: int) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f"g.cell[data-q='{q}'][data-r='{r}'] polygon.top").click()


def press(driver, keys: str, ctrl: bool = False) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    chain = ActionChains(driver)
    if ctrl:
        chain = chain.key_down(Keys.CONTROL).send_keys(keys).key_up(Keys.CONTROL)
    else:
        chain = chain.send_keys(keys)
    chain.perform()


def downloaded(driver, name: str, timeout: float = 60.0) -> Path:
    path = driver.download_dir / name
    wait(driver, lambda d: path.exists() and path.stat().st_size > 0 and not (driver.download_dir / (name + ".crdownload")).exists(),
         timeout, f"download of {name}")
    return path


def test_whole_flow(server, browser, shots):
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.url)
    wait(d, lambda d: js(d, "return document.body.dataset.ready === '1'"), 30, "the page to load")
    wait(d, checked, 30, "the first check")
    assert "INVALID" in d.find_element(By.ID, "verdict").text  # an empty board has no pieces yet
    d.save_screenshot(str(shots / "01-empty.png"))

    # on the empty board, typing places a piece: level, then pattern, then a turn
    click_cell(d, 1, -2)
    press(d, "4")
    press(d, "b")
    press(d, "r")
    wait(d, lambda d: "empty" not in cell_classes(d, 1, -2) and checked(d), 20, "the new piece's check")
    assert js(d, "return window.terragen.layout.cells") == [{"q": 1, "r": -2, "level": 4, "pattern": "B", "rotation": 1}]
    assert "4B" in d.find_element(By.CSS_SELECTOR, "g.cell[data-q='1'][data-r='-2'] text.label").text

    # open a hand-typed layout file: the page shows what terragen validate says about it
    from terragen.templates import template_path

    example = Path(str(template_path("terrain", "examples", "two-players.txt")))
    upload = d.find_element(By.ID, "upload")
    js(d, "arguments[0].hidden = false;", upload)
    upload.send_keys(str(example))
    report = wait(d, lambda d: (c := checked(d)) and len(c["board"]["cells"]) == 91 and c, 30, "the uploaded board")["report"]
    from terragen.terrain.files import load_layout
    from terragen.terrain.validation import validate_layout

    assert report == json.loads(json.dumps(validate_layout(load_layout(example)).to_json()))
    assert "valid" in d.find_element(By.ID, "verdict").text

    # generate a small board through the form; it opens in the editor
    d.find_element(By.CSS_SELECTOR, ".tabs button[data-tab='generate']").click()
    form = d.find_element(By.ID, "generate-form")
    form.find_element(By.NAME, "players").send_keys("2")
    from selenium.webdriver.support.ui import Select

    Select(form.find_element(By.NAME, "difficulty")).select_by_value("easy")
    form.find_element(By.NAME, "seed").send_keys("3")
    for quick in form.find_elements(By.NAME, "balance_games"):  # a short balance check keeps the test fast
        quick.send_keys("200")
    # an option on by default, unticked, reaches the command as off (it once was left out, so stayed on)
    glance = form.find_element(By.NAME, "expert_glance")
    assert glance.is_selected() and not form.find_element(By.NAME, "check_experts").is_selected()
    glance.click()
    js(d, "window.sent = []; const real = window.fetch;"
          "window.fetch = (path, init) => { if (init && init.body) window.sent.push([path, JSON.parse(init.body)]);"
          " return real(path, init); };")
    d.find_element(By.ID, "generate").click()
    options = wait(d, lambda d: js(d, "return window.sent.find((s) => s[0] === '/api/jobs/generate')"), 20,
                   "the generate request")[1]["options"]
    assert options["expert_glance"] is False and "check_experts" not in options
    wait(d, lambda d: d.find_element(By.ID, "generate-summary").text, 120, "the generated board")
    report = wait(d, lambda d: (c := checked(d)) and js(d, "return !!window.terragen.layout.meta") and c, 30,
                  "the generated board's check")["report"]
    assert report["valid"] and report["errors"] == []
    assert len(report["players"]) == 2 and all(p["expected_turns"] for p in report["players"])
    d.save_screenshot(str(shots / "02-generated.png"))

    # a long job shows its progress and Cancel stops it; the board stays as it was
    before = js(d, "return JSON.stringify(window.terragen.layout)")
    form.find_element(By.NAME, "players").clear()
    form.find_element(By.NAME, "players").send_keys("6")
    Select(form.find_element(By.NAME, "difficulty")).select_by_value("brutal")
    d.find_element(By.ID, "generate").click()
    wait(d, lambda d: d.find_element(By.ID, "jobbar").is_displayed(), 20, "the progress bar")
    assert "generate" in d.find_element(By.ID, "job-text").text
    d.find_element(By.ID, "job-cancel").click()
    wait(d, lambda d: not d.find_element(By.ID, "jobbar").is_displayed(), 20, "the job to stop")
    assert "cancelled" in d.find_element(By.ID, "toast").text
    assert js(d, "return JSON.stringify(window.terragen.layout)") == before

    # edit a cell: level 9 does not exist, the check marks that very cell
    layout = js(d, "return window.terragen.layout")
    target = next(c for c in layout["cells"] if (c["q"], c["r"]) == (0, 0))
    click_cell(d, 0, 0)
    assert "selected" in cell_classes(d, 0, 0)
    d.find_element(By.CSS_SELECTOR, ".tabs button[data-tab='edit']").click()
    for _ in range(2):  # the keys still reach the board after a click on the "inverted" box (focus stays on it)
        d.find_element(By.ID, "inverted").click()
    press(d, "9")
    wait(d, lambda d: "error" in cell_classes(d, 0, 0), 20, "the error to appear on cell (0,0)")
    # the line under the board follows the edit of the cell under the pointer (left there by the click)
    wait(d, lambda d: "level 9" in d.find_element(By.ID, "hover-info").text, 20, "the hover line on (0,0)")
    findings = d.find_elements(By.CSS_SELECTOR, "#findings li.error")
    assert any(f.get_attribute("data-code") == "level-out-of-range" and "(0,0)" in f.text for f in findings)
    assert "INVALID" in d.find_element(By.ID, "verdict").text
    d.save_screenshot(str(shots / "03-error-on-cell.png"))

    # fix it: the original level again, and the error clears
    press(d, str(target["level"]))
    wait(d, lambda d: "error" not in cell_classes(d, 0, 0) and (c := checked(d)) and c["report"]["valid"], 20,
         "the error on (0,0) to clear")
    assert not d.find_elements(By.CSS_SELECTOR, "#findings li.error")

    # R turns the piece one step: the server's exits (the pips drawn) turn with it; Shift-R turns it back
    def exits_at(d, q=0, r=0):
        c = checked(d)
        return c and next(cell["exits"] for cell in c["board"]["cells"] if (cell["q"], cell["r"]) == (q, r))

    before = wait(d, exits_at, 20, "the exits of (0,0)")
    press(d, "r")
    turned = wait(d, lambda d: (e := exits_at(d)) and e != before and e, 20, "the piece to turn")
    assert sorted(turned) == sorted((x + 1) % 6 for x in before)
    assert len(d.find_elements(By.CSS_SELECTOR, "g.cell[data-q='0'][data-r='0'] circle.pip")) == len(turned)
    press(d, "R")
    wait(d, lambda d: exits_at(d) == before, 20, "the piece to turn back")

    # undo brings the error back, redo removes it again: history works through the same check
    for _ in range(3):  # undo Shift-R, R and the fix
        press(d, "z", ctrl=True)
    wait(d, lambda d: "error" in cell_classes(d, 0, 0), 20, "undo to restore the bad level")
    press(d, "y", ctrl=True)
    wait(d, lambda d: "error" not in cell_classes(d, 0, 0) and (c := checked(d)) and c["report"]["valid"], 20, "redo")
    assert js(d, "return window.terragen.redo.length") == 2

    # cheapest routes on demand, and the 3D view
    d.find_element(By.ID, "show-routes").click()
    wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "polyline.route")) == 2, 10, "two routes drawn")
    d.find_element(By.ID, "view-3d").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "g.board3d polygon.wall"), 10, "the 3D view")
    d.save_screenshot(str(shots / "04-3d-routes.png"))
    d.find_element(By.ID, "view-3d").click()

    # simulate: win rates with intervals and the verdicts
    d.find_element(By.CSS_SELECTOR, ".tabs button[data-tab='simulate']").click()
    games = d.find_element(By.CSS_SELECTOR, "#simulate-form input[name='games']")
    games.clear()
    games.send_keys("120")
    d.find_element(By.ID, "simulate").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#simulate-result table.sim tbody tr"), 120, "simulation results")
    rows = d.find_elements(By.CSS_SELECTOR, "#simulate-result table.sim tbody tr")
    assert len(rows) == 2
    verdict = d.find_element(By.CSS_SELECTOR, "#simulate-result .verdict[data-what='playable']").text
    assert verdict in ("PLAYABLE", "NOT PLAYABLE")
    balance = d.find_elements(By.CSS_SELECTOR, "#simulate-result .verdict[data-what='balanced']")
    assert not balance or balance[0].text in ("BALANCED", "NOT BALANCED")
    assert "%" in rows[0].text and "–" in rows[0].text  # a rate and its interval
    d.save_screenshot(str(shots / "05-simulated.png"))
    # a number the server refuses (2.7 games) is not cut to 2 by the page, and the last table goes
    games.clear()
    games.send_keys("2.7")
    d.find_element(By.ID, "simulate").click()
    note = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#simulate-result p.note.error"), 20, "the refusal")[0]
    assert "whole number" in note.text and not d.find_elements(By.CSS_SELECTOR, "#simulate-result table.sim")
    refused = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]  # the one expected 400
    assert len(refused) == 1 and "/api/jobs/simulate" in refused[0] and "400" in refused[0], refused

    # download the layout as JSON: terragen validate --json says exactly what the page said
    page_report = checked(d)["report"]
    d.find_element(By.ID, "download-json").click()
    board = downloaded(d, "board.json")
    assert json.loads(board.read_text())["cells"] == sorted(js(d, "return window.terragen.layout")["cells"],
                                                            key=lambda c: (c["r"], c["q"]))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cli = subprocess.run([sys.executable, "-m", "terragen", "validate", "--json", str(board)],
                         capture_output=True, text=True, env=env, timeout=60)
    assert cli.returncode == 0, cli.stderr
    said = json.loads(cli.stdout)
    assert set(said) - set(page_report) <= {"file", "readable"}  # what the CLI adds about the file it read
    assert {k: said[k] for k in page_report} == page_report

    # the build sheet as a PDF
    d.find_element(By.CSS_SELECTOR, ".tabs button[data-tab='print']").click()
    d.find_element(By.ID, "build-sheet").click()
    sheet = downloaded(d, "board-build.pdf")
    assert sheet.read_bytes().startswith(b"%PDF")
    d.save_screenshot(str(shots / "06-print.png"))
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors

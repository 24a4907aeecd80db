"""Take the screenshot of ``terragen serve`` shown in docs/web.md (rerun after changing the page).

Starts the server on a free port, drives Debian's headless chromium through a
generated 4-player board with its routes and a simulation, and writes the PNG.

    python tools/web_screenshot.py [OUT.png]     (default docs/web.png)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from terragen.web.server import Server


def wait_for(driver, script: str, timeout: float = 300.0) -> None:
    end = time.monotonic() + timeout
    while not driver.execute_script(script):
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for: {script}")
        time.sleep(0.2)


def main(out: Path) -> None:
    server = Server(port=0)
    server.start_thread()
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,960", "--force-device-scale-factor=1"):
        opts.add_argument(arg)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        d.get(server.url)
        wait_for(d, "return document.body.dataset.ready === '1'")
        d.find_element(By.CSS_SELECTOR, ".tabs button[data-tab='generate']").click()
        form = d.find_element(By.ID, "generate-form")
        form.find_element(By.NAME, "players").send_keys("4")
        Select(form.find_element(By.NAME, "difficulty")).select_by_value("medium")
        form.find_element(By.NAME, "seed").send_keys("1")
        d.find_element(By.ID, "generate").click()
        wait_for(d, "const s = window.terragen; return s.layout.meta && s.checkedFor === JSON.stringify(s.layout)")
        d.find_element(By.ID, "show-routes").click()
        d.find_element(By.CSS_SELECTOR, "g.cell[data-q='1'][data-r='-1'] polygon.top").click()
        d.find_element(By.CSS_SELECTOR, ".tabs button[data-tab='simulate']").click()
        games = d.find_element(By.CSS_SELECTOR, "#simulate-form input[name='games']")
        games.clear()
        games.send_keys("2000")
        d.find_element(By.ID, "simulate").click()
        wait_for(d, "return document.querySelectorAll('#simulate-result table.sim tbody tr').length > 0")
        d.execute_script("document.getElementById('toast').hidden = true;")
        out.parent.mkdir(parents=True, exist_ok=True)
        d.save_screenshot(str(out))
        print(f"screenshot written to {out}")
    finally:
        d.quit()
        server.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/web.png"))

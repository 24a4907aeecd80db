"""Fixtures for the web app: the Flask test client, a real server on a free port, headless Chromium."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("flask", reason="the web extra (flask) is not installed")
pytest.importorskip("waitress", reason="the web extra (waitress) is not installed")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "templates" / "terrain" / "examples"
CHROMIUM = os.environ.get("TERRAGEN_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("TERRAGEN_CHROMEDRIVER", "/usr/bin/chromedriver")
TAB = "test-tab-0001"


@pytest.fixture()
def client():
    from terragen.web.app import create_app

    app = create_app(hosts={"localhost"})
    with app.test_client() as c:
        yield c
    app.extensions["terragen_jobs"].shutdown()


@pytest.fixture(scope="module")
def server():
    from terragen.web.server import Server

    srv = Server(port=0)
    srv.start_thread()
    yield srv
    srv.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Debian's chromium, headless, downloading into a fresh folder (``browser.download_dir``)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).exists() or shutil.which(path)):
            pytest.skip(f"{path} not found: install Debian's chromium and chromium-driver to run the browser tests")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path_factory.mktemp("downloads")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--force-device-scale-factor=1", "--lang=en-GB"):
        opts.add_argument(arg)
    opts.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                           "download.prompt_for_download": False})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # a page that asks before it is left (unsaved edits, a running job) must not hold up the next test
    opts.set_capability("unhandledPromptBehavior", "accept")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.download_dir = downloads
    # a page load that never starts (seen now and then in CI, with this page and the one before it
    # alike) ends here after 30 s, where test_browser's navigate() tries once more, instead of holding
    # the driver to its 120 s read timeout and failing the next test too
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()

"""Browser tests: a real uvicorn server on 127.0.0.1 and Debian's headless Chromium driven by Playwright.

They skip, saying why, when Playwright or Chromium is missing (CI installs both).
Screenshots go to artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time

import pytest

CHROMIUM = os.environ.get("SCOUTLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The app under uvicorn in a thread; yields its base URL."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
    from scoutlab.web.app import create_app

    app = create_app(str(tmp_path_factory.mktemp("e2e") / "matches.sqlite3"), bot_delay_ms=40)
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not running.started:
        if time.time() > deadline:
            pytest.fail("uvicorn did not start within 20 s")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install 'scoutlab[e2e]')")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set SCOUTLAB_CHROMIUM)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page_at(browser):
    """`page_at(width)`: a fresh page of that width; page errors and CSP violations fail the test."""
    pages = []

    def make(width: int, height: int = 900):
        page = browser.new_page(viewport={"width": width, "height": height})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        # The server's Content-Security-Policy blocks inline script and style: a page that needs any fails here.
        page.on("console", lambda message: "Content Security Policy" in message.text and errors.append(message.text))
        page.errors = errors
        page.set_default_timeout(30_000)
        pages.append(page)
        return page

    yield make
    for page in pages:
        assert not page.errors, f"the page raised: {page.errors}"
        page.close()

"""The web app under a real browser: the app served by werkzeug on a loopback port, Playwright
driving Debian's Chromium headless (`./install.sh` installs both; nothing is downloaded)."""
from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from tests.arbiter import conftest as arbiter_conftest

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


# How long a page waits for what a test expects before the test fails. A wait ends as soon as the
# page shows it, so this only bounds a failure: Playwright's own 30 s ran out on a passing page
# while four other jobs shared the machine's two cores.
PATIENCE_MS = 120_000


class PatientBrowser:
    """The browser whose pages and contexts wait `PATIENCE_MS` for what a test expects."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_page(self, **kwargs):
        page = self._browser.new_page(**kwargs)
        page.set_default_timeout(PATIENCE_MS)
        return page

    def new_context(self, **kwargs):
        context = self._browser.new_context(**kwargs)
        context.set_default_timeout(PATIENCE_MS)
        return context

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (`./install.sh` installs it): no browser to drive")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield PatientBrowser(browser)
        browser.close()


class Served:
    """The app on 127.0.0.1:<free port> in a thread; stopped when the test ends."""

    def __init__(self, app):
        from werkzeug.serving import make_server

        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


@pytest.fixture
def serve():
    started: list[Served] = []

    def start(app) -> str:
        started.append(Served(app))
        return started[-1].url

    yield start
    for s in started:
        s.stop()


@pytest.fixture
def store(tmp_path):
    from arbiter.store.store import open_store

    s = open_store(tmp_path / "store.db")
    yield s
    s.close()


store_url = arbiter_conftest.store_url  # SQLite, and PostgreSQL under .ci/postgres.sh


@pytest.fixture
def any_store(store_url):
    """The store on SQLite and, when the CI's PostgreSQL is up, on PostgreSQL too."""
    from arbiter.store.store import open_store

    s = open_store(store_url)
    yield s
    s.close()


def sign_in(page, url: str, name: str) -> None:
    """The login form, by keyboard: type the name, Enter."""
    page.goto(f"{url}/login")
    # keys typed before the autofocus lands would go to the page's shortcuts ('a' accepts): wait for it
    page.wait_for_function("document.activeElement && document.activeElement.id === 'name'")
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{url}/queue*")

"""The reference pages in a real Chromium, served by a real HTTP server.

Chromium is Debian's (/usr/bin/chromium), driven by Playwright; the pages
must read on a phone without sideways scrolling, follow references by
plain links, search by a plain form, and break no CSP rule (no console
errors).  Skipped where Chromium is absent, except in CI.
"""

from __future__ import annotations

import pytest

from validator import store
from validator.rulebook import storage
from validator.rulebook.importer import RulebookFile, import_texts
from validator.web import create_app

from .conftest import chromium, require_chromium, serving
from tests.rulebook.samples import SPI_BULLETED

PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path):
    require_chromium()
    database = tmp_path / "referee.sqlite3"
    connection = store.connect(database)
    storage.save(connection, import_texts("tito", [RulebookFile("pond.txt", SPI_BULLETED)]))
    connection.close()
    with serving(create_app({"DATABASE": str(database), "SECRET_KEY": "browser-test"})) as base:
        yield base


@pytest.fixture
def page(server, tmp_path):
    with chromium() as browser:
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.console_errors = []
        page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
        yield page


def test_case_page_reads_on_a_phone_and_links_work(server, page):
    page.goto(f"{server}/tito/rules/2.1")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    unresolved = page.locator("span.unresolved", has_text="2.24")
    assert unresolved.count() == 0  # 2.24 is cited in 2.21, shown on its own page
    page.locator("a.ref", has_text="2.21").first.click()
    page.wait_for_url(f"{server}/tito/rules/2.21")
    assert page.locator("span.unresolved", has_text="2.24").count() >= 1  # in the text and in "links out"
    assert page.locator("a", has_text="2.24").count() == 0
    assert page.console_errors == []


def test_search_form_goes_to_a_case_number(server, page):
    page.goto(f"{server}/tito/rules/")
    page.fill("input[name=q]", "2.12A")
    page.press("input[name=q]", "Enter")
    page.wait_for_url(f"{server}/tito/rules/2.12A")
    assert "unless the heron sleeps" in page.content()
    assert page.console_errors == []

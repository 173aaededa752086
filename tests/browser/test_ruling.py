"""An arbiter's ruling in a real Chromium: sign in, rule on a report's violation, see it on the case page."""

from __future__ import annotations

from contextlib import closing

import pytest

from validator import store
from validator.arbitration import arbiters

from .conftest import chromium, require_chromium, serving
from tests.web import conftest as pages

pytestmark = pytest.mark.browser

PASSWORD = "orchard-keeper"

# The page tests' orchard game and its app, as fixtures of this module.
test_games, checking_games, database_path, book, check_app = (
    pages.test_games, pages.checking_games, pages.database_path, pages.book, pages.check_app)


@pytest.fixture
def site(check_app, database_path):
    """The orchard app over real HTTP, with an arbiter and one stored report; (base URL, report id)."""
    require_chromium()
    with closing(store.connect(database_path)) as connection:
        arbiters.add(connection, "alice", PASSWORD)
    report_id = pages.report_id_of(pages.upload(check_app.test_client(), pages.orchard_save()))
    with serving(check_app) as base:
        yield base, report_id


def test_an_arbiter_rules_on_a_violation_and_the_case_page_lists_the_ruling(site):
    base, report_id = site
    with chromium() as browser:
        page = browser.new_page()
        errors = []
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.goto(f"{base}/reports/{report_id}")
        assert page.locator("a", has_text="Write a ruling").count() == 0  # a player sees no arbiter's link
        page.goto(f"{base}/sign-in?next=/reports/{report_id}")
        page.fill("#name", "alice")
        page.fill("#password", PASSWORD)
        page.click("form.sign-in button")
        page.wait_for_url(f"{base}/reports/{report_id}")
        page.click("text=Write a ruling on this report")
        page.fill("#cases", "2.2")
        page.fill("#decision", "The third token at the gate is a decoy; the stack stands.")
        page.check("#except-1")
        page.fill("#reason-1", "the players agreed on decoys before play")
        page.click("form.ruling button")
        page.wait_for_url(f"{base}/rulings/*")
        ruling_address = page.url.removeprefix(base)
        assert "the stack stands" in page.locator("section.decision").inner_text()
        page.goto(f"{base}/alpha/rules/2.2")
        listed = page.locator("section#rulings a")
        assert listed.count() == 1 and listed.first.get_attribute("href") == ruling_address
        page.goto(f"{base}/reports/{report_id}")
        assert "excepted" in page.locator("li.excepted").inner_text()
        assert errors == []

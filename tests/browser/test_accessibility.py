"""The pages a newcomer meets, in a real Chromium: axe-core finds nothing serious, the keyboard is enough.

axe-core is the copy bundled in the ``axe-playwright-python`` package,
injected with Playwright's ``evaluate``, which the page's
Content-Security-Policy does not govern, so the pages are checked under
their real headers.  The Tito rulebook is the user's own text
(REFEREE_RULEBOOKS), imported as a user would; A World at War is left
unimported, so its pages show the state before import.  The report is made
by sending an example save through the check form.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from validator import store
from validator.rulebook import storage
from validator.rulebook.importer import RulebookFile, import_texts
from validator.web import create_app

from .conftest import chromium, require_chromium, serving

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tito" / "overstacked.xml"
SERIOUS = {"serious", "critical"}
MOST_TABS = 80  # a page whose control is further than this many Tabs away is too long to walk anyway
FOCUS_RING_PIXELS = 2  # the least outline a focused control shows (WCAG 2.4.13 asks for 2 CSS pixels)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory, rulebooks_dir):
    require_chromium()
    folder = tmp_path_factory.mktemp("accessible-site")
    connection = store.connect(folder / "referee.sqlite3")
    text = (rulebooks_dir / "tito-rulebook.txt").read_text(encoding="utf-8")
    storage.save(connection, import_texts("tito", [RulebookFile("tito-rulebook.txt", text)]))
    connection.close()
    app = create_app({
        "DATABASE": str(folder / "referee.sqlite3"), "INSTANCE": str(folder), "SECRET_KEY": "browser-test",
    })
    with serving(app) as base:
        yield base


@pytest.fixture(scope="module")
def browser(site):
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="module")
def report_path(site, browser) -> str:
    """A stored report, made by sending the example save through the check form."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{site}/check")
    page.set_input_files("#save", str(EXAMPLE))
    page.get_by_role("button", name="Check the position").click()
    page.wait_for_url(f"{site}/reports/*")
    path = page.url.removeprefix(site)
    context.close()
    return path


def serious_findings(page) -> list[dict]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [violation for violation in results.response["violations"] if violation["impact"] in SERIOUS]


def described(findings: list[dict]) -> str:
    lines = []
    for finding in findings:
        lines.append(f"{finding['id']} ({finding['impact']}): {finding['help']}")
        for node in finding["nodes"][:5]:
            lines.append(f"    {', '.join(map(str, node['target']))}: {node['html'][:160]}")
    return "\n".join(lines)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/tito/rules/",
        "/awaw/rules/",
        "/tito/rules/6.21",
        "/awaw/rules/11.22",
        "/tito/search?q=stacking",
        "/tito/search?q=",
        "/check",
        "/tito/coverage",
    ],
)
def test_a_page_has_no_serious_accessibility_findings(site, page, path):
    response = page.goto(site + path)
    assert response.status == 200
    findings = serious_findings(page)
    assert findings == [], described(findings)


def test_a_report_and_its_case_page_have_no_serious_accessibility_findings(site, page, report_path):
    for path in (report_path, f"/tito/rules/6.21?report={report_path.rsplit('/', 1)[1]}"):
        assert page.goto(site + path).status == 200
        findings = serious_findings(page)
        assert findings == [], f"{path}:\n{described(findings)}"


def test_the_check_form_with_an_error_has_no_serious_accessibility_findings(site, page, tmp_path):
    not_a_save = tmp_path / "notes.xml"
    not_a_save.write_text("these are notes, not a save\n", encoding="utf-8")
    page.goto(f"{site}/check")
    page.set_input_files("#save", str(not_a_save))
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        page.get_by_role("button", name="Check the position").click()
    assert answer.value.status == 400
    assert page.get_by_role("alert").count() == 1
    findings = serious_findings(page)
    assert findings == [], described(findings)


def focused(page) -> dict:
    """What has the keyboard focus, and the outline it shows."""
    return page.evaluate(
        """() => {
            const element = document.activeElement;
            const style = getComputedStyle(element);
            return {tag: element.tagName.toLowerCase(), id: element.id, text: element.textContent.trim(),
                    name: element.getAttribute("name"), type: element.getAttribute("type"),
                    outline: style.outlineStyle, width: parseFloat(style.outlineWidth)};
        }"""
    )


def tab_until(page, wanted) -> list[dict]:
    """Press Tab until ``wanted(focused)`` holds; every stop on the way is returned."""
    stops = []
    for _ in range(MOST_TABS):
        page.keyboard.press("Tab")
        stops.append(focused(page))
        if wanted(stops[-1]):
            return stops
    visited = [stop["text"] or stop["id"] for stop in stops]
    raise AssertionError(f"Tab never reached the control; it stopped at {visited}")


def assert_focus_is_visible(stops: list[dict]) -> None:
    hidden = [stop for stop in stops if stop["outline"] == "none" or stop["width"] < FOCUS_RING_PIXELS]
    assert hidden == [], f"these controls show no focus outline of {FOCUS_RING_PIXELS}px: {hidden}"


def test_the_keyboard_skips_to_the_content_and_reaches_the_labelled_search_box(site, page):
    page.goto(f"{site}/tito/rules/6.21")
    page.keyboard.press("Tab")
    first = focused(page)
    assert first["tag"] == "a" and "content" in first["text"].lower(), first
    assert_focus_is_visible([first])
    page.keyboard.press("Enter")
    assert focused(page)["tag"] == "main"
    page.keyboard.press("Tab")
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")

    page.goto(f"{site}/tito/rules/6.21")
    stops = tab_until(page, lambda stop: stop["name"] == "q")
    assert_focus_is_visible(stops)
    box = page.get_by_role("searchbox", name="Search the rules or go to a case number")
    assert box.evaluate("element => element === document.activeElement")
    page.keyboard.type("6.22")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{site}/tito/rules/6.22")


def test_the_check_form_is_sent_with_the_keyboard(site, page):
    page.goto(f"{site}/check")
    page.set_input_files("#save", str(EXAMPLE))  # a file chooser is the system's, not the page's
    stops = tab_until(page, lambda stop: stop["tag"] == "button" and stop["type"] == "submit")
    assert_focus_is_visible(stops)
    assert {"save", "game"} <= {stop["name"] for stop in stops}
    page.keyboard.press("Enter")
    page.wait_for_url(f"{site}/reports/*")
    assert page.get_by_role("heading", level=1).inner_text().startswith("Report on overstacked.xml")

"""A log uploaded through the check form in a real Chromium: the report shows the illegal step with both pictures.

The log is a real .vlog written through the sample Tito module, as the command line's log tests write it
(tests/moves/test_logs.py); the browser chooses it and the module in the form's file fields.
"""

from __future__ import annotations

import pytest

from validator.web import create_app

from .conftest import chromium, require_chromium, serving
from sample_modules import tito_log_from_position, tito_module
from tests.moves.test_logs import GAME_TURN_ONE, ROOT, steps_with

pytestmark = pytest.mark.browser


def test_a_log_sent_through_the_form_shows_its_illegal_step_before_and_after(tmp_path):
    require_chromium()
    start = tmp_path / "turn-one.xml"
    start.write_text(GAME_TURN_ONE.format(map=(ROOT / "plugin" / "tito" / "maps" / "tito-map.xml").as_posix()))
    log = tito_log_from_position(start, tmp_path / "moves.vlog", steps_with())
    module = tito_module(tmp_path)
    app = create_app({"INSTANCE": str(tmp_path / "instance"), "SECRET_KEY": "browser-test"})
    with serving(app) as base, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{base}/check")
        page.set_input_files("#save", str(log))
        page.select_option("#game", "tito")
        page.set_input_files("#module", str(module))
        page.get_by_role("button", name="Check the position").click()
        page.wait_for_url(f"{base}/reports/*")
        step = page.locator("#step-2")
        assert step.locator(":scope > h3").inner_text() == (
            "Step 2: Partisan group from Macedonia / Partisan Mountain to Serbia / Partisan Mountain")
        assert step.locator("figure svg").count() == 2
        assert step.locator("figure svg").nth(1).bounding_box()["width"] > 100  # drawn, not collapsed
        assert step.locator("figcaption").all_inner_texts() == [
            "Before step 2", "After step 2: violations numbered as listed above"]
        page.locator("p.verdict a", has_text="step 2").click()
        assert page.url.endswith("#step-2")

"""Re-checking a stored log (judged step by step) or chain of saves: its stored files judged again move by move.

The log is a real .vlog written through the sample Tito module and the chain is our save XML on the Tito map, as
the web's own move tests write them (tests/web/test_check_steps.py, tests/web/test_check_chains.py); the
re-check reads the stored .vlog with its kept module, and the chain's stored zip entry by entry.
"""

from __future__ import annotations

import io
import json
from contextlib import closing
from pathlib import Path

import lxml.html
import pytest

from validator import store
from validator.arbitration import arbiters
from validator.web import create_app

from sample_modules import tito_log_from_position, tito_module
from tests.moves.saves import partisan, tito_save
from tests.moves.test_logs import GAME_TURN_ONE, ROOT, steps_with

PASSWORD = "a long enough password"
TITO_MAP = ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"
MACEDONIA = "macedonia/mountain/partisan"


@pytest.fixture
def client(database_target, tmp_path):
    with closing(store.connect(database_target)) as connection:
        arbiters.add(connection, "marta", PASSWORD)
    app = create_app({"TESTING": True, "DATABASE": str(database_target), "INSTANCE": str(tmp_path / "web"),
                      "SECRET_KEY": "test-only"})
    test_client = app.test_client()
    test_client.database = database_target
    return test_client


def token_of(client, path: str = "/check") -> str:
    return lxml.html.fromstring(client.get(path).data).xpath("//input[@name='csrf_token']/@value")[0]


def sign_in(client) -> None:
    answer = client.post("/sign-in", data={"name": "marta", "password": PASSWORD, "next": "/",
                                           "csrf_token": token_of(client, "/sign-in")})
    assert answer.status_code == 303


def stored_log(client, tmp_path: Path) -> str:
    """A log whose step 2 leaves its zone on Game-Turn 1 (6.63), checked step by step and stored; its id."""
    start = tmp_path / "turn-one.xml"
    start.write_text(GAME_TURN_ONE.format(map=TITO_MAP.as_posix()))
    log = tito_log_from_position(start, tmp_path / "moves.vlog", steps_with()).read_bytes()
    module = tito_module(tmp_path)
    data = {"game": "tito", "save": (io.BytesIO(log), "moves.vlog"),
            "module": (io.BytesIO(module.read_bytes()), "tito-sample.vmod")}
    answer = client.post("/api/check", data=data, content_type="multipart/form-data")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.get_json()["illegal_steps"] == [2]
    return answer.get_json()["id"]


def stored_chain(client, tmp_path: Path) -> str:
    """A chain of three saves, each a Game-Turn or phase before the one it follows (two rewinds); its id."""
    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=5, phase="axis-movement"),
             tito_save(tmp_path / "2.xml", [partisan(MACEDONIA)], turn=5, phase="yugoslav-movement"),
             tito_save(tmp_path / "3.xml", [partisan(MACEDONIA)], turn=4, phase="axis-movement")]
    answer = client.post("/api/check", data={"save": [(io.BytesIO(save.read_bytes()), save.name) for save in saves]},
                         content_type="multipart/form-data")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert [link["legal"] for link in answer.get_json()["links"]] == [False, False]
    return answer.get_json()["id"]


def rechecked(client, report_id: str) -> tuple[dict, lxml.html.HtmlElement]:
    """The re-check as JSON and as the arbiter's page."""
    compared = client.post(f"/reports/{report_id}/recheck.json", data={"csrf_token": token_of(client)})
    assert compared.status_code == 200, compared.get_data(as_text=True)
    page = client.post(f"/reports/{report_id}/recheck", data={"csrf_token": token_of(client)})
    assert page.status_code == 200, page.get_data(as_text=True)
    return compared.get_json(), lxml.html.fromstring(page.data)


def rewritten(client, report_id: str, change) -> None:
    """The stored report JSON changed by ``change``, as an older version might have judged the same files."""
    with closing(store.connect(client.database)) as connection:
        stored = json.loads(connection.execute("SELECT report FROM report WHERE id = ?", (report_id,)).fetchone()[0])
        change(stored)
        stored["checked_with"]["referee_version"] = "0.0.1"
        with store.write_transaction(connection):
            connection.execute("UPDATE report SET report = ? WHERE id = ?", (json.dumps(stored), report_id))


def verdict_of(page) -> str:
    return page.xpath("string(//p[contains(@class, 'recheck-verdict')])")


def test_a_stored_log_rechecked_under_the_same_version_keeps_its_verdict(client, tmp_path):
    report_id = stored_log(client, tmp_path)
    sign_in(client)
    report_page = lxml.html.fromstring(client.get(f"/reports/{report_id}").data)
    assert report_page.xpath("//form[@class='recheck']/@action") == [f"/reports/{report_id}/recheck"]
    compared, page = rechecked(client, report_id)
    assert (compared["kind"], compared["verdict_changed"], compared["illegal_then"], compared["illegal_now"],
            compared["changed"]) == ("log", False, [2], [2], [])
    assert compared["checked_with_now"]["module_sha256"] == compared["checked_with_then"]["module_sha256"]
    assert verdict_of(page) == "The verdict stands: the log is illegal under the current version, every step as before."
    assert page.xpath("string(//table[@class='recheck-illegal']//tr[2]/td[2])") == "2"


def test_a_stored_chain_rechecked_under_the_same_version_keeps_its_verdict(client, tmp_path):
    report_id = stored_chain(client, tmp_path)
    sign_in(client)
    compared, page = rechecked(client, report_id)
    assert (compared["kind"], compared["verdict_changed"], compared["illegal_then"], compared["illegal_now"],
            compared["changed"]) == ("chain", False, [2, 3], [2, 3], [])
    assert compared["start"] == {"legal_then": True, "legal_now": True, "cases_then": [], "cases_now": []}
    assert verdict_of(page) == ("The verdict stands: the chain is illegal under the current version, every save as "
                                "before.")


def test_a_log_an_older_version_found_legal_shows_the_step_that_changed(client, tmp_path):
    report_id = stored_log(client, tmp_path)

    def all_legal(stored):
        stored.update(legal=True, illegal_steps=[])
        for step in stored["steps"]:
            step.update(legal=True, violations=[])

    rewritten(client, report_id, all_legal)
    sign_in(client)
    compared, page = rechecked(client, report_id)
    assert compared["verdict_changed"] and (compared["illegal_then"], compared["illegal_now"]) == ([], [2])
    assert compared["changed"] == [{"index": 2, "legal_then": True, "legal_now": False, "cases_then": [],
                                    "cases_now": ["6.63"]}]
    assert compared["checked_with_then"]["referee_version"] == "0.0.1"
    assert compared["checked_with_now"]["referee_version"] != "0.0.1"
    assert verdict_of(page) == ("The verdict changed: the log was legal and is illegal under the current version "
                                "(0 illegal steps then, 1 illegal step now).")
    (row,) = page.xpath("//table[@class='recheck-changes']/tbody/tr")
    assert row.xpath("th/a/@href") == [f"/reports/{report_id}#step-2"]
    assert [cell.text_content() for cell in row.xpath("td")] == ["legal", "illegal (6.63)"]
    versions = page.xpath("//table[@class='recheck-versions']//tr[th='Referee']/td/code/text()")
    assert versions[0] == "0.0.1" and versions[1] == compared["checked_with_now"]["referee_version"]


def test_a_chain_whose_stored_save_followed_shows_that_save_as_changed(client, tmp_path):
    report_id = stored_chain(client, tmp_path)

    def third_followed(stored):
        stored["links"][1].update(legal=True, breaks=[])

    rewritten(client, report_id, third_followed)
    sign_in(client)
    compared, page = rechecked(client, report_id)
    assert not compared["verdict_changed"] and (compared["illegal_then"], compared["illegal_now"]) == ([2], [2, 3])
    assert compared["changed"] == [{"index": 3, "legal_then": True, "legal_now": False, "cases_then": [],
                                    "cases_now": ["rewind"]}]
    assert verdict_of(page) == ("The verdict stands (illegal), but 1 save changed verdict or cases (1 failing save "
                                "then, 2 failing saves now).")
    assert page.xpath("//table[@class='recheck-changes']/tbody/tr/th/a/@href") == [f"/reports/{report_id}#save-3"]


def test_a_chain_whose_zip_is_gone_is_refused_with_a_sentence(client, tmp_path):
    report_id = stored_chain(client, tmp_path)
    with closing(store.connect(client.database)) as connection:
        (save_file,) = connection.execute("SELECT save_file FROM report WHERE id = ?", (report_id,)).fetchone()
    (Path(client.application.instance_path) / "uploads" / save_file).unlink()
    sign_in(client)
    answer = client.post(f"/reports/{report_id}/recheck.json", data={"csrf_token": token_of(client)})
    assert answer.status_code == 400
    assert "is no longer kept" in answer.get_json()["error"]


def test_a_log_is_rechecked_under_the_house_rules_it_was_judged_under_not_todays(client, tmp_path):
    """A log judged while 6.63 was off stays legal on re-check after the club has dropped that house rule."""
    from validator import kept_house_rules

    cases = ("6.63", "15.4")  # the one check states both cases
    with closing(store.connect(client.database)) as connection:
        for case in cases:
            kept_house_rules.save(connection, "tito", case, "left_zone_in_first_two_turns", "off",
                                  "The club lets units leave their zone on the first turns.", "marta")
    start = tmp_path / "turn-one.xml"
    start.write_text(GAME_TURN_ONE.format(map=TITO_MAP.as_posix()))
    log = tito_log_from_position(start, tmp_path / "moves.vlog", steps_with()).read_bytes()
    data = {"game": "tito", "save": (io.BytesIO(log), "moves.vlog"),
            "module": (io.BytesIO(tito_module(tmp_path).read_bytes()), "tito-sample.vmod")}
    answer = client.post("/api/check", data=data, content_type="multipart/form-data")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    stored = answer.get_json()
    assert (stored["legal"], stored["illegal_steps"]) == (True, [])
    with closing(store.connect(client.database)) as connection:
        for case in cases:
            assert kept_house_rules.remove(connection, "tito", case, "left_zone_in_first_two_turns")
    sign_in(client)
    compared, _ = rechecked(client, stored["id"])
    assert (compared["verdict_changed"], compared["illegal_now"], compared["changed"]) == (False, [], [])

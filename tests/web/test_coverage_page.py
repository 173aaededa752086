"""The coverage page of a game, and what a report page says about coverage and pieces."""

from __future__ import annotations

import json
from pathlib import Path

from validator import store
from validator.games import get

from .conftest import STREAM_CROSSER, STREAM_CROSSER_NAME, html, orchard_save, report_id_of, text_of, upload

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def rows_of(page) -> dict[str, object]:
    return {
        row.xpath("string(th//span[@class='number'])"): row for row in page.xpath("//table[@class='coverage']/tbody/tr")
    }


def test_the_tito_coverage_page_lists_every_case_of_the_index(real_client):
    response = real_client.get("/tito/coverage")
    assert response.status_code == 200
    page = html(response)
    rows = rows_of(page)
    assert list(rows) == [str(entry.number) for entry in get("tito").case_index]
    statuses = {number: row.xpath("string(td[@class='status'])") for number, row in rows.items()}
    assert set(statuses.values()) == {"enforced", "unchecked", "not encoded"}
    assert statuses["6.21"] == "enforced" and statuses["14.3"] == "unchecked" and statuses["8.41"] == "not encoded"
    stacking = rows["6.21"]
    assert stacking.xpath("th/a/@href") == ["/tito/rules/6.21"]
    assert "tito:6.21" in text_of(stacking)
    folder = FIXTURES / "tito" / "6.21"
    passing, failing = len(list(folder.glob("pass-*.xml"))), len(list(folder.glob("fail-*.xml")))
    assert text_of(stacking.xpath("td[@class='fixtures']")[0]) == f"{passing} passing, {failing} failing"
    assert "preceding Yugoslav Movement Phase" in text_of(rows["14.3"])
    summary = text_of(page.xpath("//p[@class='coverage-summary']")[0])
    enforced = sum(1 for status in statuses.values() if status == "enforced")
    assert (
        f"Of the {len(rows)} sections and cases of Referee's case index for this game, {enforced} are enforced"
        in summary
    )


def test_a_case_checked_through_its_lettered_items_or_an_enclosing_case_is_enforced(real_client):
    awaw = rows_of(html(real_client.get("/awaw/coverage")))
    assert awaw["11.32"].xpath("string(td[@class='status'])") == "enforced"
    assert {"awaw:11.32A", "awaw:11.32B"} <= set(awaw["11.32"].xpath(".//ul[@class='checks']/li/code/text()"))
    tww = rows_of(html(real_client.get("/tww/coverage")))
    assert tww["15.3.1"].xpath(".//ul[@class='checks']/li/code/text()") == ["tww:15.3"]
    assert "4 of the 4 cases below it enforced" not in text_of(tww["15.2"])  # enforced itself, no count shown


def test_the_contents_page_links_the_coverage_page_before_import(real_client):
    assert "/tito/coverage" in html(real_client.get("/tito/rules/")).xpath("//a/@href")


def test_the_contents_page_links_the_coverage_page_after_import(client):
    assert "/alpha/coverage" in html(client.get("/alpha/rules/")).xpath("//a/@href")


def test_the_coverage_page_of_an_unknown_game_is_a_404(real_client):
    response = real_client.get("/no-such-game/coverage")
    assert response.status_code == 404
    assert "There is no game called" in html(response).xpath("string(//p[@class='error-message'])")


def test_an_imported_book_gives_the_rows_its_titles(client):
    rows = rows_of(html(client.get("/alpha/coverage")))
    assert text_of(rows["2.2"].xpath("th")[0]) == "2.2 Stacking"
    assert rows["2.2"].xpath("string(td[@class='status'])") == "enforced"


def test_the_report_page_says_what_the_verdict_covers_and_names_pieces(check_client):
    report_id = report_id_of(upload(check_client, orchard_save(extra_pieces=STREAM_CROSSER), name="club game.xml"))
    page = html(check_client.get(f"/reports/{report_id}"))
    note = page.xpath("//p[@class='coverage']")[0]
    # alpha's index holds 1, 2.1 and 2.2; of its checks only the one at 2.2 lands on it.
    assert text_of(note) == (
        "Checked against 1 of the 3 sections and cases of Referee's case index for this game; the other cases are not "
        "checked. "
        "Which cases are checked."
    )
    assert note.xpath("a/@href") == ["/alpha/coverage"]
    pieces = [text_of(span) for span in page.xpath("//section[@class='violations']//span[@class='pieces']")]
    assert pieces == [f"Pieces: {STREAM_CROSSER_NAME}", "Pieces: Token t1, Token t2, Token t3"]
    served = check_client.get(f"/reports/{report_id}.json").get_json()
    assert served["coverage"]["url"] == "http://localhost/alpha/coverage"
    assert served["violations"][0]["piece_names"] == ["Token t1", "Token t2", "Token t3"]


def test_a_report_stored_before_coverage_and_names_still_shows(check_client, database_path):
    report_id = report_id_of(upload(check_client, orchard_save(), name="old.xml"))
    connection = store.connect(database_path)
    try:
        stored = json.loads(connection.execute("SELECT report FROM report WHERE id = ?", (report_id,)).fetchone()[0])
        del stored["coverage"]
        for item in stored["violations"] + stored["findings"]:
            del item["piece_names"]
        with connection:
            connection.execute("UPDATE report SET report = ? WHERE id = ?", (json.dumps(stored), report_id))
    finally:
        connection.close()
    page = html(check_client.get(f"/reports/{report_id}"))
    assert text_of(page.xpath("//p[@class='coverage']")[0]).startswith(
        "This report was stored before Referee recorded how many cases its checks cover"
    )
    assert [text_of(span) for span in page.xpath("//span[@class='pieces']")] == ["Pieces: t1, t2, t3"]


def test_a_report_whose_game_index_could_not_be_read_says_so(check_client, database_path):
    report_id = report_id_of(upload(check_client, orchard_save(), name="unindexed.xml"))
    connection = store.connect(database_path)
    try:
        stored = json.loads(connection.execute("SELECT report FROM report WHERE id = ?", (report_id,)).fetchone()[0])
        stored["coverage"] = None  # what Report.to_json records for a game whose case index cannot be read
        with connection:
            connection.execute("UPDATE report SET report = ? WHERE id = ?", (json.dumps(stored), report_id))
    finally:
        connection.close()
    page = html(check_client.get(f"/reports/{report_id}"))
    assert text_of(page.xpath("//p[@class='coverage']")[0]) == (
        "When this report was made, Referee could not say how many cases its checks cover: "
        "the game's case index could not be read."
    )

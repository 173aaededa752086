"""Stored reports: the permanent page, its JSON, the stored files, the picture."""

from __future__ import annotations

import json

import lxml.etree
import pytest

from validator import store

from .conftest import STREAM_CROSSER, STREAM_CROSSER_NAME, SVG, html, orchard_save, report_id_of, text_of, upload


@pytest.fixture
def report_id(check_client):
    return report_id_of(upload(check_client, orchard_save(extra_pieces=STREAM_CROSSER), name="club game.xml"))


def stored_row(database_path, report_id):
    connection = store.connect(database_path)
    try:
        return dict(connection.execute("SELECT * FROM report WHERE id = ?", (report_id,)).fetchone())
    finally:
        connection.close()


def test_the_header_shows_game_scenario_turn_phase_phasing_and_the_verdict(check_client, report_id):
    page = html(check_client.get(f"/reports/{report_id}"))
    assert text_of(page.xpath("//h1")[0]) == "Report on club game.xml"
    facts = {
        text_of(item.xpath("dt")[0]): text_of(item.xpath("dd")[0])
        for item in page.xpath("//dl[@class='position-facts']/div")
    }
    assert facts["Game"] == "Orchard Raid"
    assert (facts["Scenario"], facts["Game-Turn"], facts["Phase"], facts["Phasing"]) == (
        "harvest", "3", "movement", "red",
    )
    assert text_of(page.xpath("//p[contains(@class, 'verdict')]")[0]) == "2 violations of 2 cases."


def test_violations_are_numbered_as_in_the_report_and_show_message_location_pieces(check_client, report_id):
    page = html(check_client.get(f"/reports/{report_id}"))
    lines = page.xpath("//section[@class='violations']//li")
    shown = [
        (line.xpath("string(span[@class='marker'])"), line.xpath("string(span[@class='where'])")) for line in lines
    ]
    # 2.13A sorts first, but the stacking violation is number 1 in the report and on the picture.
    assert shown == [("2", "South Row / Stream"), ("1", "North Row / Gate")]
    crosser = text_of(lines[0])
    assert f"{STREAM_CROSSER_NAME} moved on past the stream" in crosser
    assert f"Pieces: {STREAM_CROSSER_NAME}" in crosser


def test_findings_are_grouped_by_case_with_their_severity(check_client, report_id):
    section = html(check_client.get(f"/reports/{report_id}")).xpath("//section[@class='findings']")[0]
    groups = section.xpath("section[@class='case-group']")
    assert [group.xpath("h3/a/@href")[0] for group in groups] == [f"/alpha/rules/1.1?report={report_id}"]
    assert text_of(groups[0].xpath("h3")[0]) == "1.1 Scope"
    severities = groups[0].xpath(".//li/span[contains(@class, 'severity')]/text()")
    assert severities == ["unchecked", "info"]
    assert "the weather is not in the save" in text_of(groups[0])


def test_user_text_is_escaped_everywhere_on_the_page(check_client, report_id):
    response = check_client.get(f"/reports/{report_id}")
    body = response.get_data(as_text=True)
    assert "<script>" not in body
    assert "&lt;script&gt;alert(9)&lt;/script&gt;" in body
    page = html(response)
    assert page.xpath("//script | //style | //*[@style] | //*[starts-with(@href, 'javascript:')]") == []


def test_the_json_is_the_stored_report_with_absolute_urls(check_client, report_id, database_path):
    response = check_client.get(f"/reports/{report_id}.json")
    assert response.status_code == 200
    served = response.get_json()
    stored = json.loads(stored_row(database_path, report_id)["report"])
    assert served["violations"][0]["url"] == "http://localhost" + stored["violations"][0]["url"]
    assert served["id"] == report_id
    assert served["report_url"] == f"http://localhost/reports/{report_id}"
    assert served["legal"] is False and served["source"] == "club game.xml"


@pytest.mark.parametrize(
    "report_id",
    ["AAAAAAAAAAAAAAAAAAAAAA", "nothing", "%00", "x" * 5000, "'; DROP TABLE report; --"],
)
def test_an_unknown_report_is_a_404_with_a_sentence(check_client, report_id):
    response = check_client.get(f"/reports/{report_id}")
    assert response.status_code == 404
    message = html(response).xpath("string(//p[@class='error-message'])")
    assert message.startswith("There is no report with the id")
    # The JSON address answers its 404 in JSON, so a program following report_url + ".json" can read it.
    response = check_client.get(f"/reports/{report_id}.json")
    assert response.status_code == 404 and response.mimetype == "application/json"
    assert response.get_json()["error"].startswith("There is no report with the id")


@pytest.mark.parametrize("address", ["/reports/", "/reports"])
def test_the_reports_folder_is_a_404_pointing_at_the_check_form(check_client, address):
    response = check_client.get(address, follow_redirects=True)
    assert response.status_code == 404
    message = html(response).xpath("string(//p[@class='error-message'])")
    assert message.startswith("Reports are not listed: each has its own address")
    assert "/check" in message and "game" not in message


def test_the_check_address_with_a_slash_leads_to_the_form(check_client):
    response = check_client.get("/check/")
    assert response.status_code == 308 and response.headers["Location"].endswith("/check")
    assert check_client.get("/check/", follow_redirects=True).status_code == 200


def test_a_report_address_with_a_path_in_it_is_no_page(check_client):
    response = check_client.get("/reports/..%2F..%2Fsecret_key")
    assert response.status_code == 404
    assert "secret" not in html(response).xpath("string(//main)")


def test_the_upload_is_stored_under_a_generated_name(check_client, check_app, report_id, database_path):
    from pathlib import Path

    row = stored_row(database_path, report_id)
    uploads = Path(check_app.instance_path) / "uploads"
    assert sorted(path.name for path in uploads.iterdir()) == sorted([row["save_file"], row["map_file"]])
    assert row["save_file"] == f"report-{report_id}.save.xml"
    assert "club" not in row["save_file"]
    assert row["source_name"] == "club game.xml"
    assert (uploads / row["save_file"]).read_bytes() == orchard_save(extra_pieces=STREAM_CROSSER)
    assert row["map_origin"] == "shipped" and row["map_name"] == "orchard-map.xml"
    assert (uploads / row["map_file"]).read_text(encoding="utf-8").startswith("<?xml")
    assert (uploads / row["save_file"]).stat().st_mode & 0o077 == 0


def test_a_hostile_file_name_is_only_text(check_client, check_app, database_path):
    response = upload(check_client, orchard_save(), name="../../../etc/passwd\x00<b>.xml")
    report_id = report_id_of(response)
    row = stored_row(database_path, report_id)
    assert row["source_name"] == "passwd\ufffd<b>.xml"
    page = check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    assert "passwd\ufffd&lt;b&gt;.xml" in page


def test_the_page_shows_what_was_stored_and_runs_no_check_on_get(check_client, checking_games, report_id):
    def explode(*arguments):
        raise AssertionError("a report page ran plugin code")

    import dataclasses

    alpha = checking_games["alpha"]
    for registered in alpha.rules.checks():
        object.__setattr__(registered, "function", explode)
    checking_games["alpha"] = dataclasses.replace(alpha, picture=explode)
    response = check_client.get(f"/reports/{report_id}")
    assert response.status_code == 200
    assert "3 tokens" in response.get_data(as_text=True)


def test_the_picture_is_inline_well_formed_svg_marking_the_offending_space(check_client, report_id):
    page = html(check_client.get(f"/reports/{report_id}"))
    svgs = page.xpath("//figure[@class='position-picture']/*[local-name()='svg']")
    assert len(svgs) == 1
    # Re-serialised by the app, the picture parses as XML on its own.
    raw = check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    start, end = raw.index("<svg"), raw.index("</svg>") + len("</svg>")
    picture = lxml.etree.fromstring(raw[start:end].encode())
    assert picture.tag == f"{{{SVG}}}svg"
    marked = picture.xpath("//s:g[s:rect[@class='offending']]", namespaces={"s": SVG})
    assert sorted(group.get("data-location") for group in marked) == ["north/gate", "south/stream"]
    gate = next(group for group in marked if group.get("data-location") == "north/gate")
    assert gate.xpath("string(s:text[@class='badge'])", namespaces={"s": SVG}) == "1"
    texts = "".join(picture.itertext())
    assert STREAM_CROSSER_NAME in texts  # the name is text in the picture, never markup
    assert picture.xpath("//s:script", namespaces={"s": SVG}) == []


def test_a_picture_that_fails_leaves_a_note_and_the_report(check_client, checking_games):
    import dataclasses

    def broken(position, report):
        return "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"

    checking_games["alpha"] = dataclasses.replace(checking_games["alpha"], picture=broken)
    report_id = report_id_of(upload(check_client, orchard_save()))
    page = html(check_client.get(f"/reports/{report_id}"))
    assert page.xpath("//*[local-name()='svg'] | //script") == []
    assert "could not draw a picture" in text_of(page.xpath("//section[@class='picture']")[0])
    assert "3 tokens" in text_of(page.xpath("//section[@class='violations']")[0])


def test_a_game_without_a_picture_shows_no_picture_section(check_client, checking_games):
    import dataclasses

    checking_games["alpha"] = dataclasses.replace(checking_games["alpha"], picture=None)
    report_id = report_id_of(upload(check_client, orchard_save()))
    assert html(check_client.get(f"/reports/{report_id}")).xpath("//section[@class='picture']") == []


def test_a_post_to_a_report_page_is_refused(check_client, report_id):
    assert check_client.post(f"/reports/{report_id}").status_code == 405


def test_ids_are_unique_on_the_report_page(check_client, report_id):
    ids = html(check_client.get(f"/reports/{report_id}")).xpath("//@id")
    assert len(ids) == len(set(ids))

"""POST /api/check: the report as JSON, errors as JSON sentences, the CSRF rule for APIs."""

from __future__ import annotations

import pytest

from validator.web import create_app

from .conftest import STREAM_CROSSER, form_token, orchard_save

RESULT_KEYS = {"rule", "case", "severity", "message", "location", "location_name", "pieces", "url", "facts"}


def api(client, save, *, name="crowded.xml", headers=None, **parts):
    from .conftest import api_upload

    return api_upload(client, save, name=name, headers=headers, **parts)


def test_the_api_answers_the_report_with_200_even_with_violations(check_app):
    response = api(check_app.test_client(), orchard_save(extra_pieces=STREAM_CROSSER))
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    report = response.get_json()
    assert report["legal"] is False
    assert report["game"] == "alpha"
    assert (report["scenario"], report["turn"], report["phase"], report["phasing"]) == (
        "harvest", "3", "movement", "red",
    )
    assert [item["rule"] for item in report["violations"]] == ["alpha:2.2", "alpha:2.13A"]
    assert [item["severity"] for item in report["findings"]] == ["info", "unchecked"]
    for item in report["violations"] + report["findings"]:
        assert RESULT_KEYS <= set(item)
    stacking = report["violations"][0]
    assert stacking["case"] == "2.2"
    assert stacking["severity"] == "error"
    assert stacking["message"] == "3 tokens (Token t1, Token t2, Token t3); the limit is 2"
    assert stacking["location"] == "north/gate"
    assert stacking["location_name"] == "North Row / Gate"
    assert stacking["pieces"] == ["t1", "t2", "t3"]
    assert stacking["url"] == "http://localhost/alpha/rules/2.2"
    assert report["report_url"] == f"http://localhost/reports/{report['id']}"


def test_the_report_url_serves_the_same_report(check_app):
    client = check_app.test_client()
    answered = api(client, orchard_save()).get_json()
    page = client.get(answered["report_url"].removeprefix("http://localhost"))
    assert page.status_code == 200
    stored = client.get(f"/reports/{answered['id']}.json").get_json()
    assert stored == answered


def test_a_legal_position_is_legal_in_json(check_app):
    from .conftest import LEGAL

    report = api(check_app.test_client(), orchard_save(LEGAL)).get_json()
    assert report["legal"] is True
    assert report["violations"] == []


def test_a_bad_upload_is_a_400_with_a_sentence_naming_file_and_line(check_app):
    response = api(check_app.test_client(), b"<?xml version='1.0'?>\n<position>\n<", name="bad.xml")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith("bad.xml, line 3, column")
    assert "not well-formed XML" in error


def test_a_missing_save_part_is_a_400_json(check_app):
    response = api(check_app.test_client(), None, map=(b"<map/>", "m.xml"))
    assert response.status_code == 400
    assert "multipart part named “save”" in response.get_json()["error"]


def test_a_missing_map_names_the_api_part_to_send(check_app):
    response = api(check_app.test_client(), orchard_save(map_part='<map href="club.xml"/>'))
    assert response.status_code == 400
    assert "send it as the API's map part" in response.get_json()["error"]


def test_an_oversized_request_is_a_413_json(checking_games, book, database_path, tmp_path):
    app = create_app(
        {"DATABASE": str(database_path), "INSTANCE": str(tmp_path / "i"), "SECRET_KEY": "t",
         "MAX_CONTENT_LENGTH": 2048}
    )
    response = api(app.test_client(), orchard_save() + b" " * 4096)
    assert response.status_code == 413
    assert "larger than" in response.get_json()["error"]


def test_an_oversized_form_post_is_a_413_page(checking_games, book, database_path, tmp_path):
    from .conftest import html, upload

    app = create_app(
        {"DATABASE": str(database_path), "INSTANCE": str(tmp_path / "i"), "SECRET_KEY": "t",
         "MAX_CONTENT_LENGTH": 2048}
    )
    response = upload(app.test_client(), orchard_save() + b" " * 4096)
    assert response.status_code == 413
    assert "larger than" in html(response).xpath("string(//p[@class='error-message'])")


def test_a_client_with_cookies_must_send_the_token(check_app):
    client = check_app.test_client()
    token = form_token(client)  # the client now holds a session cookie
    refused = api(client, orchard_save())
    assert refused.status_code == 400
    assert "carries cookies must also carry the form's token" in refused.get_json()["error"]
    assert api(client, orchard_save(), headers={"X-CSRF-Token": token}).status_code == 200


def test_a_cookieless_client_needs_no_token(check_app):
    client = check_app.test_client()
    assert api(client, orchard_save()).status_code == 200
    assert api(client, orchard_save(), headers={"Origin": "http://localhost"}).status_code == 200


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://localhost.evil.example"])
def test_a_browser_post_from_another_site_is_refused(check_app, origin):
    response = api(check_app.test_client(), orchard_save(), headers={"Origin": origin})
    assert response.status_code == 400
    assert "another site" in response.get_json()["error"]


def test_get_on_the_api_is_a_405_json(check_app):
    response = check_app.test_client().get("/api/check")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    assert "cannot be used that way" in response.get_json()["error"]


def test_an_unknown_api_address_is_a_404_json(check_app):
    response = check_app.test_client().get("/api/nothing")
    assert response.status_code == 404
    assert response.get_json() == {"error": "There is no page at this address."}


def test_the_game_part_chooses_and_must_agree(check_app):
    client = check_app.test_client()
    assert api(client, orchard_save(), game="alpha").status_code == 200
    refused = api(client, orchard_save(), game="beta")
    assert refused.status_code == 400
    assert "not 'beta'" in refused.get_json()["error"]

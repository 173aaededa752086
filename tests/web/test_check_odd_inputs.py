"""Odd uploads and odd requests: a 400 or 413 with a sentence, never a 500, nothing stored."""

from __future__ import annotations

import io

import pytest

from validator import store

from .conftest import ORCHARD_MAP, html, orchard_save, upload

ODD_SAVES = [
    b"",
    b"\x00\x01\x02\xff" * 100,
    b"PK\x03\x04" + b"\x00" * 100,
    b"<?xml version='1.0'?><!DOCTYPE position [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><position>&x;</position>",
    b"<?xml version='1.0' encoding='klingon'?><position/>",
    b"\xef\xbb\xbf<position xmlns='urn:referee:save:1'/>",
    b"<position xmlns='urn:other'/>",
    ORCHARD_MAP.encode(),
    orchard_save(game="nogame"),
    orchard_save([("t1", "north/nowhere")]),
    orchard_save().replace(b'id="t2"', b'id="t1"'),
    orchard_save().replace(b'type="token"', b'type="token" strength="-3"', 1),
    orchard_save(map_part='<map href="orchard-map.xml"><area id="x"/></map>'),
    b"<" * 100_000,
    "<position>\u202e</position>".encode("utf-16"),
]


def count_reports(database_path) -> int:
    connection = store.connect(database_path)
    try:
        return connection.execute("SELECT count(*) FROM report").fetchone()[0]
    finally:
        connection.close()


@pytest.mark.parametrize("save", ODD_SAVES, ids=range(len(ODD_SAVES)))
def test_odd_saves_get_a_sentence_and_store_nothing(check_client, check_app, database_path, save):
    response = upload(check_client, save, name="odd.xml")
    assert response.status_code == 400, response.status_code
    message = html(response).xpath("string(//p[@class='error-message'])")
    assert message.startswith("odd.xml"), message
    assert "Traceback" not in response.get_data(as_text=True)
    assert count_reports(database_path) == 0
    from pathlib import Path

    uploads = Path(check_app.instance_path) / "uploads"
    assert not uploads.exists() or list(uploads.iterdir()) == []


@pytest.mark.parametrize("save", ODD_SAVES, ids=range(len(ODD_SAVES)))
def test_odd_saves_through_the_api_get_json_sentences(check_app, save):
    response = check_app.test_client().post(
        "/api/check", data={"save": (io.BytesIO(save), "odd.xml")}, content_type="multipart/form-data"
    )
    assert response.status_code == 400
    assert response.get_json()["error"]


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ({}, "multipart/form-data"),
        ({"save": "not a file but a field"}, "multipart/form-data"),
        ("save=plain", "application/x-www-form-urlencoded"),
        ('{"save": "<position/>"}', "application/json"),
        (b"--broken\r\nContent-Disposition: form-data; name=save\r\n", "multipart/form-data; boundary=broken"),
        (b"", "text/plain"),
    ],
)
def test_requests_without_a_file_part_are_400(check_app, data, content_type):
    response = check_app.test_client().post("/api/check", data=data, content_type=content_type)
    assert response.status_code == 400
    assert "No save file was sent" in response.get_json()["error"]


@pytest.mark.parametrize("name", ["", "\x00", "a" * 5000, "../" * 50, "con", "\u202eevil.xml", "C:\\Users\\me\\x.xml"])
def test_odd_file_names_are_shown_as_text_and_never_used(check_client, name):
    response = upload(check_client, orchard_save(), name=name)
    assert response.status_code in (303, 400)
    if response.status_code == 303:
        page = check_client.get(response.headers["Location"])
        assert page.status_code == 200
        assert len(html(page).xpath("string(//h1)")) < 200


def test_a_defect_in_a_check_is_a_400_that_says_it_is_a_bug(check_client, checking_games):
    def broken(position):
        raise ZeroDivisionError("oops")
        yield

    checking_games["alpha"].rules.case("3")(broken)
    response = upload(check_client, orchard_save())
    assert response.status_code == 400
    message = html(response).xpath("string(//p[@class='error-message'])")
    assert message.startswith("crowded.xml: the check alpha:3 (broken) failed on this position")
    assert "bug in the alpha plugin" in message


def test_a_defect_in_a_plugin_while_reading_is_a_400_not_a_500(check_client, checking_games):
    import dataclasses

    def prepare_map(map_data):
        raise KeyError("zone")

    checking_games["alpha"] = dataclasses.replace(checking_games["alpha"], prepare_map=prepare_map)
    response = upload(check_client, orchard_save())
    assert response.status_code == 400
    assert "this is a bug and it has been logged" in html(response).xpath("string(//p[@class='error-message'])")


def test_a_record_for_an_uninstalled_game_still_shows(check_client, checking_games):
    from .conftest import report_id_of

    report_id = report_id_of(upload(check_client, orchard_save()))
    del checking_games["alpha"]
    response = check_client.get(f"/reports/{report_id}")
    assert response.status_code == 200
    page = html(response)
    assert page.xpath("//section[@class='violations']//h3/a") == []  # no game, no case pages to link
    assert "3 tokens" in page.xpath("string(//section[@class='violations'])")

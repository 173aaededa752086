"""Odd uploads and odd requests: a 400 or 413 with a sentence, never a 500, nothing stored."""

from __future__ import annotations

import dataclasses
import io

import pytest

from validator import store
from validator.rules import RuleSet, case

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
    @case("3")
    def broken(position):
        raise ZeroDivisionError("oops")
        yield

    alpha = checking_games["alpha"]
    working = [check.function for check in alpha.rules.checks()]
    checking_games["alpha"] = dataclasses.replace(alpha, rules=RuleSet.from_functions("alpha", [*working, broken]))
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


def _raw_multipart(parts: list[tuple[bytes, bytes, bytes | None]]) -> tuple[bytes, str]:
    """A multipart body written byte for byte: (name, value, file name or None) per part, headers as given."""
    boundary = b"B0UNDARY"
    body = b""
    for name, value, filename in parts:
        disposition = b'form-data; name="' + name + b'"'
        if filename is not None:
            disposition += b'; filename="' + filename + b'"'
        body += b"--" + boundary + b"\r\nContent-Disposition: " + disposition + b"\r\n"
        if filename is not None:
            body += b"Content-Type: text/xml\r\n"
        body += b"\r\n" + value + b"\r\n"
    return body + b"--" + boundary + b"--\r\n", "multipart/form-data; boundary=B0UNDARY"


@pytest.mark.parametrize("api", [False, True])
def test_a_form_no_part_of_which_can_be_read_is_a_400_that_says_why(check_client, database_path, api):
    # Latin-1 "café.xml", as some old clients send it: Werkzeug drops the whole body, token and all.
    from validator.web.checking import UNREADABLE_FORM

    from .conftest import form_token

    parts = [(b"save", orchard_save(), b"caf\xe9.xml"), (b"game", b"alpha", None)]
    if not api:
        parts.insert(0, (b"csrf_token", form_token(check_client).encode(), None))
    body, content_type = _raw_multipart(parts)
    response = check_client.post("/api/check" if api else "/check", data=body, content_type=content_type)
    assert response.status_code == 400
    if api:
        assert response.get_json() == {"error": UNREADABLE_FORM}
    else:
        assert html(response).xpath("string(//p[@class='error-message'])") == UNREADABLE_FORM
        assert html(response).xpath("//form[@class='check']//input[@name='csrf_token']/@value")
    assert count_reports(database_path) == 0


def test_a_broken_multipart_body_is_the_same_400(check_app):
    from validator.web.checking import UNREADABLE_FORM

    response = check_app.test_client().post(
        "/api/check", data=b"--broken\r\nContent-Disposition: form-data; name=save\r\n",
        content_type="multipart/form-data; boundary=broken")
    assert response.status_code == 400 and response.get_json() == {"error": UNREADABLE_FORM}


def test_a_request_over_the_limit_shows_the_form_again_with_the_limits(
    checking_games, book, database_path, tmp_path
):
    from validator.web import create_app

    from .conftest import form_token

    app = create_app({"TESTING": True, "DATABASE": str(database_path), "INSTANCE": str(tmp_path / "big"),
                      "SECRET_KEY": "test-only", "MAX_CONTENT_LENGTH": 1024 * 1024})
    client = app.test_client()
    big = orchard_save() + b" " * (2 * 1024 * 1024)
    body, content_type = _raw_multipart(
        [(b"csrf_token", form_token(client).encode(), None), (b"game", b"alpha", None), (b"save", big, b"big.xml")])
    response = client.post("/check", data=body, content_type=content_type)
    assert response.status_code == 413
    page = html(response)
    message = page.xpath("string(//p[@class='error-message'])")
    assert message == (
        "The request is larger than the 1 MB that Referee accepts in one request: a save or map file may be at most "
        "32 MB and a module at most 64 MB. Choose a smaller file; for a VASSAL save, choose a module kept from an "
        "earlier upload instead of sending the module again.")
    assert page.xpath("//form[@class='check']//input[@name='csrf_token']/@value")
    assert count_reports(database_path) == 0

    api = app.test_client().post("/api/check", data=body, content_type=content_type)
    assert api.status_code == 413 and api.get_json() == {"error": message}


@pytest.mark.parametrize(
    ("example", "old", "new", "expected"),
    [
        (
            "tito/overstacked.xml",
            'turn="4"',
            'turn="²"',
            "s.xml, line 8: the position has turn='²'; it takes a Game-Turn number (1 to 17)",
        ),
        (
            "tito/overstacked.xml",
            'turn="4"',
            'turn="١"',
            "s.xml, line 8: the position has turn='١'; it takes a Game-Turn number (1 to 17)",
        ),
        (
            "tww/legal.xml",
            'turn="5"',
            'turn="²"',
            "s.xml, line 5: the position has turn='²'; it takes a war turn number (1, 2, ...)",
        ),
        (
            "tww/legal.xml",
            'name="war-entry:finland" value="3"',
            'name="war-entry:finland" value="²"',
            "s.xml, line 8: the fact 'war-entry:finland' takes the war turn number the nation entered the war on, not "
            "'²'",
        ),
    ],
)
def test_a_number_in_other_digits_gets_the_plugins_sentence_not_a_bug_report(real_client, example, old, new, expected):
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "examples" / example).read_text(encoding="utf-8")
    assert old in text
    response = real_client.post(
        "/api/check",
        content_type="multipart/form-data",
        data={"save": (io.BytesIO(text.replace(old, new, 1).encode()), "s.xml")},
    )
    assert response.status_code == 400
    message = response.get_json()["error"]
    assert message.startswith(expected) and "bug" not in message, message


def test_a_text_field_too_long_to_read_is_a_413_that_says_so(check_client):
    from .conftest import form_token

    body, content_type = _raw_multipart(
        [
            (b"csrf_token", form_token(check_client).encode(), None),
            (b"viewer", b"x" * 600_000, None),
            (b"save", orchard_save(), b"s.xml"),
        ]
    )
    response = check_client.post("/check", data=body, content_type=content_type)
    assert response.status_code == 413
    assert html(response).xpath("string(//p[@class='error-message'])") == (
        "The form sent has a text field longer than Referee reads, or too many parts; send the form as the page "
        "gives it, with one file in each file field."
    )
    assert html(response).xpath("//form[@class='check']")

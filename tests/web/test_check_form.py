"""The upload form: GET shows it with a CSRF token; POST checks, stores and redirects."""

from __future__ import annotations

import pytest

from .conftest import (
    CROWDED,
    LEGAL,
    ORCHARD_MAP,
    STREAM_CROSSER,
    form_token,
    html,
    orchard_save,
    report_id_of,
    text_of,
    upload,
)

ERROR = "string(//p[@class='error-message'])"


def stored_reports(database_path) -> int:
    from validator import store

    connection = store.connect(database_path)
    try:
        return connection.execute("SELECT count(*) FROM report").fetchone()[0]
    finally:
        connection.close()


def test_the_form_has_file_fields_a_game_choice_and_a_token(check_client):
    response = check_client.get("/check")
    assert response.status_code == 200
    form = html(response).xpath("//form[@class='check']")[0]
    assert form.get("method") == "post"
    assert form.get("action") == "/check"
    assert form.get("enctype") == "multipart/form-data"
    assert form.xpath(".//input[@type='file']/@name") == ["save", "map", "module"]
    assert form.xpath(".//select[@name='game']/option/@value") == ["", "beta", "gamma", "alpha"]
    token = form.xpath(".//input[@type='hidden'][@name='csrf_token']/@value")[0]
    assert len(token) >= 40
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_the_token_stays_the_same_for_the_session(check_client):
    assert form_token(check_client) == form_token(check_client)


def test_every_page_links_to_the_form(check_client):
    assert html(check_client.get("/")).xpath("//header//a[@class='check-link']/@href") == ["/check"]


def test_a_post_without_the_token_is_refused_and_stores_nothing(check_client, database_path):
    form_token(check_client)  # the session exists, but the form's token is not sent
    response = upload(check_client, orchard_save(), token=None)
    assert response.status_code == 400
    assert "reload the page and send the form again" in html(response).xpath(ERROR)
    assert stored_reports(database_path) == 0


@pytest.mark.parametrize("token", ["wrong", "", "x" * 5000, "é"])
def test_a_post_with_another_token_is_refused(check_client, token):
    form_token(check_client)
    assert upload(check_client, orchard_save(), token=token).status_code == 400


def test_a_token_from_another_session_is_refused(check_app):
    first, second = check_app.test_client(), check_app.test_client()
    stolen = form_token(first)
    form_token(second)
    assert upload(second, orchard_save(), token=stolen).status_code == 400


def test_a_post_with_the_token_redirects_to_the_permanent_report(check_client, database_path):
    response = upload(check_client, orchard_save())
    assert response.status_code == 303
    report_id = report_id_of(response)
    assert len(report_id) == 22
    assert stored_reports(database_path) == 1
    page = check_client.get(f"/reports/{report_id}")
    assert page.status_code == 200


def test_the_report_page_groups_violations_by_case_with_links_to_the_case(check_client):
    save = orchard_save(extra_pieces=STREAM_CROSSER)
    report_id = report_id_of(upload(check_client, save))
    page = html(check_client.get(f"/reports/{report_id}"))
    groups = page.xpath("//section[@class='violations']/section[@class='case-group']")
    headings = [text_of(group.xpath("h3")[0]) for group in groups]
    assert headings == ["2.13A Streams", "2.2 Stacking"]
    links = [group.xpath("h3/a/@href")[0] for group in groups]
    assert links == [f"/alpha/rules/2.13A?report={report_id}", f"/alpha/rules/2.2?report={report_id}"]
    stacking = text_of(groups[1])
    assert "3 tokens (Token t1, Token t2, Token t3); the limit is 2" in stacking
    assert "North Row / Gate" in stacking
    assert "Pieces: Token t1, Token t2, Token t3" in stacking


def test_a_legal_position_says_so(check_client):
    report_id = report_id_of(upload(check_client, orchard_save(LEGAL), name="legal.xml"))
    page = html(check_client.get(f"/reports/{report_id}"))
    assert text_of(page.xpath("//p[contains(@class, 'verdict')]")[0]).startswith("Legal")
    assert text_of(page.xpath("//section[@class='violations']")[0]) == "Violations None."


def test_a_malformed_save_is_a_400_naming_the_file_and_line_on_the_form(check_client, database_path):
    broken = b'<?xml version="1.0"?>\n<position xmlns="urn:referee:save:1">\n  <pieces>\n</position>\n'
    response = upload(check_client, broken, name="broken.xml")
    assert response.status_code == 400
    message = html(response).xpath(ERROR)
    assert message.startswith("broken.xml, line 4, column")
    assert "not well-formed XML" in message
    # the form is shown again, ready for another try
    assert html(response).xpath("//form[@class='check']//input[@name='csrf_token']")
    assert stored_reports(database_path) == 0


def test_a_save_that_breaks_the_schema_names_line_and_reason(check_client):
    save = orchard_save().replace(b'turn="3"', b'turn="3" colour="red"')
    message = html(upload(check_client, save, name="odd.xml")).xpath(ERROR)
    # The <position> start tag opens on line 2 and ends on line 3; readers name the line where it opens.
    assert message.startswith("odd.xml, line 2")
    assert "colour" in message and "save.xsd" in message


def test_the_chosen_game_must_match_the_save(check_client):
    response = upload(check_client, orchard_save(), game="beta")
    assert response.status_code == 400
    assert "the save is for the game 'alpha', not 'beta'" in html(response).xpath(ERROR)


def test_an_unknown_chosen_game_is_a_400(check_client):
    response = upload(check_client, orchard_save(), game="nogame\x00")
    assert response.status_code == 400
    assert "There is no game called “nogame\ufffd” in Referee" in html(response).xpath(ERROR)


def test_the_chosen_game_is_kept_when_the_form_comes_back(check_client):
    response = upload(check_client, b"<broken", game="alpha")
    assert html(response).xpath("//select[@name='game']/option[@selected]/@value") == ["alpha"]


def test_no_save_file_is_a_400_that_says_which_field(check_client):
    response = upload(check_client, None)
    assert response.status_code == 400
    assert "No save file was sent" in html(response).xpath(ERROR)


def test_an_empty_file_field_is_no_save(check_client):
    response = upload(check_client, b"", name="")
    assert response.status_code == 400
    assert "No save file was sent" in html(response).xpath(ERROR)


def test_a_missing_map_is_a_400_naming_the_map_and_how_to_provide_it(check_client):
    save = orchard_save(map_part='<map href="club-map.xml"/>')
    response = upload(check_client, save, name="club.xml")
    assert response.status_code == 400
    message = html(response).xpath(ERROR)
    assert message.startswith("club.xml, line 4")
    assert "the map 'club-map.xml' cannot be used" in message
    assert "Orchard Raid ships no map of that name" in message
    assert "choose the map file in the form's map field" in message


def test_a_map_uploaded_with_the_save_is_used(check_client):
    save = orchard_save(map_part='<map href="club-map.xml"/>')
    map_file = ORCHARD_MAP.replace("Gate", "Club Gate").encode()
    response = upload(check_client, save, name="club.xml", map=(map_file, "my map.xml"))
    assert response.status_code == 303
    page = html(check_client.get(response.headers["Location"]))
    assert "North Row / Club Gate" in text_of(page.xpath("//section[@class='violations']")[0])


def test_an_error_in_an_uploaded_map_names_the_map_file(check_client):
    save = orchard_save(map_part='<map href="club-map.xml"/>')
    response = upload(check_client, save, map=(b"<map>\n<oops></map>", "club-map.xml"))
    assert response.status_code == 400
    message = html(response).xpath(ERROR)
    assert message.startswith("club-map.xml, line 2, column 13: not well-formed XML")


def test_an_inline_map_needs_no_map_file(check_client):
    inline = ORCHARD_MAP.split("\n", 1)[1].replace(' xmlns="urn:referee:save:1"', "")
    save = orchard_save(map_part=inline)
    assert upload(check_client, save).status_code == 303


@pytest.mark.parametrize(
    "href",
    [
        "../../../../../../etc/passwd",
        "/etc/passwd",
        "file:///etc/passwd",
        "..\\..\\secret.xml",
        "{secret}",
        "http://example.com/orchard.xml",
        "maps",
        ".",
        "",
    ],
)
def test_a_map_href_never_reads_a_server_file(check_client, tmp_path, href):
    secret = tmp_path / "secret.xml"
    secret.write_text(ORCHARD_MAP, encoding="utf-8")  # a valid map, so reading it would succeed
    href = href.format(secret=secret)
    save = orchard_save(map_part=f'<map href="{href}"/>')
    response = upload(check_client, save)
    assert response.status_code == 400
    message = html(response).xpath(ERROR)
    assert message.startswith("crowded.xml, line 4: "), message
    # An empty href may be refused by the reader itself, before any map is looked for.
    assert "cannot be used" in message or (not href and "is empty" in message), message
    assert ": :" not in message


@pytest.mark.parametrize("href", [".", "/", "..", "some/folder/"])
def test_a_map_href_that_names_no_file_says_so_in_one_sentence(check_client, href):
    response = upload(check_client, orchard_save(map_part=f'<map href="{href}"/>'))
    assert response.status_code == 400
    message = html(response).xpath(ERROR)
    if href == "some/folder/":  # its last part is a name, "folder": looked for, and not shipped
        assert message == (
            "crowded.xml, line 4: the map 'some/folder/' cannot be used: folder: Orchard Raid ships no map of that "
            "name; choose the map file in the form's map field (or send it as the API's map part) together with the "
            "save, or name in href one of the maps the game ships: orchard-map.xml"
        )
    elif href == "..":
        assert "cannot be used: ..: Orchard Raid ships no map of that name" in message
    else:
        assert message == (
            f"crowded.xml, line 4: the map '{href}' cannot be used: the <map> element's href names no file; give "
            "the map file's name in href, or choose the map file in the form's map field (or send it as the API's "
            "map part) together with the save"
        )


def test_a_shipped_map_is_found_by_its_file_name_alone(check_client):
    save = orchard_save(map_part='<map href="some/folder/orchard-map.xml"/>')
    assert upload(check_client, save).status_code == 303


def test_the_crowded_example_is_what_the_tests_think(check_client):
    assert [at for _, at in CROWDED].count("north/gate") == 3


def test_the_new_pages_carry_the_security_headers_and_no_inline_style(check_client):
    from validator.web import CONTENT_SECURITY_POLICY

    report_id = report_id_of(upload(check_client, orchard_save()))
    pages = ["/check", f"/reports/{report_id}", f"/reports/{report_id}.json", f"/alpha/rules/2.2?report={report_id}"]
    for url in pages:
        response = check_client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        if response.mimetype == "text/html":
            page = html(response)
            assert page.xpath("//script | //style | //*[@style] | //*[starts-with(@href, 'javascript:')]") == []


def test_an_empty_map_file_is_refused_not_replaced_by_the_shipped_map(check_client, database_path):
    response = upload(check_client, orchard_save(), map=(b"", "my-map.xml"))
    assert response.status_code == 400
    assert html(response).xpath(ERROR) == (
        "my-map.xml: the file is empty; choose the map file, or leave the map field empty to use the map the save "
        "names."
    )
    assert stored_reports(database_path) == 0


@pytest.mark.parametrize("map_file", [b"<not even xml", ORCHARD_MAP.encode()])
def test_a_map_file_sent_with_a_save_that_carries_its_own_map_is_refused(
    check_client, check_app, database_path, map_file
):
    import io

    inline = ORCHARD_MAP.split("\n", 1)[1].replace(' xmlns="urn:referee:save:1"', "")
    save = orchard_save(map_part=inline)
    expected = (
        "inline.xml: the save carries its own map, so the map file other-map.xml would not be used; leave the map "
        'field empty to check the save with its own map, or replace the save\'s map by <map href="other-map.xml"/> '
        "to check it with the file you chose."
    )
    response = upload(check_client, save, name="inline.xml", map=(map_file, "other-map.xml"))
    assert response.status_code == 400 and html(response).xpath(ERROR) == expected
    api = check_app.test_client().post(
        "/api/check",
        content_type="multipart/form-data",
        data={"save": (io.BytesIO(save), "inline.xml"), "map": (io.BytesIO(map_file), "other-map.xml")},
    )
    assert api.status_code == 400 and api.get_json() == {"error": expected}
    assert stored_reports(database_path) == 0


@pytest.mark.parametrize(
    ("example", "href"),
    [
        ("awaw/partisans-legal.xml", "partisans-illegal.xml"),
        ("tww/legal.xml", "legal.xml"),
        ("tww/legal.xml", "illegal.xml"),
    ],
)
def test_an_example_save_is_never_taken_for_a_shipped_map(real_client, example, href):
    # The examples folder holds saves: one read as a map gave an error about a server file the user never sent.
    import io
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "examples" / example).read_text(encoding="utf-8")
    mine, count = re.subn(r'<map href="[^"]*"', f'<map href="{href}"', text, count=1)
    assert count == 1
    map_line = text[: text.index("<map href")].count("\n") + 1
    response = real_client.post(
        "/api/check", content_type="multipart/form-data", data={"save": (io.BytesIO(mine.encode()), "mine.xml")}
    )
    assert response.status_code == 400
    message = response.get_json()["error"]
    assert message.startswith(f"mine.xml, line {map_line}: the map '{href}' cannot be used: {href}: "), message
    assert "ships no map of that name; choose the map file in the form's map field" in message

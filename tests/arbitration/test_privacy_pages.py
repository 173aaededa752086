"""An e-mail address a player typed is withheld on every page, as in the JSON: comments, titles, file names."""

from __future__ import annotations

from validator.privacy import WITHHELD

from .test_web import sign_in, token_of
from tests.web.conftest import orchard_save, report_id_of, upload

ADDRESS = "bob@example.com"


def test_an_address_in_a_comment_or_a_file_name_is_withheld_on_every_page(check_client, arbiter):
    report_id = report_id_of(upload(check_client, orchard_save(), name=f"mail {ADDRESS}.xml"))
    token = token_of(check_client, f"/reports/{report_id}")
    case_file_url = check_client.post(f"/reports/{report_id}/case-file", data={
        "csrf_token": token, "title": f"Dispute: ask {ADDRESS}"}).headers["Location"]
    posted = check_client.post(case_file_url + "/comments", data={
        "csrf_token": token, "author": "Red", "body": f"Write to me at {ADDRESS} or mailto:{ADDRESS}."})
    assert posted.status_code == 303
    sign_in(check_client)
    pages = {path: check_client.get(path) for path in (
        f"/reports/{report_id}", case_file_url, "/case-files/", case_file_url + "/export.html")}
    for path, answer in pages.items():
        shown = answer.get_data(as_text=True)
        assert answer.status_code == 200 and ADDRESS not in shown and WITHHELD in shown, path
    comment = pages[case_file_url].get_data(as_text=True)
    assert f"Write to me at {WITHHELD} or {WITHHELD}." in comment
    for path in (f"/reports/{report_id}.json", case_file_url + "/export.json"):
        assert ADDRESS not in check_client.get(path).get_data(as_text=True), path


def test_text_without_an_address_is_shown_as_it_was(check_client):
    report_id = report_id_of(upload(check_client, orchard_save(), name="at home @ 5pm.xml"))
    assert "at home @ 5pm.xml" in check_client.get(f"/reports/{report_id}").get_data(as_text=True)

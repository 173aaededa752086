"""Report and search pages are kept as rendered, yet a ruling, a case file, a removal or an import shows at once;
each visitor gets their own form token, and nothing is kept from a signed-in arbiter's pages."""

from __future__ import annotations

from contextlib import closing

from validator import retention, store
from validator.arbitration import arbiters
from validator.web import page_cache, records

from .conftest import STREAM_CROSSER, html, orchard_save, report_id_of, text_of, upload
from .test_page_cache import reimport

PASSWORD = "a long enough password"


def add_arbiter(database_path, name: str = "marta") -> None:
    with closing(store.connect(database_path)) as connection:
        arbiters.add(connection, name, PASSWORD)


def token_on(client, path: str) -> str:
    return html(client.get(path)).xpath("//input[@name='csrf_token']/@value")[0]


def sign_in(client, name: str = "marta") -> None:
    answer = client.post("/sign-in", data={"name": name, "password": PASSWORD, "next": "/",
                                           "csrf_token": token_on(client, "/sign-in")})
    assert answer.status_code == 303


def session_token(client) -> str:
    with client.session_transaction() as session:
        return session["csrf_token"]


def kept_reports(app) -> int:
    kept = app.extensions.get(page_cache.REPORTS_KEY)
    return len(kept) if kept is not None else 0


def stored(client) -> str:
    return report_id_of(upload(client, orchard_save(extra_pieces=STREAM_CROSSER)))


def test_a_report_page_is_kept_and_served_the_same_to_the_next_player(check_app, check_client):
    report_id = stored(check_client)
    first = check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    assert kept_reports(check_app) == 1
    assert check_client.get(f"/reports/{report_id}").get_data(as_text=True) == first
    assert page_cache.FORM_TOKEN_MARK not in first


def test_a_report_page_larger_than_the_cap_is_served_but_not_kept(check_app, check_client, monkeypatch):
    report_id = stored(check_client)
    monkeypatch.setattr(page_cache, "LARGEST_REPORT_PAGE", 1000)
    first = check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    assert len(first) > 1000 and report_id in first
    assert kept_reports(check_app) == 0
    assert check_client.get(f"/reports/{report_id}").get_data(as_text=True) == first


def test_each_visitor_of_a_kept_report_page_gets_the_token_of_their_own_session(check_app, check_client):
    report_id = stored(check_client)
    check_client.get(f"/reports/{report_id}")
    other = check_app.test_client()
    page = html(other.get(f"/reports/{report_id}"))
    token = page.xpath("//form[@class='open-case-file']//input[@name='csrf_token']/@value")[0]
    assert token == session_token(other) != session_token(check_client)
    opened = other.post(f"/reports/{report_id}/case-file", data={"title": "Crowded gate", "csrf_token": token})
    assert opened.status_code == 303


def test_a_case_file_opened_on_a_report_shows_on_its_next_view(check_client):
    report_id = stored(check_client)
    assert "This report is in" not in check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    token = token_on(check_client, f"/reports/{report_id}")
    opened = check_client.post(f"/reports/{report_id}/case-file", data={"title": "Crowded gate", "csrf_token": token})
    case_file = opened.headers["Location"].rsplit("/", 1)[1]
    page = html(check_client.get(f"/reports/{report_id}"))
    assert page.xpath(f"//section[@id='excepted']//a[contains(@href, '{case_file}')]")


def test_a_ruling_excepting_a_violation_shows_on_the_next_view_of_the_kept_page(check_client, database_path):
    add_arbiter(database_path)
    report_id = stored(check_client)
    player = check_client.application.test_client()
    assert "excepted" not in text_of(html(player.get(f"/reports/{report_id}")).xpath("//section[@id='excepted']")[0])
    sign_in(check_client)
    form = html(check_client.get(f"/rulings/new?report={report_id}"))
    value = form.xpath("//input[@name='except']/@value")[0]
    answer = check_client.post("/rulings/", data={
        "csrf_token": form.xpath("//form[contains(@class,'ruling')]//input[@name='csrf_token']/@value")[0],
        "report": report_id, "decision": "The stream was frozen.", "cases": "2.2", "status": "ruled",
        "except": value, f"reason-{value}": "the stream was frozen that turn"})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    excepted = html(player.get(f"/reports/{report_id}")).xpath("//li[@class='excepted']")
    assert len(excepted) == 1 and "the stream was frozen that turn" in text_of(excepted[0])


def test_a_new_import_of_the_rulebook_retitles_a_kept_report_page(check_client, database_path):
    report_id = stored(check_client)
    assert "Tokens crowd the gate" not in check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    reimport(database_path, {"2.2": "Tokens crowd the gate"})
    assert "Tokens crowd the gate" in check_client.get(f"/reports/{report_id}").get_data(as_text=True)


def test_removed_uploads_show_on_the_next_view_of_a_kept_report_page(check_app, check_client, database_path):
    report_id = stored(check_client)
    assert "uploads-removed" not in check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    with closing(store.connect(database_path)) as connection:
        retention.remove_uploads(connection, records.uploads_folder(check_app.instance_path), [report_id])
    page = html(check_client.get(f"/reports/{report_id}"))
    assert page.xpath("//p[@id='uploads-removed']")


def test_nothing_is_kept_from_a_signed_in_arbiters_pages(check_app, check_client, database_path):
    add_arbiter(database_path, "ines")
    report_id = stored(check_client)
    sign_in(check_client, "ines")
    for path in (f"/reports/{report_id}", "/alpha/rules/2.2", "/alpha/rules/", "/alpha/search?q=tokens"):
        assert "Sign out ines" in check_client.get(path).get_data(as_text=True)
    assert kept_reports(check_app) == 0
    player = check_app.test_client()
    for path in (f"/reports/{report_id}", "/alpha/rules/2.2", "/alpha/rules/", "/alpha/search?q=tokens"):
        shown = player.get(path).get_data(as_text=True)
        assert "ines" not in shown and "Write a ruling on this report" not in shown


def test_a_search_is_kept_for_this_import_and_a_new_import_is_searched_afresh(app, client, database_path):
    first = client.get("/alpha/search?q=gate").get_data(as_text=True)
    assert client.get("/alpha/search?q=gate").get_data(as_text=True) == first
    assert "Tokens crowd the gate" not in first
    reimport(database_path, {"2.2": "Tokens crowd the gate"})
    assert "Tokens crowd the gate" in client.get("/alpha/search?q=gate").get_data(as_text=True)

"""Rules pages are rendered once per import, a re-import shows the new text, a stored picture is not re-cleaned."""

from __future__ import annotations

from validator import store
from validator.rulebook import storage
from validator.web import arbitration, page_cache, pictures

from .conftest import STREAM_CROSSER, orchard_rulebook, orchard_save, report_id_of, upload


def kept_pages(app):
    """What the app keeps: (game, stamp, page) -> HTML."""
    return app.extensions[page_cache.CACHE_KEY]


def reimport(database_path, retitle: dict[str, str]) -> str:
    """Import the orchard book again with some case titles changed; its new import stamp."""
    book = orchard_rulebook()
    for case in book.cases.values():
        case.title = retitle.get(str(case.number), case.title)
    book.imported_at = ""
    connection = store.connect(database_path)
    try:
        storage.save(connection, book)
        return storage.import_stamp(connection, "alpha")
    finally:
        connection.close()


def stamp_of(database_path) -> str:
    connection = store.connect(database_path)
    try:
        return storage.import_stamp(connection, "alpha")
    finally:
        connection.close()


def served(app, kept: str, case: str) -> str:
    """A kept case page as served: the rulings citing the case are put in each time (validator.web.arbitration)."""
    with app.test_request_context():
        return arbitration.with_rulings(kept, "alpha", case)


def test_the_contents_and_a_case_page_are_kept_as_rendered_for_this_import(app, client, database_path):
    contents = client.get("/alpha/rules/").get_data(as_text=True)
    case = client.get("/alpha/rules/2.1").get_data(as_text=True)
    stamp = stamp_of(database_path)
    pages = kept_pages(app)
    assert pages.get(("alpha", stamp, "contents")) == contents
    assert served(app, pages.get(("alpha", stamp, "case 2.1")), "2.1") == case
    assert client.get("/alpha/rules/").get_data(as_text=True) == contents  # served from what was kept
    assert client.get("/alpha/rules/2.1").get_data(as_text=True) == case


def test_a_new_import_is_shown_at_once_and_the_old_pages_are_never_served(app, client, database_path):
    before = client.get("/alpha/rules/2.1").get_data(as_text=True)
    assert "Tokens on the move again" not in before
    new_stamp = reimport(database_path, {"2.1": "Tokens on the move again"})
    after_case = client.get("/alpha/rules/2.1").get_data(as_text=True)
    after_contents = client.get("/alpha/rules/").get_data(as_text=True)
    assert "Tokens on the move again" in after_case
    assert "Tokens on the move again" in after_contents
    assert served(app, kept_pages(app).get(("alpha", new_stamp, "case 2.1")), "2.1") == after_case


def test_a_case_page_opened_from_a_report_shows_the_report_and_is_not_kept(check_app, check_client,
                                                                            database_path):
    report_id = report_id_of(upload(check_client, orchard_save(extra_pieces=STREAM_CROSSER)))
    plain = check_client.get("/alpha/rules/2.2").get_data(as_text=True)
    from_report = check_client.get(f"/alpha/rules/2.2?report={report_id}").get_data(as_text=True)
    assert report_id in from_report and report_id not in plain
    assert check_client.get("/alpha/rules/2.2").get_data(as_text=True) == plain  # the report left no trace
    stamp = stamp_of(database_path)
    assert served(check_app, kept_pages(check_app).get(("alpha", stamp, "case 2.2")), "2.2") == plain


def stored_picture(database_path, report_id: str) -> str:
    connection = store.connect(database_path)
    try:
        return connection.execute("SELECT picture FROM report WHERE id = ?", (report_id,)).fetchone()["picture"]
    finally:
        connection.close()


def test_a_stored_picture_is_kept_cleaned_and_shown_as_it_was_kept(check_client, database_path):
    report_id = report_id_of(upload(check_client, orchard_save(extra_pieces=STREAM_CROSSER)))
    kept = stored_picture(database_path, report_id)
    assert kept.startswith(pictures.CLEANED_MARK)
    cleaned = kept[len(pictures.CLEANED_MARK):]
    assert pictures.clean_svg(cleaned) == cleaned  # what was kept is what the cleaner gives
    page = check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    assert cleaned in page and pictures.CLEANED_MARK not in page


def test_a_picture_stored_without_the_mark_is_cleaned_on_the_way_out(check_client, database_path):
    report_id = report_id_of(upload(check_client, orchard_save(extra_pieces=STREAM_CROSSER)))
    older = ('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    connection = store.connect(database_path)
    try:
        with connection:
            connection.execute("UPDATE report SET picture = ? WHERE id = ?", (older, report_id))
    finally:
        connection.close()
    page = check_client.get(f"/reports/{report_id}").get_data(as_text=True)
    assert "alert(1)" not in page  # refused by the cleaner, as a record of an older version would be

"""A game with more rulings than a page: a case file still lists its own, and the search says there are more."""

from __future__ import annotations

from contextlib import closing

from validator import store
from validator.arbitration import case_files, rulings
from validator.web import arbitration

from .conftest import stored_report
from tests.web.conftest import html


def test_a_case_file_lists_its_rulings_however_many_newer_ones_its_game_has(check_client, arbiter, database_path):
    with closing(store.connect(database_path)) as connection:
        filed = case_files.open_case_file(connection, "Gate", "save", [stored_report(connection)])
        own = rulings.write(connection, arbiter="alice", game="alpha", decision="On the gate.", cases=["2.2"],
                            case_file=filed.id)
        with store.write_transaction(connection):  # older than every other ruling of the game
            connection.execute("UPDATE ruling SET updated_at = ? WHERE id = ?", ("2026-01-01T00:00:00+00:00", own.id))
        for number in range(101):
            rulings.write(connection, arbiter="alice", game="alpha", decision=f"Other {number}.", cases=["2.2"])
    page = html(check_client.get(f"/case-files/{filed.id}"))
    assert f"/rulings/{own.id}" in page.xpath("//a/@href")


def test_the_ruling_search_links_to_the_rulings_past_its_page(check_client, arbiter, database_path, monkeypatch):
    monkeypatch.setattr(arbitration, "SEARCH_PAGE", 2)
    with closing(store.connect(database_path)) as connection:
        for number in range(3):
            rulings.write(connection, arbiter="alice", game="alpha", decision=f"Ruling {number}.", cases=["2.2"])
    first = html(check_client.get("/rulings/?game=alpha"))
    assert len(first.xpath("//ul[@class='rulings']/li")) == 2
    older = first.xpath("//a[@rel='next']/@href")
    assert len(older) == 1 and "page=2" in older[0]
    second = html(check_client.get(older[0]))
    assert len(second.xpath("//ul[@class='rulings']/li")) == 1 and second.xpath("//a[@rel='next']") == []
    assert second.xpath("//a[@rel='prev']/@href")

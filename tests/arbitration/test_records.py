"""The arbitration records on the store, on SQLite and PostgreSQL: case files, comments, rulings, requests."""

from __future__ import annotations

from contextlib import closing

import pytest

from validator import catalogue, store
from validator.arbitration import case_files, comments, counters, requests, rulings

from .conftest import VIOLATIONS, orchard_rulebook, stored_report


def test_a_case_file_keeps_its_reports_in_order_with_their_roles(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        before, after = stored_report(connection), stored_report(connection)
        opened = case_files.open_case_file(connection, "  Who moved   first? ", "pair", [before, after])
        assert [(filed.report_id, filed.role) for filed in opened.reports] == [(before, "before"), (after, "after")]
        assert opened.title == "Who moved first?" and len(opened.id) >= 22
        assert [found.id for found in case_files.listed(connection)] == [opened.id]


def test_a_case_file_of_the_wrong_shape_or_a_missing_report_is_refused_with_a_sentence(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        report_id = stored_report(connection)
        with pytest.raises(case_files.CaseFileError, match="holds two reports"):
            case_files.open_case_file(connection, "", "pair", [report_id])
        with pytest.raises(case_files.CaseFileError, match="no report with the id 'missing'"):
            case_files.open_case_file(connection, "", "chain", [report_id, "missing"])


def test_comments_are_plain_text_capped_and_limited_per_client(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        filed = case_files.open_case_file(connection, "", "save", [stored_report(connection)])
        limit = counters.Limit(count=2, seconds=3600)
        comments.add(connection, filed.id, "Red", "He moved\x00 twice.\r\nSee the log.", "10.0.0.1", limit)
        comments.add(connection, filed.id, "Red", "And again.", "10.0.0.1", limit)
        with pytest.raises(counters.LimitReached) as reached:
            comments.add(connection, filed.id, "Red", "Once more.", "10.0.0.1", limit)
        assert reached.value.wait_seconds > 0
        comments.add(connection, filed.id, "Blue", "No, once.", "10.0.0.2", limit)  # another client
        with pytest.raises(comments.CommentError, match="shorten it to 4000"):
            comments.add(connection, filed.id, "Blue", "x" * 4001, "10.0.0.3", limit)
        kept = comments.listed(connection, filed.id)
        assert [comment.author for comment in kept].count("Red") == 2
        assert "He moved twice.\nSee the log." in [comment.body for comment in kept]


def test_a_ruling_keeps_the_cited_case_text_its_exceptions_and_its_history(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        report_id = stored_report(connection)
        key = rulings.ViolationKey.of_item(report_id, VIOLATIONS[0])
        written = rulings.write(connection, arbiter="alice", game="alpha", decision="The third token was a ghost.",
                                cases=["2.2"], exceptions=[rulings.ExceptedViolation(key, "agreed before play")])
        assert [citation.number for citation in written.citations] == ["2.2"]
        assert "Stacking" in written.citations[0].case_text
        assert set(rulings.exceptions_of_report(connection, report_id)) == {key}
        edited = rulings.edit(connection, written.id, arbiter="bob", decision="A ghost, on second thought.",
                              cases=["2.2", "2.13A"], status="ruled")
        assert [(revision.revision, revision.arbiter) for revision in edited.revisions] == [(1, "alice"), (2, "bob")]
        assert edited.revisions[0].decision == "The third token was a ghost."
        withdrawn = rulings.edit(connection, written.id, arbiter="bob", decision="Withdrawn.", cases=["2.2"],
                                 status="withdrawn")
        assert withdrawn.status == "withdrawn" and rulings.exceptions_of_report(connection, report_id) == {}


def test_an_unknown_case_or_a_violation_the_report_lacks_is_refused_with_a_sentence(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        with pytest.raises(rulings.RulingError, match="Case 9.9 is not in the imported rulebook of alpha"):
            rulings.write(connection, arbiter="alice", game="alpha", decision="No.", cases=["9.9"])
        with pytest.raises(rulings.RulingError, match="not a case number"):
            rulings.parsed_cases("2.2, weather")
        report_id = stored_report(connection)
        other = rulings.ViolationKey(report_id, "2.2", "overstacked-space", "south/barn", ("t4",))
        with pytest.raises(rulings.RulingError, match="has no such violation"):
            rulings.write(connection, arbiter="alice", game="alpha", decision="No.", cases=["2.2"],
                          exceptions=[rulings.ExceptedViolation(other, "a reason")])
        assert rulings.search(connection, game="alpha") == []  # nothing half-written


def test_rulings_are_found_by_game_case_and_text(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        first = rulings.write(connection, arbiter="alice", game="alpha", decision="Bridges count as 50% open.",
                              cases=["2.13B"])
        second = rulings.write(connection, arbiter="alice", game="alpha", decision="Streams stop tokens.",
                               cases=["2.13A", "2.2"])
        assert [found.id for found in rulings.search(connection, case="2.2")] == [second.id]
        assert [found.id for found in rulings.search(connection, text="50%")] == [first.id]
        assert [found.id for found in rulings.search(connection, text="STREAMS", game="alpha")] == [second.id]
        assert rulings.search(connection, game="beta") == []
        assert [found.id for found in rulings.citing(connection, "alpha", "2.13B")] == [first.id]


def test_a_reimport_that_changes_a_cited_case_flags_the_ruling_for_review(orchard_database, test_games):
    with closing(store.connect(orchard_database)) as connection:
        written = rulings.write(connection, arbiter="alice", game="alpha", decision="Two is two.", cases=["2.2"])
        untouched = rulings.write(connection, arbiter="alice", game="alpha", decision="Scope.", cases=["1.1"])
        game = catalogue.find(connection, "alpha")
        catalogue.save_rulebook(connection, game, orchard_rulebook())  # the same text: nothing flagged
        assert rulings.needing_review(connection) == []
        changed = orchard_rulebook()
        changed.cases[next(number for number in changed.cases if str(number) == "2.2")].title = "Crowding"
        catalogue.save_rulebook(connection, game, changed)
        flagged = rulings.load(connection, written.id)
        assert "2.2 changed" in flagged.review_note
        assert [found.id for found in rulings.needing_review(connection)] == [written.id]
        assert rulings.load(connection, untouched.id).review_note is None
        saved = rulings.edit(connection, written.id, arbiter="alice", decision="Still two.", cases=["2.2"],
                             status="ruled", recite=True)
        assert saved.review_note is None and "Crowding" in saved.citations[0].case_text


def test_each_revision_keeps_the_case_texts_it_was_made_under(orchard_database, test_games):
    with closing(store.connect(orchard_database)) as connection:
        written = rulings.write(connection, arbiter="alice", game="alpha", decision="Two is two.", cases=["2.2"])
        first_text = written.citations[0].case_text
        changed = orchard_rulebook()
        changed.cases[next(number for number in changed.cases if str(number) == "2.2")].title = "Crowding"
        catalogue.save_rulebook(connection, catalogue.find(connection, "alpha"), changed)
        kept = rulings.edit(connection, written.id, arbiter="alice", decision="Two, still.", cases=["2.2", "1.1"],
                            status="ruled")
        assert kept.citations[1].case_text == first_text and "Crowding" not in first_text
        assert kept.review_note is not None  # the kept text still differs from the rulebook's
        recited = rulings.edit(connection, written.id, arbiter="alice", decision="Two, checked.", cases=["2.2"],
                               status="ruled", recite=True)
        assert recited.review_note is None and "Crowding" in recited.citations[0].case_text
        history = rulings.load(connection, written.id).revisions
        assert [[citation.number for citation in revision.citations] for revision in history] == [
            ["2.2"], ["2.2", "1.1"], ["2.2"]]
        assert [revision.citations[0].case_text for revision in history] == [first_text, first_text,
                                                                             recited.citations[0].case_text]


def test_requests_are_numbered_per_game_and_a_ruling_answers_one(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        report_id = stored_report(connection)
        first = requests.open_request(connection, game="alpha", question="Does weather stop tokens?",
                                      readings=["yes, always", "only in rain", ""], opened_by="alice",
                                      origin="unchecked", report_id=report_id, case_number="1.1")
        second = requests.open_request(connection, game="alpha", question="Do bridges count?",
                                       readings=["yes", "no"], opened_by="alice")
        other = requests.open_request(connection, game="beta", question="Reserves?", readings=["4", "5"],
                                      opened_by="alice")
        assert (first.number, second.number, other.number) == (1, 2, 1)
        assert [option.label for option in first.options] == ["A", "B"]
        answer = rulings.write(connection, arbiter="alice", game="alpha", decision="Rain only.", cases=["1.1"],
                               request_id=first.id, choice="B")
        assert answer.request_id == first.id and answer.choice == "B"
        assert requests.load(connection, first.id).choice == "B"
        with pytest.raises(rulings.RulingError, match="no option 'C'"):
            rulings.write(connection, arbiter="alice", game="alpha", decision="C.", cases=["1.1"],
                          request_id=first.id, choice="C")
        assert len(rulings.search(connection, text="C.")) == 0  # nothing stored of the refused ruling
        with pytest.raises(requests.RequestError, match="at least two options"):
            requests.open_request(connection, game="alpha", question="?", readings=["only one"], opened_by="alice")


def test_records_survive_a_new_connection(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        filed = case_files.open_case_file(connection, "Kept", "save", [stored_report(connection)])
        written = rulings.write(connection, arbiter="alice", game="alpha", decision="Kept.", cases=["2.2"],
                                case_file=filed.id)
    with closing(store.connect(orchard_database)) as connection:
        assert case_files.load(connection, filed.id).title == "Kept"
        assert rulings.load(connection, written.id).case_file == filed.id


def test_a_withdrawn_answer_no_longer_counts_as_the_requests_choice(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        asked = requests.open_request(connection, game="alpha", question="Do bridges count?",
                                      readings=["yes", "no"], opened_by="alice")
        first = rulings.write(connection, arbiter="alice", game="alpha", decision="Yes.", cases=["1.1"],
                              request_id=asked.id, choice="A")
        with store.write_transaction(connection):  # written before the second
            connection.execute("UPDATE ruling SET created_at = ? WHERE id = ?", ("2026-01-01T00:00:00+00:00", first.id))
        second = rulings.write(connection, arbiter="alice", game="alpha", decision="No.", cases=["1.1"],
                               request_id=asked.id, choice="B")
        assert requests.load(connection, asked.id).choice == "B"
        rulings.edit(connection, second.id, arbiter="alice", decision="Withdrawn.", cases=["1.1"],
                     status="withdrawn")
        assert requests.load(connection, asked.id).choice == "A"
        assert (rulings.load(connection, first.id).choice, rulings.load(connection, second.id).choice) == ("A", "B")
        rulings.edit(connection, first.id, arbiter="alice", decision="Withdrawn too.", cases=["1.1"],
                     status="withdrawn")
        assert requests.load(connection, asked.id).choice is None


def test_a_requests_options_keep_their_letters_and_its_case_is_one_of_the_rulebook(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        asked = requests.open_request(connection, game="alpha", question="Which?",
                                      readings=["first", "", "third", "", "", "sixth"], opened_by="alice",
                                      origin="unchecked", case_number="1.1")
        assert [(option.label, option.reading) for option in asked.options] == [
            ("A", "first"), ("C", "third"), ("F", "sixth")]
        with pytest.raises(requests.RequestError, match="Case 9.9 is not in the imported rulebook of alpha"):
            requests.open_request(connection, game="alpha", question="?", readings=["a", "b"], opened_by="alice",
                                  origin="unchecked", case_number="9.9")
        with pytest.raises(requests.RequestError, match="is not a case number"):
            requests.open_request(connection, game="alpha", question="?", readings=["a", "b"], opened_by="alice",
                                  origin="unchecked", case_number="<script>")
        assert len(requests.listed(connection)) == 1


def test_the_decision_search_folds_every_letters_case_on_both_databases(orchard_database):
    with closing(store.connect(orchard_database)) as connection:
        written = rulings.write(connection, arbiter="alice", game="alpha", decision="ÉTAPE DE ŽELEZNICA.",
                                cases=["2.2"])
        assert [found.id for found in rulings.search(connection, text="étape de železnica")] == [written.id]
        assert [found.id for found in rulings.search(connection, text="Étape")] == [written.id]
        assert rulings.search(connection, text="étape", offset=1) == []

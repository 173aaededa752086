"""The rules reference: table of contents, case pages, unresolved references.

Before a game's rulebook is imported these pages fall back on the plugin's
case index, so a user sees what the game covers and how to import the text.

``/<game>/coverage`` lists every case of the game's case index with what
Referee does about it: enforced (by which checks, with their fixtures),
unchecked (and what deciding it would need) or not encoded.

A case page opened from a stored report (``?report=<id>``) marks the case
and lists the report's violations of it and of its lettered items; an
unknown report id, or a report of another game, is a 404 with a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, redirect, render_template, request, url_for

from validator.cases import CaseNumber
from validator.catalogue import CatalogueGame, no_checks_sentence
from validator.coverage import FIXTURES_ELSEWHERE, CaseCoverage, of_game
from validator.web import arbitration, library, page_cache, reading, records, reports
from validator.web.markup import printable
from validator.web.reading import Index

blueprint = Blueprint("rules", __name__)

NOT_A_CASE = "This address does not name a case; case numbers look like 6, 6.21 or 11.353E."


@blueprint.get("/<game>/")
def game_home(game: str):
    return redirect(url_for("rules.contents", game=library.game_or_404(game).id))


@blueprint.get("/<game>/rules/")
def contents(game: str):
    chosen = library.game_or_404(game)
    index = library.case_index(chosen.plugin)
    book = library.rulebook(chosen.id)
    if book is None:
        return render_template(
            "rules/index_contents.html",
            game=chosen,
            entries=reading.index_contents(index),
            command=library.import_command(chosen),
        )
    return page_cache.rendered(chosen.id, book.imported_at, "contents", lambda: render_template(
        "rules/contents.html",
        game=chosen,
        book=book,
        entries=reading.book_contents(book, index),
        counts=book.counts(),
        front_matter=reading.front_matter_parts(book),
    ))


@blueprint.get("/<game>/rules/unresolved")
def unresolved(game: str):
    chosen = library.game_or_404(game)
    book = library.rulebook(chosen.id)
    if book is None:
        return render_template(
            "rules/not_imported.html", game=chosen, command=library.import_command(chosen)
        )
    return render_template(
        "rules/unresolved.html", game=chosen, book=book, unresolved=reading.unresolved(book)
    )


@blueprint.get("/<game>/coverage")
def coverage(game: str):
    chosen = library.game_or_404(game)
    if chosen.plugin is None:
        abort(404, description=no_checks_sentence(chosen.id))
    found = of_game(chosen.plugin)
    index = library.case_index(chosen.plugin)
    book = library.rulebook(chosen.id)
    rows = [
        CoverageRow(
            case,
            reading.title_of(case.number, book.cases[case.number].title if book and case.number in book.cases else "",
                             index),
            len(case.number.ancestors()),
        )
        for case in found.cases
    ]
    return render_template(
        "rules/coverage.html", game=chosen, coverage=found, rows=rows, fixtures_elsewhere=FIXTURES_ELSEWHERE
    )


@dataclass(frozen=True)
class CoverageRow:
    """One case of the coverage page: what Referee does about it, its title, how deep it sits."""

    case: CaseCoverage
    title: reading.Title
    depth: int


@blueprint.get("/<game>/rules/<case>")
def case(game: str, case: str):
    chosen = library.game_or_404(game)
    number = library.case_number(case)
    if number is None:
        abort(404, description=NOT_A_CASE)
    if str(number) != case:
        keep = {"report": request.args["report"]} if "report" in request.args else {}
        return redirect(url_for("rules.case", game=chosen.id, case=str(number), **keep), code=301)
    shown_report = _shown_report(chosen, number)
    index = library.case_index(chosen.plugin)
    book = library.rulebook(chosen.id)
    if book is None:
        return _indexed_case(chosen, number, index, shown_report)
    if number not in book.cases:
        nearest = reading.nearest_entry(number, book, index)
        return _missing_case(chosen, number, nearest, imported=True, shown_report=shown_report)

    if shown_report is None:  # the same page for every visitor until the next import; its rulings are not kept
        return arbitration.with_rulings(page_cache.rendered(chosen.id, book.imported_at, f"case {number}",
                                   lambda: _imported_case(chosen, number, index, book, None)), chosen.id, number)
    return arbitration.with_rulings(_imported_case(chosen, number, index, book, shown_report), chosen.id, number)


def _imported_case(chosen: CatalogueGame, number: CaseNumber, index: Index, book, shown_report) -> str:
    """A case of the imported book: its text, checks, neighbours, citations and the report's violations."""

    def entry(case) -> reading.Entry | None:
        return reading.book_entry(book, case.number, index) if case is not None else None

    view = reading.case_view(book, number, index, chosen.rules)
    previous, following = book.neighbours(number)
    return render_template(
        "rules/case.html",
        game=chosen,
        book=book,
        view=view,
        breadcrumb=[entry(above) for above in book.breadcrumb(number)],
        previous=entry(previous),
        following=entry(following),
        links_out=reading.links_out(book, view, index),
        cited_by=[entry(citing) for citing in book.cited_by(number)],
        checked_below=[shown for shown in reading.walk(view) if shown is not view and shown.checks],
        shown_report=shown_report,
        broken=shown_report.broken if shown_report else set(),
    )


@dataclass(frozen=True)
class ShownReport:
    """A stored report seen from one case page: its violations of that case."""

    record: records.Record
    violations: list[reports.Line]
    broken: set[CaseNumber]  # every case the report breaks, to mark items shown in place


def _shown_report(game: CatalogueGame, number: CaseNumber) -> ShownReport | None:
    """The report named by ``?report=``, or None without one; 404 for an unknown one."""
    if "report" not in request.args:
        return None
    report_id = request.args["report"]
    record = reports.record_or_404(report_id)
    if record.game != game.id:
        abort(
            404,
            description=(
                f"The report “{printable(report_id, 40)}” is about a position of {record.game}, "
                f"not of {game.title}; open its cases from the report page."
            ),
        )
    return ShownReport(record, reports.violations_of_case(record, number), reports.broken_cases(record))


def _indexed_case(
    game: CatalogueGame, number: CaseNumber, index: Index, shown_report: ShownReport | None = None
):
    """A case page before import: the index's title, the checks, how to import."""
    if number not in index:
        nearest = reading.nearest_entry(number, None, index)
        return _missing_case(game, number, nearest, imported=False, shown_report=shown_report)
    numbers = sorted(index)
    position = numbers.index(number)
    return render_template(
        "rules/indexed_case.html",
        game=game,
        entry=reading.index_entry(number, index),
        breadcrumb=[
            reading.index_entry(above, index)
            for above in reversed(number.ancestors())
            if above in index
        ],
        previous=reading.index_entry(numbers[position - 1], index) if position > 0 else None,
        following=(
            reading.index_entry(numbers[position + 1], index)
            if position + 1 < len(numbers)
            else None
        ),
        children=[
            reading.index_entry(other, index)
            for other in numbers
            if reading.index_parent(other, index) == number
        ],
        checks=game.rules.enforcing(number),
        command=library.import_command(game),
        shown_report=shown_report,
    )


def _missing_case(
    game: CatalogueGame,
    number: CaseNumber,
    nearest: reading.Entry | None,
    imported: bool,
    shown_report: ShownReport | None = None,
):
    """The 404 page for a case the book (or, before import, the index) does not hold.

    Opened from a report, it still lists the report's violations of the number,
    so a report's link never leads to a page that forgets why it was followed.
    """
    page = render_template(
        "rules/missing_case.html",
        game=game,
        number=number,
        nearest=nearest,
        imported=imported,
        shown_report=shown_report,
    )
    return page, 404

"""Stored reports: the permanent page a club can point to, and its JSON.

``/reports/<id>`` shows what was judged when the position was checked: the
stored report JSON and the stored picture.  A GET never runs a check or a
plugin; it reads the record and looks up case titles (from the imported
rulebook, or the plugin's case index), which are reference text, not
verdicts.  ``/reports/<id>.json`` serves the same report as JSON with
absolute case URLs, the report's id and its page's address; for a VASSAL
save also a ``vassal`` object: the module used (id, name, version, its
``sha256`` and its build file's ``build_file_sha256``), the viewer side (null
for a spectator), ``seen_as`` and the export's note, and the stored
``mapping_coverage`` (how many pieces and locations the mapping resolved).
``checked_with`` is what the check was made with (:mod:`validator.provenance`):
the Referee and plugin versions and the SHA-256 of the map, mapping and
module, null where not used; a report stored before Referee recorded it has
a null ``referee_version``.  The page shows the same in its "Checked with"
block.

Pieces are listed by the names the report gave them (``piece_names``), or
by id for a report stored before it named them.  The header says how many of
the game's cases the checks covered when the report was made (the stored
``coverage``) and links the game's coverage page.

Violations are numbered in the order of the report's ``violations`` array;
the picture marks offending locations with the same numbers.  Results are
grouped by their exact case number (``6.21``, ``13.91D``), groups in case
order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, abort, current_app, render_template, url_for
from markupsafe import Markup

from validator import games, stored_results
from validator.cases import CaseNumber
from validator.coverage import left_to_moves
from validator.games import Game
from validator.web import (
    addresses,
    arbitration,
    database,
    kept_modules,
    library,
    move_reports,
    page_cache,
    pictures,
    records,
)
from validator.web.markup import printable
from validator.web.reading import Title, title_of

blueprint = Blueprint("reports", __name__)

NO_LISTING = (
    "Reports are not listed: each has its own address, /reports/ followed by the id its check gave you. "
    "To check a position and get a report, use the form at {check}."
)

SEVERITY_ORDER = {"error": 0, "warning": 1, "unchecked": 2, "info": 3}


@dataclass(frozen=True)
class Line:
    """One result as a report page lists it."""

    number: int | None  # a violation's number, as on the picture; None for findings
    severity: str
    message: str
    location: str | None
    location_name: str | None
    pieces: tuple[str, ...]  # as a player names them, from the stored piece_names
    also: tuple[tuple[str, str | None], ...] = ()  # (case, address): the same rule stated under other cases


@dataclass
class Group:
    """The results of one case, with the case's title and the address of its page."""

    case: str
    number: CaseNumber | None
    title: Title
    url: str | None
    decision: str = ""  # how Referee reads the case, where the rulebook is open
    lines: list[Line] = field(default_factory=list)


def _decision(game, number: CaseNumber | None) -> str:
    """The game's documented reading of the case or of the case its item belongs to."""
    if game is None or number is None:
        return ""
    return game.decision(number) or (game.decision(number.parent) if number.is_item else "")


def record_or_404(report_id: str) -> records.Record:
    record = records.load(database.connection(), report_id)
    if record is None:
        abort(
            404,
            description=(
                f"There is no report with the id “{printable(report_id, 40)}”; a report's address "
                "is the one its check gave you, such as /reports/ followed by 22 letters and digits."
            ),
        )
    return record


def lines_of(items: list[dict], numbered: bool) -> list[tuple[str, Line]]:
    """Each stored result item as (case text, Line), numbered from 1 when asked."""
    return [
        (
            str(item.get("case", "")),
            Line(
                number=position if numbered else None,
                severity=str(item.get("severity", "")),
                message=str(item.get("message", "")),
                location=item.get("location"),
                location_name=item.get("location_name"),
                pieces=shown_pieces(item),
                also=also_cases(item),
            ),
        )
        for position, item in enumerate(items, start=1)
    ]


def also_cases(item: dict) -> tuple[tuple[str, str | None], ...]:
    """The other cases a stored result states its rule under (validator.infractions), each with its page's path."""
    found = item.get("also_cases")
    return tuple(
        (str(also.get("case", "")), str(also["url"]) if str(also.get("url", "")).startswith("/") else None)
        for also in (found if isinstance(found, list) else ()) if isinstance(also, dict) and also.get("case"))


def cases_of(item: dict) -> list[CaseNumber]:
    """The case a stored result names and the cases it is also stated under."""
    numbers = (library.case_number(case) for case in (str(item.get("case", "")), *(c for c, _ in also_cases(item))))
    return [number for number in numbers if number is not None]


def shown_pieces(item: dict) -> tuple[str, ...]:
    """A stored result's pieces by name, or by id when the report carries no names for them."""
    ids = tuple(str(piece) for piece in item.get("pieces", ()))
    names = item.get("piece_names")
    if isinstance(names, list) and len(names) == len(ids):
        return tuple(str(name) for name in names)
    return ids


@dataclass(frozen=True)
class CoverageNote:
    """What the checks covered when the report was made, as stored with it."""

    checked: int
    unchecked: int
    total: int
    left_to_moves: str = ""  # on a report of one position: the move cases it left to a pair, a log or a chain

    @property
    def total_words(self) -> str:
        """The index's size as the import summary counts it (a stored report does not say how many are sections)."""
        return f"{self.total} sections and cases"


def coverage_note(report: dict) -> CoverageNote | None:
    """The stored ``coverage`` object, or None for a report stored before Referee recorded it."""
    stored = report.get("coverage")
    if not isinstance(stored, dict):
        return None
    numbers = [stored.get(key) for key in ("checked_cases", "unchecked_cases", "index_cases")]
    if not all(isinstance(number, int) and not isinstance(number, bool) for number in numbers):
        return None
    move_cases = stored.get("move_cases")
    one_position = not move_reports.is_moves(report) and type(move_cases) is int
    return CoverageNote(*numbers, left_to_moves=left_to_moves(move_cases) if one_position else "")


def grouped(record: records.Record, items: list[dict], numbered: bool) -> list[Group]:
    """Results grouped by case, groups in case order, each titled and linked to its page."""
    game = games.registry().get(record.game)
    index = library.case_index(game) if game is not None else {}
    book = library.rulebook(game.id) if game is not None else None
    groups: dict[str, Group] = {}
    for case, line in lines_of(items, numbered):
        group = groups.get(case)
        if group is None:
            number = library.case_number(case)
            book_title = book.cases[number].title if book is not None and number in book.cases else ""
            title = title_of(number, book_title, index) if number is not None else Title("")
            url = (
                url_for("rules.case", game=game.id, case=str(number), report=record.id)
                if number is not None and game is not None
                else None
            )
            decision = _decision(game, number)
            group = groups[case] = Group(case, number, title, url, decision)
        group.lines.append(line)
    for group in groups.values():
        group.lines.sort(key=lambda line: SEVERITY_ORDER.get(line.severity, len(SEVERITY_ORDER)))
    return sorted(
        groups.values(),
        key=lambda group: (group.number is None, group.number or CaseNumber((0,)), group.case),
    )


def violations_of_case(record: records.Record, number: CaseNumber) -> list[Line]:
    """The record's violations of the case ``number`` and of its lettered items."""
    found = []
    violations = stored_results.violations_of(record.report)
    for item, (_, line) in zip(violations, lines_of(violations, numbered=True), strict=True):
        if any(broken == number or (broken.is_item and broken.parent == number) for broken in cases_of(item)):
            found.append(line)
    return found


def broken_cases(record: records.Record) -> set[CaseNumber]:
    """Every case number the record's violations name, the cases they are also stated under too."""
    return {number for item in stored_results.violations_of(record.report) for number in cases_of(item)}


def public_json(record: records.Record) -> dict:
    """The stored report with absolute case URLs, the record's id and its page's address."""
    root = addresses.site_root()
    if move_reports.is_moves(record.report):  # its results are in its steps or links, made absolute there
        shown = move_reports.public_json(record.report, root)
    else:
        shown = dict(record.report)
        for key in ("violations", "findings"):
            shown[key] = [move_reports.absolute_result(item, root) for item in record.report.get(key, [])]
    coverage = record.report.get("coverage")
    if isinstance(coverage, dict) and str(coverage.get("url", "")).startswith("/"):
        shown["coverage"] = {**coverage, "url": root + coverage["url"]}
    shown["id"] = record.id
    shown["created_at"] = record.created_at
    shown["report_url"] = addresses.permanent_url("reports.page", report_id=record.id)
    shown["checked_with"] = record.provenance.to_json()
    if record.is_vassal:
        shown["vassal"] = {
            "module": {"id": record.module_id, "name": record.module_name, "version": record.module_version,
                       "sha256": record.provenance.module_sha256, "build_file_sha256": build_file_sha256(record)},
            "viewer": record.viewer,
            "seen_as": seen_as(record),
            "note": record.export_note,
        }
    return shown


def seen_as(record: records.Record) -> str | None:
    """Whose view of a VASSAL save was checked: "as seen by the Axis player", "as a spectator"."""
    if not record.is_vassal:
        return None
    return f"as seen by the {record.viewer} player" if record.viewer else "as a spectator"


def build_file_sha256(record: records.Record) -> str | None:
    """The hash of the build file of the module the record was read with; None when not recorded."""
    if record.module_id is None:
        return None
    kept = kept_modules.find(database.connection(), record.module_id)
    return kept.build_file_sha256 if kept is not None else None


def mapping_coverage(report: dict) -> dict | None:
    """The stored counts of what the mapping resolved, or None (not a VASSAL save, or stored before)."""
    stored = report.get("mapping_coverage")
    return stored if isinstance(stored, dict) else None


def module_label(record: records.Record) -> str | None:
    if not record.is_vassal:
        return None
    if record.module_version:
        return f"{record.module_name}, version {record.module_version}"
    return f"{record.module_name} (no version given)"


@blueprint.get("/reports/")
def no_listing():
    """Reports are not listed (each belongs to whoever checked it), so the bare folder says where they are."""
    abort(404, description=NO_LISTING.format(check=url_for("checking.form")))


@blueprint.get("/reports/<report_id>")
def page(report_id: str):
    """The report's page, kept as rendered while nothing it shows has changed (validator.web.page_cache).

    What can change after a report is stored is read on every view: the
    book's import stamp (its case titles), the rulings that except its
    violations and the case files holding it, the removal of its uploads,
    the kept module's build file and the site's address.  They make the key
    of the kept page, so a ruling or a new import shows on the next view.
    """
    record = record_or_404(report_id)
    game: Game | None = games.registry().get(record.game)
    book = library.rulebook(game.id) if game is not None else None
    held = arbitration.report_records(record)
    build_file = build_file_sha256(record)
    key = (record.id, book.imported_at if book is not None else None, addresses.site_root(),
           tuple((line.number, line.exception) for line in held["excepted"]), tuple(held["case_files"]),
           record.uploads_removed_at, build_file)
    if move_reports.is_moves(record.report):
        return page_cache.for_visitors(key, lambda context: _moves_page(record, game, held, build_file, context))
    return page_cache.for_visitors(key, lambda context: _report_page(record, game, held, build_file, context))


def _report_page(record: records.Record, game: Game | None, held: dict, build_file: str | None,
                 context: dict) -> str:
    """The page of a report on one position: its verdict, results by case, picture and records."""
    report = record.report
    return render_template(
        "reports/report.html",
        record=record,
        report=report,
        game=game,
        game_title=game.title if game is not None else record.game,
        violations=grouped(record, report.get("violations", []), numbered=True),
        findings=grouped(record, report.get("findings", []), numbered=False),
        picture=_stored_picture(record),
        seen_as=seen_as(record),
        module_label=module_label(record),
        coverage=coverage_note(report),
        coverage_recorded="coverage" in report,
        checked_with=record.provenance,
        provenance_recorded=record.provenance_recorded,
        build_file_sha256=build_file,
        mapping_coverage=mapping_coverage(report),
        arbitration=held,
        **context,
    )


@dataclass(frozen=True)
class JudgedMove:
    """A step of a log or a link of a chain as its report page shows it."""

    index: int
    in_words: str
    before: str
    after: str
    legal: bool
    breaks: list[dict]
    violations: list[Group]
    findings: list[Group]
    told: list[Group]  # the findings that are not mere information: what a legal move's line shows
    picture_before: Markup | None = None
    picture_after: Markup | None = None
    picture_note: str | None = None
    pictured: bool = False
    before_violations: int = 0  # the position before the move breaks rules of its own, marked on its picture


LISTED_LEGAL_MOVES = 50  # legal moves with findings listed by their words; the rest only counted


def _moves_page(record: records.Record, game: Game | None, held: dict, build_file: str | None,
                context: dict) -> str:
    """A log judged step by step or a chain of saves: illegal moves in full, with pictures; legal ones summed up."""
    report = record.report
    key = "links" if report.get("kind") == "chain" else "steps"
    items = [item for item in report.get(key, []) if isinstance(item, dict)]
    stored_pictures = report.get("pictures") if isinstance(report.get("pictures"), dict) else {}
    illegal = [_judged_move(record, item, stored_pictures.get(str(item.get("index")))) for item in items
               if not item.get("legal", True)]
    legal = [_judged_move(record, item, None) for item in items if item.get("legal", True) and _tells(item)]
    start = report.get("start") if isinstance(report.get("start"), dict) else {}
    return render_template(
        "reports/moves.html",
        record=record,
        report=report,
        game=game,
        game_title=game.title if game is not None else record.game,
        chain=key == "links",
        illegal=illegal,
        legal=legal[:LISTED_LEGAL_MOVES],
        legal_unlisted=max(0, len(legal) - LISTED_LEGAL_MOVES),
        pictured_moves=move_reports.PICTURED_MOVES,
        start_violations=grouped(record, start.get("violations", []), numbered=True),
        start_findings=grouped(record, [found for found in start.get("findings", []) if _tells_found(found)],
                               numbered=False),
        start_label="the first save" if key == "links" else "the position the log starts from",
        seen_as=seen_as(record),
        module_label=module_label(record),
        checked_with=record.provenance,
        provenance_recorded=record.provenance_recorded,
        build_file_sha256=build_file,
        mapping_coverage=mapping_coverage(report),
        coverage=coverage_note(report),
        coverage_recorded="coverage" in report,
        arbitration=held,
        **context,
    )


def _tells(item: dict) -> bool:
    """Whether a legal move has something to tell an arbiter: a finding that is not mere information."""
    return any(_tells_found(found) for found in item.get("findings", []))


def _tells_found(found: object) -> bool:
    return isinstance(found, dict) and found.get("severity") != "info"


def _judged_move(record: records.Record, item: dict, stored: dict | None) -> JudgedMove:
    stored = stored if isinstance(stored, dict) else {}
    return JudgedMove(
        index=int(item.get("index", 0)),
        in_words=str(item.get("in_words", "")),
        before=str(item.get("before", "")),
        after=str(item.get("after", "")),
        legal=bool(item.get("legal", True)),
        breaks=[found for found in item.get("breaks", []) if isinstance(found, dict)],
        violations=grouped(record, item.get("violations", []), numbered=True),
        findings=grouped(record, item.get("findings", []), numbered=False),
        told=grouped(record, [found for found in item.get("findings", []) if _tells_found(found)], numbered=False),
        picture_before=_shown(record, stored.get("before")),
        picture_after=_shown(record, stored.get("after")),
        picture_note=stored.get("note"),
        pictured=bool(stored),
        before_violations=stored.get("before_violations", 0) if isinstance(stored.get("before_violations"), int)
        else 0,
    )


@blueprint.get("/reports/<report_id>.json")
def as_json(report_id: str):
    return public_json(record_or_404(report_id))


def _stored_picture(record: records.Record) -> Markup | None:
    """The stored picture as markup to place inline.

    It was cleaned when it was drawn and stored marked so (pictures.shown);
    a record written by an older, laxer version is cleaned again on the way
    out.  After ``clean_svg`` every text and attribute has been escaped by
    lxml, which is why this is the one place generated markup is marked safe.
    """
    return _shown(record, record.picture)


def _shown(record: records.Record, stored: object) -> Markup | None:
    if not isinstance(stored, str) or not stored:
        return None
    try:
        return Markup(pictures.shown(stored))
    except pictures.PictureError as error:
        current_app.logger.warning("A stored picture of report %s was refused: %s", record.id, error)
        return None

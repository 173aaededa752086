"""Arbitration pages: case files, players' comments, rulings and ruling requests.

Anyone with a link reads a case file, a ruling or a request; a player may
comment on a case file (rate-limited per client address) and open a case
file on a report.  Only a signed-in arbiter (``arbiter_required``) lists
case files, writes and edits rulings, and opens or decides requests.  Every
form carries its CSRF token; no GET changes anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, Flask, abort, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from validator import store, stored_results
from validator.arbitration import case_files, comments, counters, requests, rulings
from validator.errors import InputError
from validator.web import arbitration_json, csrf, database, records
from validator.web.arbiters import arbiter_required, client_address, current_arbiter
from validator.web.errors import storing
from validator.web.markup import printable

blueprint = Blueprint("arbitration", __name__)

COMMENT_LIMIT = "REFEREE_COMMENT_LIMIT"  # app config: a counters.Limit
CASE_FILE_LIMIT = "REFEREE_CASE_FILE_LIMIT"
DEFAULT_CASE_FILE_LIMIT = counters.Limit(count=20, seconds=3600)
SEARCH_PAGE = 100  # rulings on one page of /rulings/
TOO_MANY = "You have {what} often in a short time; wait {seconds} seconds and try again."


def _refused(error: InputError):
    abort(400, description=error.args[1] if len(error.args) > 1 else str(error))


def _limited(what: str, reached: counters.LimitReached):
    abort(429, description=TOO_MANY.format(what=what, seconds=reached.wait_seconds), retry_after=reached.wait_seconds)


def _case_file_or_404(case_file_id: str) -> case_files.CaseFile:
    found = case_files.load(database.connection(), case_file_id)
    if found is None:
        abort(404, description=f"There is no case file “{printable(case_file_id, 40)}”; use the link you were given.")
    return found


def _ruling_or_404(ruling_id: str) -> rulings.Ruling:
    found = rulings.load(database.connection(), ruling_id)
    if found is None:
        abort(404, description=f"There is no ruling “{printable(ruling_id, 40)}”; use the link you were given.")
    return found


def _request_or_404(request_id: str) -> requests.RulingRequest:
    found = requests.load(database.connection(), request_id)
    if found is None:
        abort(404, description=f"There is no ruling request “{printable(request_id, 40)}”.")
    return found


# -- Case files -------------------------------------------------------------------


@blueprint.get("/case-files/")
@arbiter_required
def case_file_list():
    connection = database.connection()
    return render_template("arbitration/case_files.html", case_files=case_files.listed(connection),
                           review=rulings.needing_review(connection), ruling_requests=requests.listed(connection),
                           kinds=case_files.KINDS)


@blueprint.post("/case-files/")
@arbiter_required
def open_case_file():
    """An arbiter opens a case file on one or more reports, given by id in the order of play."""
    ids = [word.rsplit("/", 1)[-1] for word in request.form.get("reports", "").split()][:50]
    try:
        with storing("the case file"):
            opened = case_files.open_case_file(database.connection(), request.form.get("title", ""),
                                               request.form.get("kind", ""), ids)
    except InputError as error:
        _refused(error)
    return redirect(url_for("arbitration.case_file", case_file_id=opened.id), code=303)


@blueprint.post("/reports/<report_id>/case-file")
def open_case_file_on_report(report_id: str):
    """Anyone holding a report's link may open a case file on it (rate-limited per client address)."""
    csrf.require_token()
    connection = database.connection()
    record = records.load(connection, report_id)
    if record is None:  # before the count, so a wrong address uses up no case file
        abort(404, description=f"There is no report “{printable(report_id, 40)}”; open the case file from its page.")
    kind = record.report.get("kind") if stored_results.is_moves(record.report) else "save"  # a log's or a chain's
    limit = current_app.config.get(CASE_FILE_LIMIT, DEFAULT_CASE_FILE_LIMIT)
    try:
        with storing("the case file"):
            with store.write_transaction(connection):
                counters.take(connection, "case-file", client_address(), limit)
            opened = case_files.open_case_file(connection, request.form.get("title", ""), kind, [record.id])
    except counters.LimitReached as reached:
        _limited("opened case files", reached)
    except InputError as error:
        _refused(error)
    return redirect(url_for("arbitration.case_file", case_file_id=opened.id), code=303)


@blueprint.get("/case-files/<case_file_id>")
def case_file(case_file_id: str):
    found = _case_file_or_404(case_file_id)
    connection = database.connection()
    return render_template(
        "arbitration/case_file.html", case_file=found, comments=comments.listed(connection, found.id),
        rulings=rulings.of_case_file(connection, found.id),
        ruling_requests=[item for item in requests.listed(connection, found.game) if item.case_file == found.id],
        longest_comment=comments.LONGEST_BODY, longest_author=comments.LONGEST_AUTHOR,
    )


@blueprint.post("/case-files/<case_file_id>/comments")
def comment(case_file_id: str):
    csrf.require_token()
    found = _case_file_or_404(case_file_id)
    limit = current_app.config.get(COMMENT_LIMIT, comments.DEFAULT_LIMIT)
    try:
        with storing("your comment"):
            comments.add(database.connection(), found.id, request.form.get("author", "")[:1000],
                         request.form.get("body", "")[:comments.LONGEST_BODY * 2], client_address(), limit)
    except counters.LimitReached as reached:
        _limited("commented", reached)
    except InputError as error:
        _refused(error)
    return redirect(url_for("arbitration.case_file", case_file_id=found.id) + "#comments", code=303)


# -- Rulings ----------------------------------------------------------------------


@dataclass(frozen=True)
class Choosable:
    """A violation a ruling form offers to except: its field value, its report, number and result item.

    ``place`` says where a moves report holds it ("step 3", "link 2", "the start"); empty for one position.
    """

    value: str
    report_id: str
    source_name: str
    number: int
    item: dict
    place: str = ""


def placed_results(report: dict, key: str) -> list[tuple[str, dict]]:
    """The report's ``violations`` or ``findings``, each with where a moves report holds it, in page order.

    The same items in the same order as ``stored_results.results_of``, so a number counts as the report page's.
    """
    if not stored_results.is_moves(report):
        return [("", item) for item in stored_results.results_of(report, key)]
    placed = []
    for part in stored_results.MOVES_PARTS:
        held = report.get(part)
        moves = [held] if isinstance(held, dict) else held if isinstance(held, list) else []
        for position, move in enumerate(moves, start=1):
            if not isinstance(move, dict):
                continue
            noun = {"start": "the start", "steps": "step", "links": "link"}[part]
            place = noun if part == "start" else f"{noun} {move.get('index', position)}"
            placed += [(place, item) for item in stored_results.results_of({key: move.get(key)}, key)]
    return placed


def _scope(case_file_id: str | None, report_id: str | None) -> tuple[str | None, list[records.Record]]:
    """The game and the reports a ruling is written on: a case file's, one report's, or none."""
    connection = database.connection()
    if case_file_id:
        found = _case_file_or_404(case_file_id)
        loaded = [records.load(connection, filed.report_id) for filed in found.reports]
        return found.game, [record for record in loaded if record is not None]
    if report_id:
        record = records.load(connection, report_id)
        if record is None:
            abort(404, description=f"There is no report “{printable(report_id, 40)}”.")
        return record.game, [record]
    return None, []


def _choosable(reports: list[records.Record]) -> list[Choosable]:
    return [Choosable(f"{record.id}:{number}", record.id, record.source_name, number, item, place)
            for record in reports
            for number, (place, item) in enumerate(placed_results(record.report, "violations"), start=1)]


def _imported_games() -> list[str]:
    return [row[0] for row in database.connection().execute("SELECT game FROM rulebook ORDER BY game")]


def _ruling_form_page(*, ruling: rulings.Ruling | None = None, game: str | None = None,
                      reports: list[records.Record] = (), answering: requests.RulingRequest | None = None,
                      case_file_id: str | None = None, report_id: str | None = None, cases: str = "",
                      problem: str | None = None):
    """The ruling form, new or editing; after a mistake, filled in with what was sent and the sentence (400)."""
    page = render_template(
        "arbitration/ruling_form.html", ruling=ruling, ruling_game=game or (answering.game if answering else None),
        games=[] if ruling else _imported_games(), choosable=_choosable(list(reports)),
        case_file_id=case_file_id or "", report_id=report_id or "", answering=answering, cases=cases,
        statuses=rulings.STATUSES, problem=problem, filled=request.form if problem else None)
    return page, 400 if problem else 200


def _problem(error: InputError) -> str:
    return error.args[1] if len(error.args) > 1 else str(error)


@blueprint.get("/rulings/new")
@arbiter_required
def ruling_form():
    case_file_id, report_id = request.args.get("case_file"), request.args.get("report")
    game, reports = _scope(case_file_id, report_id)
    answering = _request_or_404(request.args["request"]) if request.args.get("request") else None
    return _ruling_form_page(game=game, reports=reports, answering=answering, case_file_id=case_file_id,
                             report_id=report_id, cases=request.args.get("cases", ""))


@blueprint.post("/rulings/")
@arbiter_required
def write_ruling():
    form = request.form
    case_file_id, report_id = form.get("case_file") or None, form.get("report") or None
    game, reports = _scope(case_file_id, report_id)
    answering = _request_or_404(form["request"]) if form.get("request") else None
    scope_game = game
    game = game or (answering.game if answering else form.get("game", ""))
    by_value = {choice.value: choice for choice in _choosable(reports)}
    excepted = []
    for value in form.getlist("except")[:200]:
        if value not in by_value:
            abort(400, description="The form names a violation its reports do not have; reload the form.")
        choice = by_value[value]
        excepted.append(rulings.ExceptedViolation(rulings.ViolationKey.of_item(choice.report_id, choice.item),
                                                  form.get(f"reason-{value}", "")[:rulings.LONGEST_REASON * 2]))
    connection = database.connection()
    try:
        with storing("the ruling"):
            written = rulings.write(
                connection, arbiter=current_arbiter().name, game=game, decision=form.get("decision", "")[:50_000],
                cases=rulings.parsed_cases(form.get("cases", "")[:2000]), status=form.get("status", "ruled"),
                case_file=case_file_id, request_id=answering.id if answering else None, exceptions=excepted,
                choice=form.get("choice", "")[:5] if answering is not None else None,
            )
    except InputError as error:
        return _ruling_form_page(game=scope_game, reports=reports, answering=answering, case_file_id=case_file_id,
                                 report_id=report_id, cases=form.get("cases", "")[:2000], problem=_problem(error))
    return redirect(url_for("arbitration.ruling", ruling_id=written.id), code=303)


def _ruling_and_request(ruling_id: str) -> tuple[rulings.Ruling, requests.RulingRequest | None]:
    found = _ruling_or_404(ruling_id)
    return found, requests.load(database.connection(), found.request_id) if found.request_id else None


@blueprint.get("/rulings/<ruling_id>")
def ruling(ruling_id: str):
    found, answered = _ruling_and_request(ruling_id)
    return render_template("arbitration/ruling.html", ruling=found, answered=answered)


@blueprint.get("/rulings/<ruling_id>.json")
def ruling_as_json(ruling_id: str):
    return arbitration_json.ruling_json(*_ruling_and_request(ruling_id))


@blueprint.get("/rulings/<ruling_id>/edit")
@arbiter_required
def edit_form(ruling_id: str):
    found = _ruling_or_404(ruling_id)
    return _ruling_form_page(ruling=found, game=found.game,
                             cases=", ".join(citation.number for citation in found.citations))


@blueprint.post("/rulings/<ruling_id>")
@arbiter_required
def edit(ruling_id: str):
    found = _ruling_or_404(ruling_id)
    try:
        with storing("the ruling's new revision"):
            rulings.edit(database.connection(), found.id, arbiter=current_arbiter().name,
                         decision=request.form.get("decision", "")[:50_000],
                         cases=rulings.parsed_cases(request.form.get("cases", "")[:2000]),
                         status=request.form.get("status", ""), recite=request.form.get("recite") == "yes")
    except InputError as error:
        return _ruling_form_page(ruling=found, game=found.game, cases=request.form.get("cases", "")[:2000],
                                 problem=_problem(error))
    return redirect(url_for("arbitration.ruling", ruling_id=found.id), code=303)


@blueprint.get("/rulings/")
def search():
    game, case, text = (request.args.get(name, "")[:rulings.LONGEST_QUERY].strip() for name in ("game", "case", "q"))
    if case:
        try:
            case = rulings.parsed_cases(case)[0]
        except InputError as error:
            _refused(error)
    page = request.args.get("page", "1")
    page = int(page) if page.isdigit() and 0 < int(page) < 100_000 else 1
    found = rulings.search(database.connection(), game=game, case=case, text=text, limit=SEARCH_PAGE + 1,
                           offset=(page - 1) * SEARCH_PAGE)
    return render_template("arbitration/rulings.html", found=found[:SEARCH_PAGE], game_id=game, case=case,
                           query=text, games=_imported_games(), page=page, more=len(found) > SEARCH_PAGE)


# -- Ruling requests ----------------------------------------------------------------


def _request_form_page(record: records.Record | None, case_number: str, case_file_id: str,
                       problem: str | None = None):
    """The request form; after a mistake, filled in with what was sent and the sentence (400)."""
    unchecked = [(place, item) for place, item in (placed_results(record.report, "findings") if record else [])
                 if item.get("severity") == "unchecked"]
    page = render_template("arbitration/request_form.html", record=record, unchecked=unchecked,
                           case_number=case_number, case_file_id=case_file_id, games=_imported_games(),
                           labels=requests.LABELS, problem=problem, filled=request.form if problem else None)
    return page, 400 if problem else 200


@blueprint.get("/requests/new")
@arbiter_required
def request_form():
    report_id = request.args.get("report", "")
    record = records.load(database.connection(), report_id) if report_id else None
    return _request_form_page(record, request.args.get("case", ""), request.args.get("case_file", ""))


@blueprint.post("/requests/")
@arbiter_required
def open_request():
    form = request.form
    report_id = form.get("report") or None
    record = records.load(database.connection(), report_id) if report_id else None
    case_file_id = form.get("case_file") or None
    game = record.game if record else (_case_file_or_404(case_file_id).game if case_file_id else form.get("game", ""))
    try:
        with storing("the ruling request"):
            opened = requests.open_request(
                database.connection(), game=game, question=form.get("question", "")[:10_000],
                readings=[form.get(f"option-{label}", "")[:5000] for label in requests.LABELS],
                opened_by=current_arbiter().name, origin="unchecked" if form.get("case_number") else "question",
                report_id=report_id, case_number=form.get("case_number") or None, case_file=case_file_id,
            )
    except InputError as error:
        return _request_form_page(record, form.get("case_number", "")[:40], case_file_id or "", _problem(error))
    return redirect(url_for("arbitration.ruling_request", request_id=opened.id), code=303)


def _request_and_answers(request_id: str) -> tuple[requests.RulingRequest, list[str]]:
    found = _request_or_404(request_id)
    answers = [row[0] for row in database.connection().execute(
        "SELECT id FROM ruling WHERE request_id = ? ORDER BY created_at, id", (found.id,))]
    return found, answers


@blueprint.get("/requests/<request_id>")
def ruling_request(request_id: str):
    found, answers = _request_and_answers(request_id)
    return render_template("arbitration/request.html", ruling_request=found, answers=answers)


@blueprint.get("/requests/<request_id>.json")
def ruling_request_as_json(request_id: str):
    return arbitration_json.request_json(*_request_and_answers(request_id))


# -- The arbiter's view of a report ---------------------------------------------------


@dataclass(frozen=True)
class SeenPiece:
    """A piece of the arbiter's view, and whether the report's viewer could see it."""

    name: str
    side: str
    location: str
    hidden_from_viewer: bool


CHAIN_VIEW_REFUSED = (
    "This report judges a chain of {count} saves, and the arbiter's view reads one save at a time: check the save "
    "you want to see on its own with “referee check SAVE --module MODULE --game GAME --arbiter”."
)


@blueprint.get("/reports/<report_id>/arbiter-view")
@arbiter_required
def arbiter_view(report_id: str):
    """Every piece of a stored VASSAL save, those masked or hidden from the report's viewer marked so."""
    from validator import games, intake
    from validator.web import kept_modules, site_limits

    record = records.load(database.connection(), report_id)
    if record is None:
        abort(404, description=f"There is no report “{printable(report_id, 40)}”.")
    pieces, problem = [], None
    if record.is_vassal and record.report.get("kind") == stored_results.CHAIN:  # its save file is a zip of saves
        problem = CHAIN_VIEW_REFUSED.format(count=len(record.report.get("saves") or ()))
    elif record.is_vassal:
        folder = records.uploads_folder(current_app.instance_path)
        kept = kept_modules.find(database.connection(), record.module_id) if record.module_id is not None else None
        if kept is None or not (folder / kept.file).is_file() or not (folder / record.save_file).is_file():
            problem = "The save or its module is no longer kept, so the arbiter's view cannot be read again."
        elif record.game not in games.registry():
            problem = f"The game {record.game} is no longer installed, so the save cannot be read again."
        else:
            def reading(**view):
                return intake.read_submission(intake.Submission(
                    folder / record.save_file, record.source_name, game=record.game, module=folder / kept.file,
                    limits=site_limits.in_force(), **view)).position
            try:
                seen = {piece.id for piece in reading(viewer=record.viewer).pieces}
                everything = reading(arbiter=True)
            except InputError as error:
                problem = f"The save cannot be read again: {error.args[-1] if error.args else error}"
            else:
                pieces = [SeenPiece(piece.name or piece.id, piece.side,
                                    everything.location_label(piece.location) if piece.location else "off the map",
                                    piece.id not in seen)
                          for piece in everything.pieces]
    return render_template("arbitration/arbiter_view.html", record=record, pieces=pieces, problem=problem,
                           hidden=sum(piece.hidden_from_viewer for piece in pieces))


# -- What other pages show --------------------------------------------------------


@dataclass(frozen=True)
class ExceptedLine:
    number: int
    item: dict
    exception: rulings.ExceptedViolation


def report_records(record: records.Record) -> dict:
    """What a report page shows of the arbitration records: excepted violations and case files holding it."""
    connection = database.connection()
    excepted = rulings.exceptions_of_report(connection, record.id)
    lines = []
    for number, item in enumerate(stored_results.violations_of(record.report), start=1):
        exception = excepted.get(rulings.ViolationKey.of_item(record.id, item))
        if exception is not None:
            lines.append(ExceptedLine(number, item, exception))
    filed_in = [row[0] for row in connection.execute(
        "SELECT DISTINCT case_file FROM case_file_report WHERE report_id = ? ORDER BY case_file", (record.id,))]
    return {"excepted": lines, "case_files": filed_in}


# A case page is kept as rendered until the next import (validator.web.page_cache), but its
# rulings change between imports: the kept page holds this mark, and each request puts the
# case's rulings in its place.  Rulebook text is escaped, so the mark cannot come from a book.
RULINGS_PLACEHOLDER = Markup("<!-- the rulings that cite this case -->")


def with_rulings(page: str, game: str, number: object) -> str:
    """The case page with the rulings that cite the case in place of the mark."""
    if RULINGS_PLACEHOLDER not in page:
        return page
    citing = rulings.citing(database.connection(), game, str(number))
    return page.replace(RULINGS_PLACEHOLDER, render_template("arbitration/_case_rulings.html", citing=citing), 1)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["rulings_placeholder"] = RULINGS_PLACEHOLDER

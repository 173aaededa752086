"""Checking an uploaded position: the upload form and the JSON API.

``GET /check`` shows the form; ``POST /check`` checks the upload, stores an
arbitration record and redirects (303) to its permanent page
``/reports/<id>``.  ``POST /api/check`` takes the same multipart parts
(``save``, optional ``map``, optional ``game``) and answers the report JSON
with status 200 whether or not the position breaks rules (``legal`` says
which), plus ``id`` and ``report_url``.

Unusable input is a 400 with the reader's own sentence (file, line, column,
what is wrong): the form page shows it above the form, the API answers
``{"error": sentence}``.  A request over ``MAX_CONTENT_LENGTH`` is a 413.
The form needs its CSRF token; the API needs it only from clients that send
cookies (see ``validator.web.csrf``).  A refused upload stores nothing.

The save's map, when it names one by ``href``, is found by
``validator.web.maps``: never as a path on the server.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.datastructures import FileStorage

from validator import games
from validator.games import Game, UnknownGame
from validator.runner import CheckDefectError, check
from validator.saves.xml_reader import MAX_SAVE_BYTES, SaveInputError, read_position
from validator.web import csrf, database, maps, pictures, records, reports
from validator.web.markup import printable
from validator.xmlparsing import XmlInputError, parse_xml

blueprint = Blueprint("checking", __name__)

LONGEST_FILE_NAME = 120
DEFAULT_SAVE_NAME = "save.xml"
DEFAULT_MAP_NAME = "map.xml"

NO_SAVE = (
    "No save file was sent: choose one in the form's save field "
    "(API clients send it as the multipart part named “save”)."
)


class UploadError(ValueError):
    """An upload that cannot be checked, as one sentence, with its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@blueprint.get("/check")
def form():
    return _form_page()


@blueprint.post("/check")
def check_form():
    csrf.require_token()
    try:
        record = _check_upload()
    except UploadError as error:
        return _form_page(error=str(error), status=error.status)
    return redirect(url_for("reports.page", report_id=record.id), code=303)


@blueprint.post("/api/check")
def check_api():
    csrf.require_token_or_no_cookies()
    try:
        record = _check_upload()
    except UploadError as error:
        return jsonify(error=str(error)), error.status
    return jsonify(reports.public_json(record))


def _form_page(error: str | None = None, status: int = 200):
    chosen = request.form.get("game", "") if request.method == "POST" else request.args.get("game", "")
    shelf = sorted(games.registry().values(), key=lambda game: game.title.lower())
    page = render_template("check/form.html", shelf=shelf, chosen=chosen, error=error)
    return page, status


def _check_upload() -> records.Record:
    """Read, check, draw and store the uploaded position; the new record."""
    save = request.files.get("save")
    save_data = _read_part(save)
    if save is None or save_data is None:
        raise UploadError(NO_SAVE)
    save_name = _display_name(save, DEFAULT_SAVE_NAME)
    if not save_data:
        raise UploadError(f"{save_name}: the file is empty; choose the save file to check.")
    if save_data[:2] == b"PK":
        raise UploadError(
            f"{save_name}: this is a zip archive (a VASSAL .vsav, .vlog or .vmod?); the web check "
            "reads Referee save XML files, described in the save format documentation."
        )
    map_part = request.files.get("map")
    map_data = _read_part(map_part)
    uploaded_map = (
        maps.UploadedMap(map_data, _display_name(map_part, DEFAULT_MAP_NAME)) if map_data else None
    )
    chosen = _chosen_game()
    if chosen is not None:
        resolver = maps.UploadMapResolver(lambda: chosen, uploaded_map)
    else:
        resolver = maps.UploadMapResolver(lambda: _declared_game(save_data), uploaded_map)
    game_id = chosen.id if chosen is not None else None

    try:
        position = read_position(save_data, save_name, resolver, game_id)
        game = games.get(position.game)
        report = check(position, game)
    except SaveInputError as error:
        raise UploadError(str(error)) from None
    except CheckDefectError as error:
        current_app.logger.exception("A check failed on the upload %s", save_name)
        raise UploadError(f"{save_name}: {error}") from None
    except Exception:  # a defect met while reading odd input must not become a 500
        current_app.logger.exception("Reading the upload %s failed unexpectedly", save_name)
        raise UploadError(
            f"{save_name}: the file could not be read because Referee failed on it; this is a bug "
            "and it has been logged. Please report it with the save file."
        ) from None

    picture = pictures.draw(game, position, report)
    used = resolver.used
    return records.create(
        database.connection(),
        current_app.instance_path,
        game=game.id,
        source_name=save_name,
        report=report.to_json(),
        save_data=save_data,
        map_name=used.href or None,
        map_origin=used.origin or None,
        map_data=used.data,
        picture=picture.svg,
        picture_note=picture.note,
    )


def _read_part(part: FileStorage | None) -> bytes | None:
    """A file part's bytes, capped; None when the part is absent or no file was chosen."""
    if part is None:
        return None
    data = part.stream.read(MAX_SAVE_BYTES + 1)
    if len(data) > MAX_SAVE_BYTES:
        raise UploadError(
            f"{_display_name(part, 'the file')}: the file is larger than {MAX_SAVE_BYTES:,} bytes, "
            "the limit for a save or map file.",
            status=413,
        )
    if not data and not part.filename:
        return None  # a browser sends an empty part for a file field left blank
    return data


def _display_name(part: FileStorage, default: str) -> str:
    """The file name the user gave, fit to show; never used as a path."""
    name = (part.filename or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    return printable(name, LONGEST_FILE_NAME) if name else default


def _chosen_game() -> Game | None:
    """The game picked in the form (or the API's game part); None to take it from the save."""
    chosen = request.form.get("game", "").strip()
    if not chosen:
        return None
    try:
        return games.get(chosen)
    except UnknownGame:
        known = ", ".join(sorted(games.registry()))
        raise UploadError(
            f"There is no game called “{printable(chosen)}” in Referee; choose one of: {known}, "
            "or leave the choice to the save."
        ) from None


def _declared_game(data: bytes) -> Game | None:
    """The game a save declares, looked up only when its map must be found by name.

    The reader checks the declaration itself (and reports a bad one with its
    line); here it only tells the map resolver whose shipped maps to search.
    """
    try:
        root = parse_xml(data, "save")
        return games.get(root.get("game") or "")
    except (XmlInputError, UnknownGame):
        return None

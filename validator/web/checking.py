"""Checking an uploaded position: the upload form and the JSON API.

``GET /check`` shows the form; ``POST /check`` checks the upload, stores an
arbitration record and redirects (303) to its permanent page
``/reports/<id>``.  ``POST /api/check`` takes the same multipart parts
(``save``, optional ``map``, optional ``game``) and answers the report JSON
with status 200 whether or not the position breaks rules (``legal`` says
which), plus ``id`` and ``report_url``.

Every upload is read by :func:`validator.intake.read_submission`, the one
way in the command line shares.  Unusable input (an ``InputError``) is a 400
with the reader's own sentence (file, line, column,
what is wrong): the form page shows it above the form, the API answers
``{"error": sentence}``.  A request over ``MAX_CONTENT_LENGTH`` is a 413
that gives the limits; on the form page it shows the form again.  A
multipart body of which no part can be read (Werkzeug drops it whole, for
instance for a file name that is not UTF-8) is a 400 that says so.
The form needs its CSRF token; the API needs it only from clients that send
cookies (see ``validator.web.csrf``).  A refused upload stores nothing.

The save's map, when it names one by ``href``, is found by
``validator.saves.uploaded_maps``: never as a path on the server.  A map file the user
sends is never dropped in silence: an empty one is refused, and so is one the
check would not use (the save carries its map inside it, or it is a VASSAL
save, which is read with its game's own map), since a report checked against
another map than the one the user chose would be a ruling on a different
position.

A VASSAL save or log (a zip, or a file named ``.vsav`` / ``.vlog``:
``validator.intake.is_vassal_file``) is checked by
``validator.web.vassal_checks`` with its module (the ``module`` part, or
``kept_module``, the SHA-256 of a module kept earlier), the chosen ``game`` (then
required) and the ``viewer`` side (empty: a spectator).  ``GET /api/modules``
lists the kept modules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for

from validator import catalogue, games, intake, provenance
from validator.errors import InputError
from validator.games import Game, UnknownGame
from validator.limits import with_site_note
from validator.runner import check
from validator.saves.uploaded_maps import UploadedMap
from validator.web import (
    chain_checks,
    csrf,
    database,
    errors,
    house_rules,
    kept_modules,
    pictures,
    records,
    reports,
    site_limits,
    vassal_checks,
)
from validator.web.markup import printable
from validator.web.uploads import UploadError, answering_problems, display_name, read_part, status_of

blueprint = Blueprint("checking", __name__)

DEFAULT_SAVE_NAME = "save.xml"
DEFAULT_MAP_NAME = "map.xml"

EMPTY_MAP = (
    "{map}: the file is empty; choose the map file, or leave the map field empty to use the map the save names."
)
UNREADABLE_FORM = (
    "The form could not be read: a part of it is not well-formed, or a file name in it is not UTF-8 (some old "
    "browsers send names that way); rename the file with plain letters and numbers and send it again."
)
NO_SAVE = (
    "No save file was sent: choose one in the form's save field "
    "(API clients send it as the multipart part named “save”)."
)


@blueprint.get("/check")
def form():
    return _form_page()


@blueprint.get("/check/")
def form_with_slash():
    return redirect(url_for("checking.form"), code=308)


@blueprint.errorhandler(413)
def too_large(error):
    """The form again, with the limits in a sentence; the API answers the same sentence as JSON."""
    message = errors.too_large_message()
    if request.path.startswith(errors.API_PREFIX):
        return jsonify(error=message), 413
    return _form_page(error=message, status=413, values={})  # the body is not read, so no choice can be kept


@blueprint.post("/check")
def check_form():
    if _form_unreadable():
        return _form_page(error=UNREADABLE_FORM, status=400, values={})
    csrf.require_token()
    try:
        record = _check_upload()
    except InputError as error:
        return _form_page(error=str(error), status=status_of(error))
    return redirect(url_for("reports.page", report_id=record.id), code=303)


@blueprint.post("/api/check")
def check_api():
    if _form_unreadable():
        return jsonify(error=UNREADABLE_FORM), 400
    csrf.require_token_or_no_cookies()
    try:
        record = _check_upload()
    except InputError as error:
        return jsonify(error=str(error)), status_of(error)
    return jsonify(reports.public_json(record))


@blueprint.get("/api/modules")
def modules_api():
    """The kept VASSAL modules, with the games whose mapping reads each: ids for the ``kept_module`` part."""
    shelf = sorted(games.registry().values(), key=lambda game: game.title.lower())
    listed = []
    for group in _kept_module_groups(shelf, chosen=""):
        for module in group.modules:
            listed.append({**kept_modules.public_json(module), "game": group.game.id if group.game else None})
    return jsonify(modules=listed)


@dataclass
class ModuleGroup:
    """The kept modules a game's mapping reads (``game`` None: modules no game's mapping reads)."""

    game: Game | None
    modules: list[kept_modules.KeptModule]


def _kept_module_groups(shelf: list[Game], chosen: str) -> list[ModuleGroup]:
    """Kept modules by the game whose own mapping reads them; only the chosen game's when one is chosen."""
    kept = kept_modules.listing(database.connection())
    groups: list[ModuleGroup] = []
    placed: set[int] = set()
    for game in shelf:
        try:
            mapping = intake.mapping_for(game.id)
        except InputError:  # the game ships no mapping (or a broken one): no module reads through it
            continue
        modules = [
            module for module in kept
            if module.name == mapping.module_name and mapping.accepts_version(module.version or None)
        ]
        placed.update(module.id for module in modules)
        if modules and (not chosen or chosen == game.id):
            groups.append(ModuleGroup(game, modules))
    others = [module for module in kept if module.id not in placed]
    if others and not chosen:
        groups.append(ModuleGroup(None, others))
    return groups


def _form_page(error: str | None = None, status: int = 200, values=None):
    """The form; ``values`` are the choices to show again (by default those of the request)."""
    if values is None:
        values = request.form if request.method == "POST" else request.args
    chosen = values.get("game", "")
    shelf = sorted(games.registry().values(), key=lambda game: game.title.lower())
    module_groups = _kept_module_groups(shelf, chosen)
    sides = sorted({side for group in module_groups for module in group.modules for side in module.sides})
    page = render_template(
        "check/form.html",
        shelf=shelf,
        chosen=chosen,
        error=error,
        module_groups=module_groups,
        chosen_module=values.get("kept_module", ""),
        viewer=values.get("viewer", "")[:100],
        sides=sides,
        max_module_megabytes=kept_modules.MAX_MODULE_BYTES // (1024 * 1024),
        final=bool(values.get("final", "").strip()),
        chain_saves=site_limits.in_force().chain_saves,
    )
    return page, status


def _check_upload() -> records.Record:
    """Read, check, draw and store the uploaded position (or chain of saves); the new record."""
    if len(request.files.getlist("save")) > 1:
        return chain_checks.check_chain(_chain_saves(), _chosen_game(), _uploaded_map())
    save = request.files.get("save")
    save_data = read_part(save)
    if save is None or save_data is None:
        raise UploadError(NO_SAVE)
    save_name = display_name(save, DEFAULT_SAVE_NAME)
    if not save_data:
        raise UploadError(f"{save_name}: the file is empty; choose the save file to check.")
    uploaded_map = _uploaded_map()
    if intake.is_vassal_file(save_name, save_data):
        return vassal_checks.check_upload(save_data, save_name, _chosen_game(), uploaded_map)
    if vassal_checks.has_module_parts():  # refused before a module part is copied anywhere
        raise UploadError(f"{save_name}: {intake.MODULE_WITH_XML}")
    chosen = _chosen_game()
    submission = intake.Submission(save_data, save_name, game=chosen.id if chosen is not None else None,
                                   map=uploaded_map, limits=site_limits.in_force())
    with answering_problems(save_name, "save file", with_site_note):
        reading = intake.read_submission(submission)
        game = games.get(reading.position.game)
        report = house_rules.rated(provenance.stamped(check(reading.position, game), submission, reading))

    picture = pictures.draw(game, reading.position, report)
    used = reading.map
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


def _chain_saves() -> list[tuple[bytes, str]]:
    """Each save part's bytes and shown name, in the order sent (a count past the limit is refused unread)."""
    parts = request.files.getlist("save")
    chain_checks.refuse_too_many(len(parts))
    saves = []
    for part in parts:
        data = read_part(part)
        saves.append((data or b"", display_name(part, DEFAULT_SAVE_NAME)))
    if not request.path.startswith(errors.API_PREFIX):  # a browser's order of chosen files is its own: go by name
        saves.sort(key=lambda save: _name_order(save[1]))
    return saves


def _name_order(name: str) -> list:
    """A file name's sort key with its numbers counted as numbers: turn-2 before turn-10."""
    return [(0, int(part), "") if part.isdecimal() else (1, 0, part.lower()) for part in re.split(r"(\d+)", name)]


def _form_unreadable() -> bool:
    """True for a multipart body that held parts of which not one could be read.

    Werkzeug drops such a body whole, token and all, so without this the
    user would hear that the page expired or that no file was sent.  A body
    longer than its closing boundary line ("--boundary--" between line
    breaks) held parts; an empty form is only that line.
    """
    if request.mimetype != "multipart/form-data" or request.form or request.files:
        return False
    closing_line = len(request.mimetype_params.get("boundary", "")) + len("\r\n----\r\n")
    return (request.content_length or 0) > closing_line


def _uploaded_map() -> UploadedMap | None:
    """The map file sent with the save; None when the field was left empty; refused when the file is empty."""
    part = request.files.get("map")
    data = read_part(part)
    if data is None:
        return None
    name = display_name(part, DEFAULT_MAP_NAME)
    if not data:
        raise UploadError(EMPTY_MAP.format(map=name))
    return UploadedMap(data, name)


def _chosen_game() -> Game | None:
    """The game picked in the form (or the API's game part); None to take it from the save."""
    chosen = request.form.get("game", "").strip()
    if not chosen:
        return None
    try:
        return games.get(chosen)
    except UnknownGame:
        catalogue.require_checks(database.connection(), chosen)  # a reference-only game is told it has no checks
        known = ", ".join(sorted(games.registry()))
        raise UploadError(
            f"There is no game called “{printable(chosen)}” in Referee; choose one of: {known}, "
            "or leave the choice to the save."
        ) from None

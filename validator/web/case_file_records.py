"""What an arbiter does with the records of a case file: re-check a report, delete uploads, export.

- ``POST /reports/<id>/recheck`` (arbiter): the stored report beside what the
  current version finds on the same files (:mod:`validator.recheck`; a log
  or chain is judged again move by move); nothing is stored.
  ``POST /reports/<id>/recheck.json`` answers the comparison as JSON.
- ``POST /case-files/<id>/uploads/delete`` (arbiter): the saves and maps of
  the case file's reports are removed (:mod:`validator.retention`); their
  verdicts and pages stay.  Once none keeps its uploads, the pages say when
  they were removed and offer neither a re-check nor a deletion, and a
  deletion sent again is answered (409) with a sentence saying so.
- ``GET /case-files/<id>/export.html`` and ``export.json``: the case file as
  one self-contained HTML document (its CSS inline, the pictures inline as
  SVG, no script, nothing loaded from anywhere) and as JSON
  (docs/arbitration.md, "Export").  Anyone with the case file's address may
  read them, as they may read its page.

Every write needs an arbiter's sign-in and the form's CSRF token
(``arbiter_required``).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, url_for
from markupsafe import Markup

from validator import recheck, retention
from validator.errors import InputError
from validator.web import addresses, database, kept_modules, pictures, records, reports, site_limits
from validator.web.arbiters import arbiter_required
from validator.web.case_file_export import exported, exported_json
from validator.web.errors import storing

blueprint = Blueprint("case_file_records", __name__)


def stored_check(record: records.Record) -> recheck.StoredCheck:
    """Where the record's uploaded files are, for a re-check (``None`` for files no longer kept)."""
    folder = records.uploads_folder(current_app.instance_path)
    module_path = None
    if record.module_id is not None:
        kept = kept_modules.find(database.connection(), record.module_id)
        module_path = folder / kept.file if kept is not None else None
    return recheck.StoredCheck(
        report=record.report, game=record.game, source_name=record.source_name,
        save_path=folder / record.save_file if record.save_file else None,
        map_path=folder / record.map_file if record.map_file else None, map_name=record.map_name,
        map_uploaded=record.map_origin == "uploaded", module_path=module_path, viewer=record.viewer,
    )


def _rechecked(report_id: str):
    record = reports.record_or_404(report_id)
    try:
        return record, recheck.recheck(stored_check(record), site_limits.in_force()), None
    except InputError as error:
        return record, None, str(error)


@dataclass(frozen=True)
class CaseFileUploads:
    """How many of a case file's reports still keep their uploads, and when the last removal of the others was."""

    kept: int
    removed_at: str | None


@blueprint.app_template_global()
def uploads_removed_at(report_id: str) -> str | None:
    """When the report's uploads were removed (the report page says so and offers no re-check), or None."""
    return retention.removed_at(database.connection(), report_id)


@blueprint.app_template_global()
def case_file_uploads(case_file_id: str) -> CaseFileUploads:
    """The case file's uploads: the page offers their deletion only while a report keeps some."""
    connection = database.connection()
    stamps = [retention.removed_at(connection, report_id)
              for report_id in retention.of_case_file(connection, case_file_id)]
    removed = [stamp for stamp in stamps if stamp]
    return CaseFileUploads(len(stamps) - len(removed), max(removed, default=None))


@blueprint.post("/reports/<report_id>/recheck")
@arbiter_required
def recheck_page(report_id: str):
    record, comparison, problem = _rechecked(report_id)
    page = render_template("case_file_records/recheck.html", record=record, comparison=comparison, problem=problem,
                           removed_at=retention.removed_at(database.connection(), record.id))
    return page, 400 if problem else 200


@blueprint.post("/reports/<report_id>/recheck.json")
@arbiter_required
def recheck_json(report_id: str):
    _, comparison, problem = _rechecked(report_id)
    if problem:
        return jsonify(error=problem), 400
    return jsonify(comparison.to_json())


@blueprint.post("/case-files/<case_file_id>/uploads/delete")
@arbiter_required
def delete_uploads(case_file_id: str):
    from validator.arbitration import case_files

    found = case_files.load(database.connection(), case_file_id)
    if found is None:
        abort(404, description="There is no case file at this address; check the link you were given.")
    connection = database.connection()
    with storing("the removal of the case file's uploads (every one is still kept)"):
        removal = retention.remove_uploads(connection, records.uploads_folder(current_app.instance_path),
                                           retention.of_case_file(connection, found.id))
    if not removal.report_ids:  # removed before (by an arbiter, or after the retention period): say so
        removed = case_file_uploads(found.id).removed_at
        when = f" (on {removed})" if removed else ""
        abort(409, description=f"No report of this case file keeps its uploaded files any more{when}, so nothing "
                               "was deleted; the reports' verdicts and pages stay.")
    current_app.logger.info("The uploads of %d reports of case file %s were removed.", len(removal.report_ids),
                            found.id)
    return redirect(url_for("arbitration.case_file", case_file_id=found.id), code=303)


@blueprint.get("/case-files/<case_file_id>/export.html")
def export_html(case_file_id: str):
    document = exported(database.connection(), case_file_id, addresses.site_root(), _picture_of)
    if document is None:
        abort(404, description="There is no case file at this address; check the link you were given.")
    return document, 200, {"Content-Type": "text/html; charset=utf-8",
                           "Content-Disposition": f'attachment; filename="case-file-{case_file_id}.html"'}


@blueprint.get("/case-files/<case_file_id>/export.json")
def export_json(case_file_id: str):
    data = exported_json(database.connection(), case_file_id, addresses.site_root())
    if data is None:
        abort(404, description="There is no case file at this address; check the link you were given.")
    return jsonify(data)


def _picture_of(record: records.Record) -> Markup | None:
    """The record's stored picture, cleaned as the report page shows it (None when it has none or is refused)."""
    if not record.picture:
        return None
    try:
        return Markup(pictures.shown(record.picture))
    except pictures.PictureError:
        return None

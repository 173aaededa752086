"""Checking a VASSAL save or log (.vsav, .vlog) uploaded with its module, or naming a kept one.

The check goes through exactly what ``referee check FILE.vsav --module M
--game G [--viewer SIDE]`` runs: :func:`validator.intake.read_submission`,
with the game's own mapping (``plugin/<game>/mappings/vassal-mapping.xml``)
and map, and then the runner.  The save is handed to it as bytes (the VASSAL
reader reads a binary stream; it is never written anywhere before the
check); the module is read from the
instance's ``uploads`` folder, where it is copied under a generated name (see
:mod:`validator.web.kept_modules`).  Nothing is extracted.

The parts (form fields and API parts alike):

* ``save`` -- the .vsav or .vlog (for a log, its final position is checked);
* ``game`` -- required for VASSAL files: the game whose mapping reads them;
* ``module`` -- the .vmod file, or ``kept_module`` -- the id of a module kept
  by an earlier upload (``GET /api/modules`` lists them), not both;
* ``viewer`` -- the roster side whose view is checked; empty for a spectator.

Fog of war: a report shows only what its viewer may see (masked pieces the
viewer may not see through and invisible pieces are left out, and the
report's note counts them).  There is no arbiter view on the web: it would
show every player's hidden pieces to anyone who asks, and the web app has no
login yet.  A request asking for it (an ``arbiter`` part) is refused; an
arbiter uses ``referee check --arbiter`` on their own machine.

Every unusable input is an :class:`UploadError` with the reader's own
sentence, which names the uploaded file by the name the user gave it (never
a path on the server).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from flask import current_app, request

from validator import intake
from validator.games import Game
from validator.runner import check
from validator.saves.uploaded_maps import UploadedMap
from validator.web import database, kept_modules, pictures, records
from validator.web.markup import printable
from validator.web.uploads import UploadError, answering_problems, display_name

# A kept module's id as the form and GET /api/modules give it: ASCII digits only, since str.isdigit() also
# takes "²" (which int() refuses) and "١" (which int() reads as 1); eleven at most, within SQLite's integers.
KEPT_MODULE_ID = re.compile(r"[0-9]{1,11}")
DEFAULT_MODULE_NAME = "module.vmod"

NO_GAME = (
    "{save}: this is a VASSAL save or log; choose its game in the form (API clients send the part named "
    "“game”), so that the game's module mapping can read it."
)
NO_MODULE = (
    "{save}: a VASSAL save is read with its module: choose the .vmod file in the form's module field, or a module "
    "kept from an earlier upload (API clients send the part “module”, or “kept_module” with an id from "
    "GET /api/modules)."
)
BOTH_MODULES = (
    "Send either a module file or the name of a kept module, not both: the kept module would hide the file."
)
ARBITER_REFUSED = (
    "The arbiter's view (every masked and invisible piece shown) is not offered on the web, which has no login "
    "yet; choose a player's side or check as a spectator, or run “referee check --arbiter” yourself."
)


def has_module_parts() -> bool:
    """True when the request names a module, by file or as a kept one."""
    part = request.files.get("module")
    return bool((part is not None and part.filename) or request.form.get("kept_module", "").strip())


def check_upload(save_data: bytes, save_name: str, game: Game | None,
                 uploaded_map: UploadedMap | None) -> records.Record:
    """Check the VASSAL save as the chosen viewer sees it, keep a new module, store the record."""
    if game is None:
        raise UploadError(NO_GAME.format(save=save_name))
    if request.form.get("arbiter", "").strip():
        raise UploadError(ARBITER_REFUSED)
    connection = database.connection()
    folder = records.uploads_folder(current_app.instance_path)
    chosen = _chosen_module(connection, folder, save_name)
    record = None
    try:
        viewer = _viewer(chosen)
        submission = intake.Submission(save_data, save_name, game=game.id, module=chosen.path, map=uploaded_map,
                                       viewer=viewer)
        with answering_problems(save_name, "save and module files", lambda message: _public(message, chosen, game)):
            reading = intake.read_submission(submission)
            report = check(reading.position, game)
        picture = pictures.draw(game, reading.position, report)
        record = records.create(
            connection,
            current_app.instance_path,
            game=game.id,
            source_name=save_name,
            report=report.to_json(),
            save_data=save_data,
            map_name=reading.map.href,
            map_origin=reading.map.origin,
            map_data=reading.map.data,
            picture=picture.svg,
            picture_note=picture.note,
            save_suffix="vlog" if save_name.lower().endswith(".vlog") else "vsav",
            before_insert=lambda transaction: chosen.keep(transaction, viewer, reading.note),
        )
    finally:
        chosen.discard_unkept(recorded=record is not None)
    return record


class ChosenModule:
    """The module a check uses: a kept one, or a new upload that is kept once its check succeeds."""

    def __init__(self, path: Path, display: str, facts: kept_modules.ModuleFacts, *,
                 kept: kept_modules.KeptModule | None = None, upload: kept_modules.ModuleFile | None = None,
                 note: str | None = None) -> None:
        self.path, self.display, self.facts = path, display, facts
        self.kept, self.upload, self.note = kept, upload, note

    def keep(self, connection, viewer: str | None, export_note: str | None) -> records.VassalFacts:
        """Inside the record's transaction: keep a new module (or find it kept meanwhile); the facts to record."""
        note = self.note
        if self.kept is None:
            kept = kept_modules.keep(connection, self.facts, self.upload, self.display)
            if kept.file != self.upload.path.name:  # kept by another upload in the meantime
                note = _already_kept_note(kept, self.upload)
            else:
                note = f"The module {kept.label} was kept for later uploads."
            self.kept = kept
        return records.VassalFacts(self.kept.id, self.kept.name, self.kept.version, viewer,
                                   _join(export_note, note))

    def discard_unkept(self, recorded: bool) -> None:
        """Remove the uploaded copy unless a recorded check made it the kept module."""
        if recorded and self.kept is not None and self.upload is not None and self.kept.file == self.upload.path.name:
            return
        if self.upload is not None:
            self.upload.path.unlink(missing_ok=True)
            self.upload = None


def _join(*sentences: str | None) -> str | None:
    return " ".join(sentence for sentence in sentences if sentence) or None


def _already_kept_note(kept: kept_modules.KeptModule, upload: kept_modules.ModuleFile) -> str:
    note = (f"The module {kept.label} was already kept (uploaded as “{kept.source_name}” on {kept.kept_at}); "
            "that copy was used and this upload was not kept again.")
    if upload.sha256 != kept.sha256:
        note += (" This upload's contents differ from the kept copy's: a module that changed should carry a new "
                 "version number.")
    return note


def _chosen_module(connection, folder: Path, save_name: str) -> ChosenModule:
    part = request.files.get("module")
    given = part is not None and bool(part.filename)
    choice = request.form.get("kept_module", "").strip()
    if given and choice:
        raise UploadError(BOTH_MODULES)
    if not given and not choice:
        raise UploadError(NO_MODULE.format(save=save_name))
    if choice:
        kept = kept_modules.find(connection, int(choice)) if KEPT_MODULE_ID.fullmatch(choice) else None
        if kept is None:
            raise UploadError(
                f"There is no kept module “{printable(choice, 40)}”; choose one listed in the form (API clients: "
                "GET /api/modules lists their ids), or upload the module file."
            )
        facts = kept_modules.ModuleFacts(kept.name, kept.version, kept.sides)
        return ChosenModule(folder / kept.file, kept.source_name, facts, kept=kept)
    module_name = display_name(part, DEFAULT_MODULE_NAME)
    try:
        upload = kept_modules.copy_upload(part.stream, folder)
    except kept_modules.ModuleTooLarge:
        raise UploadError(f"{module_name}: the module is larger than {kept_modules.MAX_MODULE_BYTES:,} bytes, "
                          "the limit for a module file.", status=413) from None
    try:
        if upload.size == 0:
            raise UploadError(f"{module_name}: the file is empty; choose the game's .vmod module file.")
        with answering_problems(module_name, "module file"):
            facts = kept_modules.read_facts(upload.path, module_name)
        kept = kept_modules.find_by_name(connection, facts.name, facts.version)
    except BaseException:
        upload.path.unlink(missing_ok=True)
        raise
    if kept is not None:  # the same name and version: use the kept copy, keep one
        note = _already_kept_note(kept, upload)
        upload.path.unlink(missing_ok=True)
        return ChosenModule(folder / kept.file, module_name, facts, kept=kept, note=note)
    return ChosenModule(upload.path, module_name, facts, upload=upload)


def _viewer(chosen: ChosenModule) -> str | None:
    """The roster side whose view is checked; None for a spectator (the default)."""
    side = request.form.get("viewer", "").strip()
    if not side or side.lower() == "spectator":
        return None
    sides = chosen.facts.sides
    if len(side) > kept_modules.LONGEST_SIDE or not side.isprintable():
        raise UploadError("The viewer must be one of the module's sides, as its player roster names it.")
    if sides and side not in sides:
        raise UploadError(
            f"The module {chosen.facts.name}'s player roster has the sides {_listed(sides)}; "
            f"“{printable(side, 40)}” is not one of them. Leave the viewer empty to check as a spectator."
        )
    return side


def _listed(sides: Iterable[str]) -> str:
    quoted = [f"“{side}”" for side in sides]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1] if len(quoted) > 1 else quoted[0]


def _public(message: str, chosen: ChosenModule, game: Game) -> str:
    """A reader's sentence with server paths replaced by what the user knows them as."""
    replacements = [(str(chosen.path), chosen.display)]
    plugin_folder = game.folder
    replacements.append((str(plugin_folder.resolve()) + os.sep, f"plugin/{game.id}/"))
    replacements.append((str(plugin_folder) + os.sep, f"plugin/{game.id}/"))
    for old, new in replacements:
        message = message.replace(old, new)
    return message

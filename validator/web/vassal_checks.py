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

* ``save`` -- the .vsav or .vlog (a log is judged step by step, as
  ``referee check LOG.vlog`` judges it: :mod:`validator.web.move_reports`);
* ``final`` -- any non-empty value: check a log's final position only;
* ``game`` -- required for VASSAL files: the game whose mapping reads them;
* ``module`` -- the .vmod file or a bare build file (``buildFile.xml``), or
  ``kept_module`` -- the SHA-256 of a module kept by an earlier upload
  (``GET /api/modules`` lists them), not both.  A check uses exactly those
  bytes: a module is kept by its hash, never by the name and version it gives
  itself (see :mod:`validator.web.kept_modules`);
* ``viewer`` -- the roster side whose view is checked; empty for a spectator.

Fog of war: a report shows only what its viewer may see (masked pieces the
viewer may not see through and invisible pieces are left out, and the
report's note counts them).  There is no arbiter view on the web: it would
show every player's hidden pieces to anyone who asks, and the web app has no
login yet.  A request asking for it (an ``arbiter`` part) is refused; an
arbiter uses ``referee check --arbiter`` on their own machine.

The stored report records what it was checked with (:mod:`validator.provenance`:
versions, and the hashes of the map, mapping and module), and how much of the
save the mapping resolved (:mod:`validator.web.mapping_counts`).

Every unusable input is an :class:`UploadError` with the reader's own
sentence, which names the uploaded file by the name the user gave it (never
a path on the server).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import current_app, request

from validator import intake, provenance
from validator.games import Game
from validator.limits import Limits, with_site_note
from validator.moves.verdicts import LogVerdict
from validator.runner import check
from validator.saves.uploaded_maps import UploadedMap
from validator.saves.vassal.translation import ModuleMismatch
from validator.web import (
    database,
    house_rules,
    kept_modules,
    mapping_counts,
    move_reports,
    pictures,
    records,
    site_limits,
)
from validator.web.markup import printable
from validator.web.uploads import UploadError, answering_problems, display_name

DEFAULT_MODULE_NAME = "module.vmod"

NO_GAME = (
    "{save}: this is a VASSAL save or log; choose its game in the form (API clients send the part named "
    "“game”), so that the game's module mapping can read it."
)
NO_MODULE = (
    "{save}: a VASSAL save is read with its module: choose the .vmod file (or its bare build file) in the form's "
    "module field, or a module kept from an earlier upload (API clients send the part “module”, or “kept_module” "
    "with a module's sha256 from GET /api/modules)."
)
BOTH_MODULES = (
    "Send either a module file or a kept module, not both: the check would use only one of them."
)
KEPT_MODULE_CHANGED = (
    "The kept module {label} (SHA-256 {short}…) is no longer the file it was kept as, so no verdict is given "
    "with it; upload the module file with the save instead, and tell the site's keeper, whose log names the file."
)
NO_KEPT_MODULE = (
    "There is no kept module “{choice}”; choose one listed in the form (API clients: GET /api/modules lists each "
    "module's sha256, all 64 hex digits), or upload the module file."
)
TOO_MANY_STEPS = (
    "{save}: the log has {count:,} steps, {beyond} steps judged one by one on this site; check its final position "
    "only (the form's “Final position only”, the API part “final”), or split the game into shorter logs, or "
    "run “referee check” on your own machine."
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
    """Check the VASSAL save as the chosen viewer sees it (a log step by step), keep a new module, store the record."""
    require_game(game, save_name)
    connection = database.connection()
    with module_for(save_name) as chosen:
        viewer = viewer_of(chosen)
        submission = intake.Submission(save_data, save_name, game=game.id, module=chosen.path, map=uploaded_map,
                                       viewer=viewer, limits=site_limits.in_force())
        by_steps = save_name.lower().endswith(".vlog") and not request.form.get("final", "").strip()
        with answering_as_the_site(save_name, chosen, game):
            reading = read(submission, chosen, game)
            report = house_rules.rated(provenance.stamped(check(reading.position, game), submission, reading))
            log = judged_log(submission, game) if by_steps else None
        chosen.require_unchanged(report.provenance.module_sha256)
        translation = reading.translation
        counts = mapping_counts.of_translation(translation, _public(translation.mapping_source, chosen, game))
        if log is None:
            picture = pictures.draw(game, reading.position, report)
            stored = {**report.to_json(), "mapping_coverage": counts}
        else:
            picture = pictures.Picture(None)  # each illegal step has its pictures, before and after, in the report
            stored = {**move_reports.stored_log(log, report.provenance), "mapping_coverage": counts}
        return records.create(
            connection,
            current_app.instance_path,
            game=game.id,
            source_name=save_name,
            report=stored,
            save_data=save_data,
            map_name=reading.map.href,
            map_origin=reading.map.origin,
            map_data=reading.map.data,
            picture=picture.svg,
            picture_note=picture.note,
            save_suffix="vlog" if save_name.lower().endswith(".vlog") else "vsav",
            before_insert=lambda transaction: chosen.keep(transaction, viewer, reading.note),
        )


def require_game(game: Game | None, save_name: str) -> None:
    """Refuse a VASSAL file without its game, or a request for the arbiter's view."""
    if game is None:
        raise UploadError(NO_GAME.format(save=save_name))
    if request.form.get("arbiter", "").strip():
        raise UploadError(ARBITER_REFUSED)


def answering_as_the_site(save_name: str, chosen: ChosenModule, game: Game):
    """:func:`answering_problems` for a VASSAL upload: server paths replaced, a limit said to be the site's."""
    return answering_problems(save_name, "save and module files",
                              lambda message: with_site_note(_public(message, chosen, game)))


def read(submission: intake.Submission, chosen: ChosenModule, game: Game) -> intake.Reading:
    """The VASSAL file's (final) position; a module no mapping of the site reads is told what the site checks."""
    try:
        return intake.read_submission(submission)
    except ModuleMismatch as error:  # no --mapping on the site: say what it can check instead
        raise UploadError(with_site_note(_public(error.on_the_site(), chosen, game))) from None


def judged_log(submission: intake.Submission, game: Game) -> LogVerdict | None:
    """Every step of the log judged as ``referee check LOG.vlog`` judges it, under the club's house rules; None for
    a log of no steps (it is its one position)."""
    from validator.moves.steps import read_log_moves
    from validator.moves.verdicts import judge_log

    log = read_log_moves(submission)
    refuse_too_many_steps(submission.source, log.total, submission.limits)
    return judge_log(log, house_rules=move_reports.club_rules(game.id)) if log.total else None


def refuse_too_many_steps(save_name: str, count: int, limits: Limits) -> None:
    """A 413 naming the ``log_steps`` limit before a log of more steps than the site judges is judged."""
    if count > limits.log_steps:
        raise UploadError(TOO_MANY_STEPS.format(save=save_name, count=count, beyond=limits.beyond("log_steps")),
                          status=413)


@contextmanager
def module_for(save_name: str) -> Iterator[ChosenModule]:
    """The module the request names, kept or uploaded; an uploaded copy no record keeps is removed afterwards."""
    chosen = _chosen_module(database.connection(), records.uploads_folder(current_app.instance_path), save_name)
    recorded = False
    try:
        yield chosen
        recorded = True
    finally:
        chosen.discard_unkept(recorded=recorded)


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
            if kept.file != self.upload.path.name:  # the same bytes kept by another upload in the meantime
                note = _already_kept_note(kept)
            else:
                note = _newly_kept_note(kept, kept_modules.namesakes(connection, self.facts, kept.sha256))
            self.kept = kept
        return records.VassalFacts(self.kept.id, self.kept.name, self.kept.version, viewer,
                                   _join(export_note, note))

    def require_unchanged(self, read_sha256: str | None) -> None:
        """Refuse a check of a kept module whose file no longer holds the bytes it is kept by."""
        if self.upload is None and self.kept is not None and read_sha256 != self.kept.sha256:
            current_app.logger.error("The kept module %s (%s) no longer matches its SHA-256", self.kept.file,
                                     self.kept.sha256)
            raise UploadError(KEPT_MODULE_CHANGED.format(label=self.kept.label, short=self.kept.short_hash))

    def discard_unkept(self, recorded: bool) -> None:
        """Remove the uploaded copy unless a recorded check made it the kept module."""
        if recorded and self.kept is not None and self.upload is not None and self.kept.file == self.upload.path.name:
            return
        if self.upload is not None:
            self.upload.path.unlink(missing_ok=True)
            self.upload = None


def _join(*sentences: str | None) -> str | None:
    return " ".join(sentence for sentence in sentences if sentence) or None


def _already_kept_note(kept: kept_modules.KeptModule) -> str:
    return (f"The module {kept.label} with these exact bytes (SHA-256 {kept.short_hash}…) was already kept "
            f"(uploaded as “{kept.source_name}” on {kept.kept_at}); this upload was checked and not kept again.")


def _newly_kept_note(kept: kept_modules.KeptModule, namesakes: list[kept_modules.KeptModule]) -> str:
    note = f"The module {kept.label} (SHA-256 {kept.short_hash}…) was kept for later uploads."
    if namesakes:
        hashes = ", ".join(f"{other.short_hash}…" for other in namesakes)
        count = "another kept module gives" if len(namesakes) == 1 else f"{len(namesakes)} other kept modules give"
        note += (f" Note that {count} the same name and version with other bytes (SHA-256 {hashes}); this save was "
                 "checked against the bytes uploaded with it, and the form lists each module by its hash.")
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
        sha256 = choice.lower()
        kept = kept_modules.find_by_hash(connection, sha256) if kept_modules.SHA256_TEXT.fullmatch(sha256) else None
        if kept is None:
            raise UploadError(NO_KEPT_MODULE.format(choice=printable(choice, 70)))
        facts = kept_modules.ModuleFacts(kept.name, kept.version, kept.sides, kept.build_file_sha256)
        return ChosenModule(folder / kept.file, kept.source_name, facts, kept=kept)
    module_name = display_name(part, DEFAULT_MODULE_NAME)
    try:
        upload = kept_modules.copy_upload(part.stream, folder)
    except kept_modules.ModuleTooLarge:
        raise UploadError(f"{module_name}: the module is larger than {kept_modules.MAX_MODULE_BYTES:,} bytes, "
                          "the limit for a module file.", status=413) from None
    try:
        if upload.size == 0:
            raise UploadError(f"{module_name}: the file is empty; choose the game's .vmod module file "
                              "(or its build file).")
        with answering_problems(module_name, "module file", with_site_note):
            facts = kept_modules.read_facts(upload.path, module_name, site_limits.in_force())
        kept = kept_modules.find_by_hash(connection, upload.sha256)
    except BaseException:
        upload.path.unlink(missing_ok=True)
        raise
    if kept is not None:  # the very same bytes, already kept: check this upload's copy, then remove it
        return ChosenModule(upload.path, module_name, facts, kept=kept, upload=upload, note=_already_kept_note(kept))
    return ChosenModule(upload.path, module_name, facts, upload=upload)


def viewer_of(chosen: ChosenModule) -> str | None:
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

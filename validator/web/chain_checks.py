"""Checking a chain of saves sent as several files: does each save follow from the one before it?

Several ``save`` parts (the form's save field takes several files) are the
saves of one game in playing order, judged as ``referee check S1 S2 ...``
judges them (:func:`validator.moves.verdicts.judge_chain`): same game and
scenario, no rewind, no unexplained change, and the moves between them
checked.  The saves may be our save XML, or VASSAL saves and logs (a log is
read to its final position) read with the one module the request names, as
the CLI reads them with one ``--module``; the chosen ``game``, ``viewer`` and
``map`` apply to every save they fit.

Refused with one sentence naming the file, before any record is written:
more saves than the ``chain_saves`` limit (413, by :func:`refuse_too_many`, which
the request's reader calls before it reads a part), an empty or unreadable
file, a VASSAL save without its game or module, and saves of different
games (400).  The saves are kept together in one uncompressed zip
(``report-<id>.save.zip``, entries numbered in order) beside the record.
"""

from __future__ import annotations

import io
import zipfile

from flask import current_app

from validator import games, intake, provenance
from validator.games import Game
from validator.limits import with_site_note
from validator.model import Position
from validator.moves.verdicts import judge_chain
from validator.saves.uploaded_maps import UploadedMap
from validator.web import database, move_reports, records, site_limits, vassal_checks
from validator.web.uploads import UploadError, answering_problems

OTHER_GAME = (
    "{save}: this is a save of {game}, but {first} is a save of {first_game}; a chain holds the saves of one "
    "game: send the saves of one game, in playing order."
)
TOO_MANY = (
    "{count:,} saves were sent, {beyond} saves in one chain on this site; send the chain in parts of at most "
    "{limit:,} saves, each part starting with the last save of the part before."
)


def check_chain(saves: list[tuple[bytes, str]], game: Game | None, uploaded_map: UploadedMap | None) -> records.Record:
    """Read every save in order, judge the chain, store the record with the saves zipped together.

    ``saves`` are at most the ``chain_saves`` limit: the request's reader refused more before reading them.
    """
    for data, name in saves:
        if not data:
            raise UploadError(f"{name}: the file is empty; choose the saves of the chain, in playing order.")
    vassal = [name for data, name in saves if intake.is_vassal_file(name, data)]
    if not vassal:
        if vassal_checks.has_module_parts():
            raise UploadError(f"{saves[0][1]}: {intake.MODULE_WITH_XML}")
        return _judged_and_stored(saves, game, uploaded_map, None)
    vassal_checks.require_game(game, vassal[0])
    with vassal_checks.module_for(vassal[0]) as chosen:
        return _judged_and_stored(saves, game, uploaded_map, chosen)


def refuse_too_many(count: int) -> None:
    """A 413 naming the ``chain_saves`` limit when more saves are sent than one chain may hold."""
    limits = site_limits.in_force()
    if count > limits.chain_saves:
        raise UploadError(TOO_MANY.format(count=count, beyond=limits.beyond("chain_saves"), limit=limits.chain_saves),
                          status=413)


def _judged_and_stored(saves: list[tuple[bytes, str]], game: Game | None, uploaded_map: UploadedMap | None,
                       chosen: vassal_checks.ChosenModule | None) -> records.Record:
    viewer = vassal_checks.viewer_of(chosen) if chosen is not None else None
    positions: list[Position] = []
    readings: list[tuple[intake.Submission, intake.Reading]] = []
    for data, name in saves:
        submission = _submission(data, name, game, uploaded_map, chosen, viewer)
        if submission.is_vassal:
            with vassal_checks.answering_as_the_site(name, chosen, game):
                reading = vassal_checks.read(submission, chosen, game)
        else:
            with answering_problems(name, "saves", with_site_note):
                reading = intake.read_submission(submission)
        _require_one_game(reading.position, positions)
        positions.append(reading.position)
        readings.append((submission, reading))
    chain_game = game or games.get(positions[0].game)
    with answering_problems(saves[0][1], "saves"):
        verdict = judge_chain(positions, house_rules=move_reports.club_rules(chain_game.id))
        stamped_with = provenance.of_reading(chain_game, *_first_vassal(readings))
        stored = move_reports.stored_chain(verdict, chain_game, stamped_with)
    if chosen is not None:
        chosen.require_unchanged(stamped_with.module_sha256)
    notes = " ".join(f"{submission.source}: {reading.note}" for submission, reading in readings if reading.note)
    first_map = readings[0][1].map
    return records.create(
        database.connection(),
        current_app.instance_path,
        game=chain_game.id,
        source_name=f"{saves[0][1]} to {saves[-1][1]} ({len(saves)} saves)",
        report=stored,
        save_data=zipped(saves),
        map_name=first_map.href or None,
        map_origin=first_map.origin or None,
        map_data=first_map.data,
        save_suffix="zip",
        before_insert=(lambda transaction: chosen.keep(transaction, viewer, notes or None)) if chosen else None,
    )


def _submission(data: bytes, name: str, game: Game | None, uploaded_map: UploadedMap | None,
                chosen: vassal_checks.ChosenModule | None, viewer: str | None) -> intake.Submission:
    limits = site_limits.in_force()
    if chosen is not None and intake.is_vassal_file(name, data):
        return intake.Submission(data, name, game=game.id, module=chosen.path, viewer=viewer, limits=limits)
    return intake.Submission(data, name, game=game.id if game is not None else None, map=uploaded_map,
                             limits=limits)


def _require_one_game(position: Position, earlier: list[Position]) -> None:
    if earlier and position.game != earlier[0].game:
        raise UploadError(OTHER_GAME.format(save=position.source, game=position.game, first=earlier[0].source,
                                            first_game=earlier[0].game))


def _first_vassal(readings: list[tuple[intake.Submission, intake.Reading]]):
    """The reading a chain's provenance is taken from: its first VASSAL save (module and mapping), else its first."""
    return next(((submission, reading) for submission, reading in readings if submission.is_vassal), readings[0])


def zipped(saves: list[tuple[bytes, str]]) -> bytes:
    """The saves as one uncompressed zip, numbered in playing order (``1.xml``, ``2.vsav``, ...)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for number, (data, name) in enumerate(saves, start=1):
            suffix = name.rsplit(".", 1)[-1].lower() if "." in name else "xml"
            archive.writestr(f"{number}.{suffix if suffix.isalnum() else 'xml'}", data)
    return buffer.getvalue()

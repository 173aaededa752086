"""``referee check`` and ``referee export``: read a save (ours or VASSAL's) and judge it, or turn it into ours."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from validator import console
from validator.commands.common import (
    EXIT_OK,
    EXIT_VIOLATIONS,
    UsageError,
    add_format,
    add_limits,
    add_vassal_options,
    command,
    limits_of,
    note,
    print_json,
)

if TYPE_CHECKING:
    import argparse


def register(commands) -> None:
    checking = command(commands, "check", "check a saved position, the moves of a log, or a chain of saves")
    checking.add_argument("files", type=Path, nargs="+", metavar="FILE",
                          help="a Referee save (.xml) or a VASSAL .vsav/.vlog; a .vlog alone is checked step by "
                               "step; two or more saves are a chain, each after the first checked as a move from "
                               "the one before")
    checking.add_argument("--game", help="the game the save is for; required for VASSAL files "
                                         "(default: the game a Referee save names)")
    steps = checking.add_mutually_exclusive_group()
    steps.add_argument("--final", action="store_true",
                       help="check a .vlog's last position only, not each of its steps (default: every step)")
    steps.add_argument("--first", action="store_true",
                       help="stop at the first illegal step of a log or save of a chain (default: go to the end)")
    checking.add_argument("--house-rules", type=Path, metavar="FILE",
                          help="rate checks as the club plays them: an XML file of house rules (docs/house-rules.md); "
                               "a check made a warning is shown but does not make the position, a log's step or a "
                               "chain's link illegal (default: every check as Referee rates it)")
    add_vassal_options(checking)
    add_limits(checking)
    add_format(checking)
    checking.set_defaults(handler=with_checks_only(check))

    exporting = command(commands, "export", "turn a VASSAL save into a Referee save (.xml)")
    exporting.add_argument("file", type=Path, metavar="FILE", help="a VASSAL .vsav or .vlog")
    exporting.add_argument("--game", required=True, help="the game the save is for")
    add_vassal_options(exporting)
    add_limits(exporting)
    exporting.add_argument("--output", type=Path, metavar="FILE",
                           help="write the save here (default: standard output)")
    exporting.set_defaults(handler=with_checks_only(export))


def parsed_plainly(argv: list[str]) -> SimpleNamespace | None:
    """``check FILE...`` with no option: the arguments the parser would give, without argparse or a parser.

    Importing argparse and building the check command's parser are a sixth
    of a small check's own time (issue 14's lean start-up), and a command
    line of file names alone needs neither: each option takes its default.
    Any other command line (a word that starts with ``-``, another command)
    gives None, for the parser.  tests/test_cli_plain.py holds the two to the
    same arguments, option by option.
    """
    if len(argv) < 2 or argv[0] != "check" or any(word.startswith("-") for word in argv[1:]):
        return None
    return SimpleNamespace(files=[Path(word) for word in argv[1:]], game=None, final=False, first=False,
                           house_rules=None, module=None, mapping=None, viewer=None, arbiter=False, limit=None,
                           format="text", handler=with_checks_only(check))


def check(arguments: argparse.Namespace) -> int:
    if arguments.final and not any(path.name.lower().endswith(".vlog") for path in arguments.files):
        raise UsageError("--final checks the last position of a VASSAL log (.vlog), and no file given is one; "
                         "leave --final out.", arguments.files[0])
    if len(arguments.files) > 1:
        return check_chain(arguments)
    if arguments.files[0].name.lower().endswith(".vlog") and not arguments.final:
        return check_log(arguments)
    return check_position(arguments)


def check_position(arguments: argparse.Namespace) -> int:
    """One save (or a log's last position, with --final), as Referee has always checked it."""
    from validator import collection

    with collection.collector_paused():  # one position's modules, reading, checks and report: bounded work
        return _check_position(arguments)


def _check_position(arguments: argparse.Namespace) -> int:
    from validator import intake, provenance
    from validator.runner import check as run_checks

    submission = submission_of(arguments, arguments.files[0])
    reading = intake.read_submission(submission)
    tell_reading(arguments, submission.source, reading.note)
    report = provenance.stamped(run_checks(reading.position), submission, reading)
    club_rules = house_rules_of(arguments)
    if club_rules is not None:
        from validator import house_rules

        report = house_rules.apply(report, club_rules)
    unfinished = _unfinished_mapping(reading.translation)
    if arguments.format == "json":
        print_json({**report.to_json(), **({"mapping_todo": unfinished} if unfinished else {})})
    else:
        console.write_text(report.to_text())
        if unfinished:
            console.write_text(f"{submission.source}: this verdict is not final: the mapping still has "
                               f"{unfinished['todo_entries']} entries marked todo, and "
                               f"{unfinished['left_out_by_todo']} pieces were left out by rules marked todo, so "
                               "no rule saw them; fill the mapping in and check again.")
    return EXIT_OK if report.legal else EXIT_VIOLATIONS


def house_rules_of(arguments: argparse.Namespace):
    """The club's house rules --house-rules names, read before any save is judged; None without the option."""
    if arguments.house_rules is None:
        return None
    from validator import house_rules

    return house_rules.read_file(arguments.house_rules)


def _unfinished_mapping(translation) -> dict | None:
    """What an unfinished draft mapping left unchecked (docs/vassal-mapping.md), or None when nothing is todo."""
    if translation is None or not translation.todo_entries:
        return None
    return {"todo_entries": translation.todo_entries, "left_out_by_todo": translation.left_out_by_todo}


def check_log(arguments: argparse.Namespace) -> int:
    """Every step of a VASSAL log an undo did not take back, as a move (docs/cli.md, "Checking moves")."""
    from validator.moves.steps import read_log_moves
    from validator.moves.verdicts import judge_log

    club_rules = house_rules_of(arguments)
    log = read_log_moves(submission_of(arguments, arguments.files[0]))
    if not log.total:  # a log of no steps holds one position, checked as Referee checks a save
        return check_position(arguments)
    verdict = _with_progress(arguments, "step", log.moves,
                             lambda progress: judge_log(log, arguments.first, progress, club_rules))
    return _print_verdict(arguments, verdict)


def check_chain(arguments: argparse.Namespace) -> int:
    """Each save after the first, as a move from the one before it (docs/cli.md, "Checking moves")."""
    from validator import intake
    from validator.moves.verdicts import judge_chain

    club_rules = house_rules_of(arguments)
    positions = []
    for path in arguments.files:
        submission = submission_of(arguments, path, alone=not any_vassal(arguments.files))
        reading = intake.read_submission(submission)
        tell_reading(arguments, submission.source, reading.note)
        positions.append(reading.position)
    verdict = _with_progress(arguments, "save", len(positions) - 1,
                             lambda progress: judge_chain(positions, arguments.first, progress, club_rules))
    return _print_verdict(arguments, verdict)


def tell_reading(arguments: argparse.Namespace, source: str, reading_note: str | None) -> None:
    """What reading a VASSAL file kept and skipped, on standard error; nothing beside JSON, which a script reads.

    The note is worded for an export; a check reads the pieces, it exports nothing.
    """
    if reading_note and arguments.format != "json":
        note(f"{source}: {reading_note.replace(' exported', ' read', 1)}")


def _with_progress(arguments: argparse.Namespace, noun: str, total: int, work):
    """``work(progress)``, showing progress on a terminal; Ctrl-C ends it with one sentence (exit 130)."""
    from validator.moves import progress

    shown = progress.shown(arguments.format == "json")
    counter = progress.Progress(noun, total) if shown else None
    done = [0]

    def tell(count: int) -> None:
        done[0] = count
        if counter is not None:
            counter(count)

    try:
        return work(tell)
    except KeyboardInterrupt:  # the command line ends with exit code 130
        if counter is not None:
            counter.close()
            counter = None
        note(f"referee: interrupted after {done[0]:,} of {total:,} {noun}s were checked, so nothing is reported; "
             "run the check again to let it finish, or add --first to stop at the first illegal one.")
        raise
    finally:
        if counter is not None:
            counter.close()


def _print_verdict(arguments: argparse.Namespace, verdict) -> int:
    if arguments.format == "json":
        print_json(verdict.to_json())
    else:
        console.write_text(verdict.to_text())
    return EXIT_OK if verdict.legal else EXIT_VIOLATIONS


def export(arguments: argparse.Namespace) -> int:
    from validator import intake

    folder = (arguments.output.parent if arguments.output else Path.cwd()).resolve()
    exported = intake.export_submission(submission_of(arguments), relative_to=folder)
    if arguments.output:
        _write_output(arguments.output, exported.xml)
    else:
        console.write_bytes(exported.xml)
    note(f"{arguments.file}: {exported.note}")
    return EXIT_OK


def _write_output(path: Path, data: bytes) -> None:
    """Write the export where the user asked, or say in a sentence why that place cannot take it."""
    try:
        path.write_bytes(data)
    except OSError as error:
        reason = error.strerror or str(error)
        raise UsageError(f"the export cannot be written there ({reason}); give --output a file in a folder "
                         "you can write to.", path) from None


def any_vassal(paths: list[Path]) -> bool:
    """Whether some of the files are VASSAL's: the VASSAL options then go to those; else they are refused."""
    from validator import intake

    return any(intake.Submission(path).is_vassal for path in paths)


def submission_of(arguments: argparse.Namespace, path: Path | None = None, alone: bool = True):
    """The file (``path``, else the one file given) and options; a VASSAL file's missing module or game is asked for.

    With ``alone`` false the file is one of several, which may mix our save
    XML and VASSAL files: the VASSAL options then go to the VASSAL files only.
    """
    from validator import intake
    from validator.games import registry

    path = path if path is not None else arguments.file
    submission = intake.Submission(path, game=arguments.game, module=arguments.module,
                                   mapping=arguments.mapping, viewer=arguments.viewer, arbiter=arguments.arbiter,
                                   limits=limits_of(arguments))
    if not alone and not submission.is_vassal:
        return intake.Submission(path, game=arguments.game, limits=submission.limits)
    if submission.is_vassal and arguments.module is None:
        raise UsageError("a VASSAL file needs its module; give it with --module FILE.vmod.", path)
    if submission.is_vassal and arguments.game is None:
        raise UsageError(f"say which game the VASSAL file is for with --game ({', '.join(registry())}).", path)
    return submission


def with_checks_only(handler):
    """``handler`` (check or export) preceded by refusing a reference-only game: it has no checks to run.

    The game is the one --game names, or else the one the save names, which
    only the reader finds; a game that is neither a plugin nor an added game
    is left to the reader's own error.
    """

    def refusing(arguments: argparse.Namespace) -> int:
        from validator.saves.errors import UnknownGameInSave

        refuse_reference_only(arguments.game)
        try:
            return handler(arguments)
        except UnknownGameInSave as error:
            refuse_reference_only(error.game_id, error.source, error.line)
            raise

    return refusing


def refuse_reference_only(game_id: str | None, source: str = "", line: int = 0) -> None:
    """:class:`catalogue.NoChecksError` for an added game; a plugin's id, or a fresh instance, needs no database."""
    from validator import instance
    from validator.games import registry

    database = instance.database_path(instance.resolved_folder())
    if game_id is None or game_id in registry() or not database.is_file():
        return
    from contextlib import closing

    from validator import catalogue, store  # the database only for a game that is not a plugin's

    with closing(store.connect(database)) as connection:
        catalogue.require_checks(connection, game_id, source, line)

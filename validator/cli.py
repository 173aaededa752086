"""The ``referee`` command line.

Exit codes: 0 success, 1 violations found (``check``, later), 2 unusable
input -- an unknown game, an unreadable file, an unknown case.  Every error
is one sentence on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import closing
from dataclasses import replace
from pathlib import Path

from validator import __version__, catalogue, console, coverage, info, instance, intake, store
from validator.cases import CaseNumber
from validator.errors import InputError
from validator.games import IN_TREE_GAMES, listed, registry
from validator.rulebook import fixups as fixup_module
from validator.rulebook import overlap as overlap_module
from validator.rulebook import presentation, storage, summary
from validator.rulebook.importer import RulebookImportError, import_texts, read_file
from validator.rulebook.model import Rulebook
from validator.runner import CheckDefectError
from validator.runner import check as run_checks
from validator.saves.errors import UnknownGameInSave
from validator.saves.vassal import dump as vassal_dump
from validator.saves.vassal.reader import read_saved_game
from validator.saves.vassal.sides import require_defined_side

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_UNUSABLE = 2


class UsageError(InputError):
    """A command given what it cannot use (exit code 2): the problem, after the file when one is named."""

    def __init__(self, problem: str, source: object = "") -> None:
        super().__init__(source, problem)


def main(argv: list[str] | None = None) -> int:
    """Run one command; output into a pipe that closed early ends quietly (docs/cli.md, "Output")."""
    console.prepare_streams()
    try:
        try:
            return _run(argv)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
    except BrokenPipeError:
        console.silence_standard_output()
        return console.EXIT_BROKEN_PIPE


def _run(argv: list[str] | None) -> int:
    parser = _build_parser()
    arguments = parser.parse_args(argv)
    if getattr(arguments, "handler", None) is None:  # no command, or a group without its subcommand
        getattr(arguments, "usage_of", parser).print_help(sys.stderr)
        return EXIT_UNUSABLE
    try:
        return arguments.handler(arguments)
    except (InputError, CheckDefectError) as error:
        console.write_error(f"referee: {_message(error)}")
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        return 130


def _message(error: Exception) -> str:
    return error.args[0] if error.args else str(error)


GAME_HELP = f"the game's id, such as {listed(IN_TREE_GAMES)} (referee info lists the games)"
FORMAT_HELP = "text to read, or json for scripts: the contracts in docs/cli.md (default: %(default)s)"


def _build_parser() -> argparse.ArgumentParser:
    """Every command, positional and option has a help line; each option's says its default."""
    parser = argparse.ArgumentParser(prog="referee", description=_description())
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    rules = _command(commands, "rules", "import and read a game's rulebook")
    rule_commands = rules.add_subparsers(title="rules commands", metavar="RULES_COMMAND")

    importing = _command(rule_commands, "import", "import your copy of a game's rulebook")
    importing.add_argument("game", help=GAME_HELP)
    importing.add_argument("files", nargs="+", type=Path, metavar="FILE",
                           help="the rulebook's plain-text files, in order; together they make one rulebook")
    choice = importing.add_mutually_exclusive_group()
    choice.add_argument("--fixups", type=Path, metavar="FILE",
                        help="repairs to apply to the text (default: the game plugin's own, when it ships any)")
    choice.add_argument("--no-fixups", action="store_true", help="import the text as it is, without repairs")
    importing.add_argument("--force", action="store_true",
                           help="import under a plugin game even a text whose case numbers are mostly not in its "
                                "case index (default: refuse such a text)")
    _add_format(importing)
    importing.set_defaults(handler=_import)

    for name, handler, help_text in (
        ("list", _list, "list the cases of a game"),
        ("refs", _refs, "list the cross-references of a game's rulebook"),
        ("checks", _checks, "list the checks registered for a game, in case order"),
        ("coverage", _coverage, "list every case of a game's index as enforced, unchecked or not encoded"),
    ):
        command = _command(rule_commands, name, help_text)
        command.add_argument("game", help=GAME_HELP)
        _add_format(command)
        command.set_defaults(handler=handler)

    showing = _command(rule_commands, "show", "show a case with its items and references")
    showing.add_argument("game", help=GAME_HELP)
    showing.add_argument("case", help="a case number, such as 6.21, 11.353E or 15.4.1.1")
    _add_format(showing)
    showing.set_defaults(handler=_show)

    games = _command(commands, "games", "list the games, and add or remove reference-only games")
    game_commands = games.add_subparsers(title="games commands", metavar="GAMES_COMMAND")
    adding = _command(game_commands, "add", "add a reference-only game: its rulebook is served, "
                                            "but Referee has no checks for it")
    adding.add_argument("game", metavar="ID",
                        help="the new game's id: lowercase letters, digits and dashes, such as harbour-watch")
    adding.add_argument("--title", required=True, help="the game's title, as the pages show it")
    adding.set_defaults(handler=_games_add)
    listing = _command(game_commands, "list", "list every game, with checks or reference only")
    _add_format(listing)
    listing.set_defaults(handler=_games_list)
    removing = _command(game_commands, "remove", "remove a reference-only game")
    removing.add_argument("game", metavar="ID", help="the id of a game added with referee games add")
    removing.add_argument("--with-rulebook", action="store_true",
                          help="remove its imported rulebook too (default: refuse while one is imported)")
    removing.set_defaults(handler=_games_remove)

    checking = _command(commands, "check", "check a saved position against the game's rules")
    checking.add_argument("file", type=Path, metavar="FILE", help="a Referee save (.xml) or a VASSAL .vsav/.vlog")
    checking.add_argument("--game", help="the game the save is for; required for VASSAL files "
                                         "(default: the game a Referee save names)")
    _add_vassal_options(checking)
    _add_format(checking)
    checking.set_defaults(handler=_with_checks_only(_check))

    exporting = _command(commands, "export", "turn a VASSAL save into a Referee save (.xml)")
    exporting.add_argument("file", type=Path, metavar="FILE", help="a VASSAL .vsav or .vlog")
    exporting.add_argument("--game", required=True, help="the game the save is for")
    _add_vassal_options(exporting)
    exporting.add_argument("--output", type=Path, metavar="FILE",
                           help="write the save here (default: standard output)")
    exporting.set_defaults(handler=_with_checks_only(_export))

    vassal = _command(commands, "vassal", "read VASSAL saves, logs and modules")
    vassal_commands = vassal.add_subparsers(title="vassal commands", metavar="VASSAL_COMMAND")
    dumping = _command(vassal_commands, "dump", "list the pieces of a .vsav or .vlog (docs/vassal-dump.md)")
    dumping.add_argument("file", type=Path, metavar="FILE", help="a .vsav or .vlog file")
    dumping.add_argument("--module", type=Path, metavar="FILE",
                         help="the .vmod (or buildFile) that names the locations "
                              "(default: none; pieces are placed by x,y only)")
    dumping.add_argument("--steps", action="store_true",
                         help="a log's position when logging began, then each step's changes "
                              "(without it: the final position)")
    _add_viewing(dumping, "show")
    _add_format(dumping)
    dumping.set_defaults(handler=_vassal_dump)

    info = _command(commands, "info", "say where Referee keeps its data, and what is imported and registered")
    _add_format(info)
    info.set_defaults(handler=_info)

    serve = _command(commands, "serve", "serve the reference pages in a browser")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)")
    serve.add_argument("--port", type=int, default=5000, help="the port to listen on (default: %(default)s)")
    serve.set_defaults(handler=_serve)
    return parser


def _description() -> str:
    """The opening of ``referee --help``: what Referee is and the instance folder in force."""
    variable = instance.ENVIRONMENT_VARIABLE
    how = f"chosen by {variable}" if instance.is_chosen() else f"set {variable} to choose another folder"
    return ("A rules reference and position validator for board wargames played in VASSAL. "
            f"Data is kept in {console.displayable(str(instance.resolved_folder()))} ({how}); "
            "referee info shows what it holds.")


def _command(commands, name: str, summary: str) -> argparse.ArgumentParser:
    """A subcommand whose own --help opens with the line the list of commands shows; alone, it shows its help."""
    command = commands.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".")
    command.set_defaults(handler=None, usage_of=command)
    return command


def _add_vassal_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--module", type=Path, metavar="FILE",
                        help="the VASSAL module (.vmod or buildFile) the save was made with; "
                             "required for VASSAL files")
    parser.add_argument("--mapping", type=Path, metavar="FILE",
                        help="the module mapping (default: the game's own mappings/vassal-mapping.xml)")
    _add_viewing(parser, "use", ", or the game's mapping lists")


def _add_viewing(parser: argparse.ArgumentParser, verb: str, sides: str = "") -> None:
    seeing = parser.add_mutually_exclusive_group()
    seeing.add_argument("--viewer", metavar="SIDE",
                        help=f"{verb} only what this side may see: a side the save's player roster or masks name"
                             f"{sides} (default: a spectator's view)")
    seeing.add_argument("--arbiter", action="store_true",
                        help=f"{verb} every piece, masked and hidden ones included")


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)


# -- games ----------------------------------------------------------------


def _games_add(arguments: argparse.Namespace) -> int:
    with _database() as connection:
        game = catalogue.add(connection, arguments.game, arguments.title)
    console.write_text(f"Added the reference-only game {game.id} ({game.title}). "
                       f"Import its rulebook with: referee rules import {game.id} FILE...")
    return EXIT_OK


def _games_list(arguments: argparse.Namespace) -> int:
    with _database() as connection:
        known = catalogue.known_games(connection)
        imported = storage.statuses(connection)
    listed_games = [
        {"id": game.id, "title": game.title, "reference_only": game.reference_only,
         "checks": len(game.rules.checks()), "imported": game.id in imported, "added_at": game.added_at or None}
        for game in known
    ]
    if arguments.format == "json":
        _print_json(listed_games)
        return EXIT_OK
    width = max(len(game["id"]) for game in listed_games) if listed_games else 0
    for game in listed_games:
        kind = "reference only" if game["reference_only"] else "checks"
        state = "imported" if game["imported"] else "not imported"
        console.write_text(f"{game['id']:<{width}}  {kind:<14}  {state:<12}  {game['title']}")
    return EXIT_OK


def _games_remove(arguments: argparse.Namespace) -> int:
    with _database() as connection:
        game = catalogue.remove(connection, arguments.game, with_rulebook=arguments.with_rulebook)
    console.write_text(f"Removed the reference-only game {game.id} ({game.title})"
                       f"{' and its rulebook' if arguments.with_rulebook else ''}.")
    return EXIT_OK


# -- rules import ---------------------------------------------------------


def _import(arguments: argparse.Namespace) -> int:
    game = _reference_game(arguments.game)
    # The book keeps file names for display: undecodable bytes become U+FFFD before they are stored.
    files = [replace(file, name=console.displayable(file.name)) for file in map(read_file, arguments.files)]
    fixups_path = _fixups_path(game, arguments)
    fixups = fixup_module.load(fixups_path) if fixups_path else None
    book = import_texts(game.id, files, fixups, console.displayable(str(fixups_path)))
    overlap = overlap_module.of_book(game.id, book, game.case_index) if game.plugin else None
    if overlap is not None and overlap.mostly_unknown and not arguments.force:
        raise RulebookImportError(", ".join(book.sources), overlap.refusal())
    with _database() as connection:
        catalogue.save_rulebook(connection, game, book)
    if arguments.format == "json":
        _print_json({**summary.as_json(book), "case_index": overlap.as_json() if overlap else None})
    else:
        notes = [overlap.forced_note(), overlap.missing_note()] if overlap else []
        console.write_text("\n".join([summary.as_text(book), *(note for note in notes if note)]))
    return EXIT_OK


def _fixups_path(game: catalogue.CatalogueGame, arguments: argparse.Namespace) -> Path | None:
    if arguments.no_fixups:
        return None
    return arguments.fixups or game.fixups_path


# -- reading --------------------------------------------------------------


def _list(arguments: argparse.Namespace) -> int:
    game = _reference_game(arguments.game)
    book = _load(game, required=game.reference_only)  # a reference-only game has no index to list instead
    if book is None:
        entries = [
            {"case": str(entry.number), "title": entry.title,
             "parent": str(entry.number.parent) if entry.number.parent else None,
             "kind": "section" if entry.number.is_section else "case", "source": "index"}
            for entry in game.case_index
        ]
        console.write_error(f"The {game.id} rulebook is not imported yet; listing the plugin's case index.")
    else:
        entries = [
            {"case": str(case.number), "title": case.title or game.index_title(case.number),
             "parent": str(case.parent) if case.parent else None, "kind": case.kind, "source": "rulebook"}
            for case in book.ordered()
        ]
    if arguments.format == "json":
        _print_json(entries)
    else:
        for entry in entries:
            depth = 0 if entry["parent"] is None else len(CaseNumber.parse(entry["case"]).ancestors())
            console.write_text(f"{'  ' * depth}{entry['case']}  {entry['title']}".rstrip())
    return EXIT_OK


def _refs(arguments: argparse.Namespace) -> int:
    game = _reference_game(arguments.game)
    book = _load(game)
    references = [
        {"from": str(case.number), "to": str(reference.target), "resolved": reference.resolved,
         "text": block.text[reference.start : reference.end]}
        for case, block, reference in book.references()
    ]
    if arguments.format == "json":
        _print_json(references)
    else:
        for reference in references:
            state = "" if reference["resolved"] else "  (unresolved)"
            console.write_text(f"{reference['from']} -> {reference['to']}{state}")
    return EXIT_OK


def _show(arguments: argparse.Namespace) -> int:
    game = _reference_game(arguments.game)
    book = _load(game)
    number = CaseNumber.try_parse(arguments.case)
    if number is None or number not in book.cases:
        nearest = book.nearest_existing(number) if number else None
        hint = f" The nearest case is {nearest.number}." if nearest else ""
        raise UsageError(f"The {game.id} rulebook has no case {arguments.case!r}.{hint}")
    case = book.cases[number]
    if arguments.format == "json":
        _print_json(presentation.case_json(book, case.number, game.index_title))
    else:
        console.write_text(presentation.case_text(book, case.number, game.index_title))
    return EXIT_OK


def _checks(arguments: argparse.Namespace) -> int:
    game = _reference_game(arguments.game)
    # In case order; sorting is stable, so the checks of one case keep the order they were registered in.
    checks = [
        {"rule": check.rule, "case": str(check.case), "severity": check.severity,
         "name": check.name, "summary": check.summary}
        for check in sorted(game.rules.checks(), key=lambda check: check.case)
    ]
    if arguments.format == "json":
        _print_json(checks)
    elif game.reference_only:
        console.write_text(f"{game.id} is a reference-only game: Referee serves its rulebook and has no checks for it.")
    elif not checks:
        console.write_text(f"No checks are registered for {game.id} yet.")
    else:
        for check in checks:
            console.write_text(f"{check['rule']:<16} {check['severity']:<9} {check['name']}: {check['summary']}")
    return EXIT_OK


def _coverage(arguments: argparse.Namespace) -> int:
    game = _reference_game(arguments.game)
    if game.plugin is None:
        raise UsageError(f"Referee has no checks for '{game.id}' (a reference-only game), so there is no coverage "
                         f"to list; referee rules list {game.id} lists its rulebook.")
    found = coverage.of_game(game.plugin)
    if arguments.format == "json":
        _print_json(coverage.as_json(found))
    else:
        console.write_text(coverage.as_text(found))
    return EXIT_OK


# -- checking -------------------------------------------------------------


def _with_checks_only(handler):
    """``handler`` (check or export) preceded by refusing a reference-only game: it has no checks to run.

    The game is the one --game names, or else the one the save names, which
    only the reader finds; a game that is neither a plugin nor an added game
    is left to the reader's own error.
    """

    def refusing(arguments: argparse.Namespace) -> int:
        _refuse_reference_only(arguments.game)
        try:
            return handler(arguments)
        except UnknownGameInSave as error:
            _refuse_reference_only(error.game_id, error.source, error.line)
            raise

    return refusing


def _refuse_reference_only(game_id: str | None, source: str = "", line: int = 0) -> None:
    """:class:`catalogue.NoChecksError` for an added game; a plugin's id, or a fresh instance, needs no database."""
    database = instance.database_path(instance.resolved_folder())
    if game_id is None or game_id in registry() or not database.is_file():
        return
    with closing(store.connect(database)) as connection:
        catalogue.require_checks(connection, game_id, source, line)


def _check(arguments: argparse.Namespace) -> int:
    submission = _submission(arguments)
    reading = intake.read_submission(submission)
    if reading.note:
        _note(f"{submission.source}: {reading.note}")
    report = run_checks(reading.position)
    if arguments.format == "json":
        _print_json(report.to_json())
    else:
        console.write_text(report.to_text())
    return EXIT_OK if report.legal else EXIT_VIOLATIONS


def _export(arguments: argparse.Namespace) -> int:
    folder = (arguments.output.parent if arguments.output else Path.cwd()).resolve()
    exported = intake.export_submission(_submission(arguments), relative_to=folder)
    if arguments.output:
        _write_output(arguments.output, exported.xml)
    else:
        console.write_bytes(exported.xml)
    _note(f"{arguments.file}: {exported.note}")
    return EXIT_OK


def _write_output(path: Path, data: bytes) -> None:
    """Write the export where the user asked, or say in a sentence why that place cannot take it."""
    try:
        path.write_bytes(data)
    except OSError as error:
        reason = error.strerror or str(error)
        raise UsageError(f"the export cannot be written there ({reason}); give --output a file in a folder "
                         "you can write to.", path) from None


def _submission(arguments: argparse.Namespace) -> intake.Submission:
    """The file and options given; a VASSAL file's missing module or game is asked for by its option."""
    submission = intake.Submission(arguments.file, game=arguments.game, module=arguments.module,
                                   mapping=arguments.mapping, viewer=arguments.viewer, arbiter=arguments.arbiter)
    if submission.is_vassal and arguments.module is None:
        raise UsageError("a VASSAL file needs its module; give it with --module FILE.vmod.", arguments.file)
    if submission.is_vassal and arguments.game is None:
        raise UsageError(f"say which game the VASSAL file is for with --game ({', '.join(registry())}).",
                         arguments.file)
    return submission


def _note(sentence: str) -> None:
    console.write_error(sentence)


def _vassal_dump(arguments: argparse.Namespace) -> int:
    if arguments.viewer is not None:  # the save is read once more, only to know which sides it defines
        require_defined_side(arguments.viewer, read_saved_game(arguments.file))
    data = vassal_dump.dump_file(
        arguments.file, arguments.module, steps=arguments.steps, viewer=arguments.viewer, arbiter=arguments.arbiter
    )
    if arguments.format == "json":
        console.write_json(vassal_dump.render_json(data))
    else:
        console.write_text(vassal_dump.render_text(data), end="")
    return EXIT_OK


# -- the instance -----------------------------------------------------------


def _info(arguments: argparse.Namespace) -> int:
    facts = info.gather()
    if arguments.format == "json":
        _print_json(facts)
    else:
        console.write_text(info.as_text(facts))
    return EXIT_OK


# -- serving --------------------------------------------------------------


def _serve(arguments: argparse.Namespace) -> int:
    from validator.web import create_app

    create_app().run(host=arguments.host, port=arguments.port)
    return EXIT_OK


# -- helpers --------------------------------------------------------------


def _print_json(data: object) -> None:
    """The stable JSON contracts (docs/cli.md): two-space indent, non-ASCII characters as they are."""
    console.write_json(json.dumps(data, ensure_ascii=False, indent=2))


def _database():
    """A connection to the instance database that closes when the block ends."""
    return closing(store.connect(instance.database_path(instance.folder())))


def _reference_game(game_id: str) -> catalogue.CatalogueGame:
    """A game whose rulebook Referee can import and serve: a plugin game or a reference-only one."""
    with _database() as connection:
        return catalogue.find(connection, game_id)


def _load(game: catalogue.CatalogueGame, required: bool = True) -> Rulebook | None:
    with _database() as connection:
        book = storage.load(connection, game.id)
    if book is None and required:
        files = " ".join(game.rulebook_files) or "FILE..."
        raise UsageError(
            f"The {game.id} rulebook is not imported yet. Import your copy first: "
            f"referee rules import {game.id} {files}"
        )
    return book


if __name__ == "__main__":
    sys.exit(main())

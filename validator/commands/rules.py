"""``referee rules``: import your copy of a game's rulebook, and read it."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from validator import console
from validator.commands.common import EXIT_OK, GAME_HELP, UsageError, add_format, command, database, print_json


def register(commands) -> None:
    rules = command(commands, "rules", "import and read a game's rulebook")
    rule_commands = rules.add_subparsers(title="rules commands", metavar="RULES_COMMAND")

    importing = command(rule_commands, "import", "import your copy of a game's rulebook")
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
    add_format(importing)
    importing.set_defaults(handler=import_rulebook)

    for name, handler, help_text in (
        ("list", list_cases, "list the cases of a game"),
        ("refs", list_references, "list the cross-references of a game's rulebook"),
        ("checks", list_checks, "list the checks registered for a game, in case order"),
        ("coverage", list_coverage, "list every case of a game's index as enforced, unchecked or not encoded"),
    ):
        parser = command(rule_commands, name, help_text)
        parser.add_argument("game", help=GAME_HELP)
        add_format(parser)
        parser.set_defaults(handler=handler)

    showing = command(rule_commands, "show", "show a case with its items and references")
    showing.add_argument("game", help=GAME_HELP)
    showing.add_argument("case", help="a case number, such as 6.21, 11.353E or 15.4.1.1")
    add_format(showing)
    showing.set_defaults(handler=show_case)


# -- rules import ---------------------------------------------------------


def import_rulebook(arguments: argparse.Namespace) -> int:
    from validator import catalogue
    from validator.rulebook import fixups as fixup_module
    from validator.rulebook import overlap as overlap_module
    from validator.rulebook import summary
    from validator.rulebook.importer import RulebookImportError, import_texts, read_file

    game = _reference_game(arguments.game)
    # The book keeps file names for display: undecodable bytes become U+FFFD before they are stored.
    files = [replace(file, name=console.displayable(file.name)) for file in map(read_file, arguments.files)]
    fixups_path = _fixups_path(game, arguments)
    fixups = fixup_module.load(fixups_path) if fixups_path else None
    book = import_texts(game.id, files, fixups, console.displayable(str(fixups_path)))
    overlap = overlap_module.of_book(game.id, book, game.case_index) if game.plugin else None
    if overlap is not None and overlap.mostly_unknown and not arguments.force:
        raise RulebookImportError(", ".join(book.sources), overlap.refusal())
    with database() as connection:
        catalogue.save_rulebook(connection, game, book)
    if arguments.format == "json":
        print_json({**summary.as_json(book), "case_index": overlap.as_json() if overlap else None})
    else:
        notes = [overlap.forced_note(), overlap.missing_note()] if overlap else []
        console.write_text("\n".join([summary.as_text(book), *(note for note in notes if note)]))
    return EXIT_OK


def _fixups_path(game, arguments: argparse.Namespace) -> Path | None:
    if arguments.no_fixups:
        return None
    return arguments.fixups or game.fixups_path


# -- reading --------------------------------------------------------------


def list_cases(arguments: argparse.Namespace) -> int:
    from validator.cases import CaseNumber

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
        print_json(entries)
    else:
        for entry in entries:
            depth = 0 if entry["parent"] is None else len(CaseNumber.parse(entry["case"]).ancestors())
            console.write_text(f"{'  ' * depth}{entry['case']}  {entry['title']}".rstrip())
    return EXIT_OK


def list_references(arguments: argparse.Namespace) -> int:
    game = _reference_game(arguments.game)
    book = _load(game)
    references = [
        {"from": str(case.number), "to": str(reference.target), "resolved": reference.resolved,
         "text": block.text[reference.start : reference.end]}
        for case, block, reference in book.references()
    ]
    if arguments.format == "json":
        print_json(references)
    else:
        for reference in references:
            state = "" if reference["resolved"] else "  (unresolved)"
            console.write_text(f"{reference['from']} -> {reference['to']}{state}")
    return EXIT_OK


def show_case(arguments: argparse.Namespace) -> int:
    from validator.cases import CaseNumber
    from validator.rulebook import presentation

    game = _reference_game(arguments.game)
    book = _load(game)
    number = CaseNumber.try_parse(arguments.case)
    if number is None or number not in book.cases:
        nearest = book.nearest_existing(number) if number else None
        hint = f" The nearest case is {nearest.number}." if nearest else ""
        raise UsageError(f"The {game.id} rulebook has no case {arguments.case!r}.{hint}")
    case = book.cases[number]
    if arguments.format == "json":
        print_json(presentation.case_json(book, case.number, game.index_title))
    else:
        console.write_text(presentation.case_text(book, case.number, game.index_title))
    return EXIT_OK


def list_checks(arguments: argparse.Namespace) -> int:
    game = _reference_game(arguments.game)
    # In case order; sorting is stable, so the checks of one case keep the order they were registered in.
    checks = [
        {"rule": check.rule, "case": str(check.case), "severity": check.severity,
         "name": check.name, "summary": check.summary, "judges": check.judges}
        for check in sorted(game.rules.checks(), key=lambda check: check.case)
    ]
    if arguments.format == "json":
        print_json(checks)
    elif game.reference_only:
        console.write_text(f"{game.id} is a reference-only game: Referee serves its rulebook and has no checks for it.")
    elif not checks:
        console.write_text(f"No checks are registered for {game.id} yet.")
    else:
        for check in checks:
            console.write_text(f"{check['rule']:<16} {check['severity']:<9} {check['name']}: {check['summary']}")
    return EXIT_OK


def list_coverage(arguments: argparse.Namespace) -> int:
    from validator import coverage

    game = _reference_game(arguments.game)
    if game.plugin is None:
        raise UsageError(f"Referee has no checks for '{game.id}' (a reference-only game), so there is no coverage "
                         f"to list; referee rules list {game.id} lists its rulebook.")
    found = coverage.of_game(game.plugin)
    if arguments.format == "json":
        print_json(coverage.as_json(found))
    else:
        console.write_text(coverage.as_text(found))
    return EXIT_OK


# -- helpers --------------------------------------------------------------


def _reference_game(game_id: str):
    """A game whose rulebook Referee can import and serve: a plugin game or a reference-only one."""
    from validator import catalogue

    with database() as connection:
        return catalogue.find(connection, game_id)


def _load(game, required: bool = True):
    from validator.rulebook import storage

    with database() as connection:
        book = storage.load(connection, game.id)
    if book is None and required:
        files = " ".join(game.rulebook_files) or "FILE..."
        raise UsageError(
            f"The {game.id} rulebook is not imported yet. Import your copy first: "
            f"referee rules import {game.id} {files}"
        )
    return book

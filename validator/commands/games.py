"""``referee games``: list the games, and add or remove reference-only ones."""

from __future__ import annotations

import argparse

from validator import console
from validator.commands.common import EXIT_OK, add_format, command, database, print_json


def register(commands) -> None:
    games = command(commands, "games", "list the games, and add or remove reference-only games")
    game_commands = games.add_subparsers(title="games commands", metavar="GAMES_COMMAND")
    adding = command(game_commands, "add", "add a reference-only game: its rulebook is served, "
                                          "but Referee has no checks for it")
    adding.add_argument("game", metavar="ID",
                        help="the new game's id: lowercase letters, digits and dashes, such as harbour-watch")
    adding.add_argument("--title", required=True, help="the game's title, as the pages show it")
    adding.set_defaults(handler=add)
    listing = command(game_commands, "list", "list every game, with checks or reference only")
    add_format(listing)
    listing.set_defaults(handler=list_games)
    removing = command(game_commands, "remove", "remove a reference-only game")
    removing.add_argument("game", metavar="ID", help="the id of a game added with referee games add")
    removing.add_argument("--with-rulebook", action="store_true",
                          help="remove its imported rulebook too (default: refuse while one is imported)")
    removing.set_defaults(handler=remove)


def add(arguments: argparse.Namespace) -> int:
    from validator import catalogue

    with database() as connection:
        game = catalogue.add(connection, arguments.game, arguments.title)
    console.write_text(f"Added the reference-only game {game.id} ({game.title}). "
                       f"Import its rulebook with: referee rules import {game.id} FILE...")
    return EXIT_OK


def list_games(arguments: argparse.Namespace) -> int:
    from validator import catalogue
    from validator.rulebook import storage

    with database() as connection:
        known = catalogue.known_games(connection)
        imported = storage.statuses(connection)
    listed_games = [
        {"id": game.id, "title": game.title, "reference_only": game.reference_only,
         "checks": len(game.rules.checks()), "imported": game.id in imported, "added_at": game.added_at or None}
        for game in known
    ]
    if arguments.format == "json":
        print_json(listed_games)
        return EXIT_OK
    width = max(len(game["id"]) for game in listed_games) if listed_games else 0
    for game in listed_games:
        kind = "reference only" if game["reference_only"] else "checks"
        state = "imported" if game["imported"] else "not imported"
        console.write_text(f"{game['id']:<{width}}  {kind:<14}  {state:<12}  {game['title']}")
    return EXIT_OK


def remove(arguments: argparse.Namespace) -> int:
    from validator import catalogue

    with database() as connection:
        game = catalogue.remove(connection, arguments.game, with_rulebook=arguments.with_rulebook)
    console.write_text(f"Removed the reference-only game {game.id} ({game.title})"
                       f"{' and its rulebook' if arguments.with_rulebook else ''}.")
    return EXIT_OK

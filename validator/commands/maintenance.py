"""``referee maintenance``: keeping the instance folder clean."""

from __future__ import annotations

import argparse

from validator import console
from validator.commands.common import EXIT_OK, UsageError, add_format, command, database, print_json


def register(commands) -> None:
    maintenance = command(commands, "maintenance", "keep the instance folder clean")
    maintenance_commands = maintenance.add_subparsers(title="maintenance commands", metavar="MAINTENANCE_COMMAND")
    cleaning = command(maintenance_commands, "clean",
                       "remove uploaded files that no report or kept module names, once older than the grace "
                       "period ([storage] orphan_grace_seconds), and sign-in failure counts and client counters "
                       "older than a day")
    cleaning.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    add_format(cleaning)
    cleaning.set_defaults(handler=clean)
    expiring = command(maintenance_commands, "expire",
                       "remove the uploaded saves and maps of reports older than the retention period "
                       "([storage] retention_days; 0, the default, keeps them for good); verdicts and pages stay")
    expiring.add_argument("--dry-run", action="store_true", help="only count what would be removed")
    add_format(expiring)
    expiring.set_defaults(handler=expire)


def expire(arguments: argparse.Namespace) -> int:
    from validator import instance, retention, storage

    folder = instance.folder()
    days = storage.settings_for(folder).retention_days
    with database() as connection:
        removal = retention.remove_uploads(connection, folder / instance.UPLOADS_NAME,
                                           retention.expired(connection, days), dry_run=arguments.dry_run)
    if arguments.format == "json":
        print_json(removal.as_json())
    else:
        console.write_text(removal.summary(days))
    return EXIT_OK


def clean(arguments: argparse.Namespace) -> int:
    from validator import instance, maintenance, storage

    folder = instance.folder()
    grace = storage.settings_for(folder).orphan_grace_seconds
    target = instance.database_target(folder)
    if not isinstance(target, str) and not target.exists():
        raise UsageError("there is no database there yet, so no file in the uploads folder could be told from an "
                         "orphan; nothing was removed: point REFEREE_INSTANCE (or REFEREE_DATABASE_URL) at the "
                         "instance whose uploads you mean to clean.", target)
    with database() as connection:
        forgotten = maintenance.forget_counters(connection, dry_run=arguments.dry_run)
        cleaning = maintenance.clean(connection, folder / instance.UPLOADS_NAME, grace, dry_run=arguments.dry_run)
    if arguments.format == "json":
        print_json({**cleaning.as_json(), **forgotten.as_json()})
    else:
        lines = [maintenance.summary(cleaning, grace), forgotten.summary(arguments.dry_run)]
        console.write_text("\n".join(line for line in lines if line))
    return EXIT_OK

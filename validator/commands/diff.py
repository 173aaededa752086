"""``referee diff BEFORE AFTER``: what changed between two positions of one game, piece by piece."""

from __future__ import annotations

import argparse
from pathlib import Path

from validator import console
from validator.commands.common import (
    EXIT_OK,
    UsageError,
    add_format,
    add_limits,
    add_vassal_options,
    command,
    print_json,
)


def register(commands) -> None:
    comparing = command(commands, "diff", "show the pieces added, removed, moved and changed between two positions")
    comparing.add_argument("before", type=Path, metavar="BEFORE", help="the earlier save: Referee .xml or VASSAL "
                                                                      ".vsav/.vlog (a log's last position)")
    comparing.add_argument("after", type=Path, metavar="AFTER", help="the later save, of the same game")
    comparing.add_argument("--game", help="the game the saves are for; required for VASSAL files "
                                          "(default: the game a Referee save names)")
    add_vassal_options(comparing)
    add_limits(comparing)
    add_format(comparing)
    comparing.set_defaults(handler=diff)


def diff(arguments: argparse.Namespace) -> int:
    from validator import intake
    from validator.commands.check import any_vassal, submission_of
    from validator.moves.diff import difference

    positions = []
    for path in (arguments.before, arguments.after):
        alone = not any_vassal([arguments.before, arguments.after])  # Referee saves only: VASSAL options refused
        reading = intake.read_submission(submission_of(arguments, path, alone=alone))
        positions.append(reading.position)
    before, after = positions
    if before.game != after.game:
        raise UsageError(f"the two saves are of different games ({before.source}: {before.game}, {after.source}: "
                         f"{after.game}); compare two positions of one game.", after.source)
    change = difference(before, after)
    if arguments.format == "json":
        print_json(change.to_json())
    else:
        console.write_text(change.to_text())
    return EXIT_OK

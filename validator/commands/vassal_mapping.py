"""``referee vassal mapping draft|check|skeleton``: a mapping without hand-writing it (docs/vassal-mapping.md)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from validator import console
from validator.commands.common import (
    EXIT_OK,
    GAME_HELP,
    UsageError,
    add_format,
    add_limits,
    command,
    limits_of,
    note,
    print_json,
)
from validator.commands.vassal_module import add_module_options, read_with_extensions

_BOARD_SIZE = re.compile(r"(?P<board>.+)=(?P<width>[0-9]{1,6})x(?P<height>[0-9]{1,6})")


def _board_size(text: str) -> tuple[str, tuple[int, int]]:
    found = _BOARD_SIZE.fullmatch(text)
    if found is None or int(found["width"]) == 0 or int(found["height"]) == 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not BOARD=WIDTHxHEIGHT in pixels, such as "
                                         "'A3R European Front=3750x2625'")
    return found["board"], (int(found["width"]), int(found["height"]))


def register(vassal_commands) -> None:
    mapping = command(vassal_commands, "mapping", "draft a module mapping, fill in its map, and measure its coverage")
    mapping_commands = mapping.add_subparsers(title="mapping commands", metavar="MAPPING_COMMAND")

    drafting = command(mapping_commands, "draft",
                       "write a starting mapping for a module and a game, with what to fill in marked todo")
    add_module_options(drafting, positional=False)
    drafting.add_argument("--game", required=True, help=GAME_HELP)
    drafting.add_argument("saves", nargs="*", type=Path, metavar="SAVE",
                          help="saves of the module: their pieces are classified too, and they size boards whose "
                               "image the module lacks")
    drafting.add_argument("--output", type=Path, metavar="FILE",
                          help="the mapping file to write; a hex game's skeleton tables and map go beside it "
                               "(FILE-hexes.csv, FILE-areas.csv, FILE-map.xml); default: the mapping on standard "
                               "output (not for a hex game)")
    drafting.add_argument("--board-size", type=_board_size, action="append", metavar="BOARD=WxH",
                          help="a board's size in pixels when the module lacks its image (repeatable; default: "
                               "none, the size is then bounded by what the module and the saves place on it)")
    drafting.add_argument("--force", action="store_true",
                          help="overwrite the mapping and skeleton files when they exist (default: refuse, so a "
                               "filled-in draft is never lost)")
    add_limits(drafting)
    drafting.set_defaults(handler=draft)

    checking = command(mapping_commands, "check",
                       "count what a mapping resolves of saves: pieces, locations, and what goes unchecked")
    checking.add_argument("--mapping", type=Path, required=True, metavar="FILE", help="the mapping to measure")
    add_module_options(checking, positional=False)
    checking.add_argument("saves", nargs="+", type=Path, metavar="SAVE", help="one or more .vsav or .vlog files")
    add_limits(checking)
    add_format(checking)
    checking.set_defaults(handler=check)

    skeleton = command(mapping_commands, "skeleton",
                       "read a draft's filled-in hexes.csv and areas.csv back into our map format")
    skeleton.add_argument("--hexes", type=Path, required=True, metavar="FILE", help="the hex table the draft wrote")
    skeleton.add_argument("--areas", type=Path, required=True, metavar="FILE", help="the area table the draft wrote")
    skeleton.add_argument("--game", required=True, help=GAME_HELP)
    skeleton.add_argument("--output", type=Path, required=True, metavar="FILE", help="the map file to write")
    add_limits(skeleton)
    skeleton.set_defaults(handler=write_skeleton_map)


def _saved_games(paths: list[Path], limits):
    from validator.saves.vassal.reader import read_saved_game

    for path in paths:  # a .vlog is read to the position after its last step
        yield read_saved_game(path, limits=limits)


def _placed_points(module, games) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """Board-local piece points of single-board maps, which bound a board whose image the module lacks."""
    placed: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for game in games:
        for piece in game.pieces:
            definition = module.maps.get(piece.map) if piece.map else None
            if definition is None or len(definition.boards) != 1:
                continue
            point = (piece.x - definition.edge_width, piece.y - definition.edge_height)
            if point[0] >= 0 and point[1] >= 0:
                placed.setdefault((definition.id, definition.boards[0].name), []).append(point)
    return placed


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as error:
        raise UsageError(f"cannot be written ({error.strerror or error}); choose a file in a folder that exists",
                         path) from None


def _require_known_boards(module, board_sizes: dict[str, tuple[int, int]]) -> None:
    """A --board-size for a board the module does not have would be silently unused: refuse it."""
    known = sorted({board.name for definition in module.maps.values() for board in definition.boards})
    unknown = sorted(name for name in board_sizes if name not in known)
    if unknown:
        raise UsageError(f"--board-size names the board {', '.join(repr(name) for name in unknown)}, which the "
                         f"module does not have; its boards are {', '.join(repr(name) for name in known) or 'none'}",
                         module.source)


def _draft_files(output: Path, hex_draft: bool) -> tuple[Path, ...]:
    """The files a draft writes: the mapping, and for a hex game its hex table, area table and map beside it."""
    if not hex_draft:
        return (output,)
    stem = output.with_suffix("")
    return output, Path(f"{stem}-hexes.csv"), Path(f"{stem}-areas.csv"), Path(f"{stem}-map.xml")


def _refuse_to_overwrite(paths: tuple[Path, ...]) -> None:
    """A second draft would overwrite what the club filled in: refuse unless told with --force."""
    existing = [str(path) for path in paths if path.exists()]
    if existing:
        raise UsageError(f"{'it exists' if len(existing) == 1 else 'they exist'} and may hold what was filled in; "
                         "nothing was written: choose another --output, or give --force to overwrite",
                         ", ".join(existing))


def draft(arguments: argparse.Namespace) -> int:
    from validator.games import get
    from validator.saves.vassal.map_skeleton import build_skeleton, read_skeleton, write_tables
    from validator.saves.vassal.mapping import parse_mapping, read_mapping
    from validator.saves.vassal.mapping_draft import draft_mapping, has_hex_boards, is_hex_game, relative_href

    game = get(arguments.game)
    limits = limits_of(arguments)
    module = read_with_extensions(arguments)
    games = list(_saved_games(arguments.saves, limits))
    saved = [(piece.basic_name, piece.image, piece.map or "") for game_read in games for piece in game_read.pieces]
    output = arguments.output
    skeleton = None
    hex_draft = is_hex_game(game.id) and has_hex_boards(module)
    if hex_draft and output is None:
        raise UsageError(f"the game '{game.id}' needs a map skeleton written beside the mapping; give --output "
                         "FILE", module.source)
    if output is not None and not arguments.force:
        _refuse_to_overwrite(_draft_files(output, hex_draft))
    board_sizes = dict(arguments.board_size or ())
    _require_known_boards(module, board_sizes)
    if hex_draft:
        skeleton = build_skeleton(module, board_sizes=board_sizes, placed=_placed_points(module, games),
                                  most_hexes=limits.hexes)
        stem = output.with_suffix("")
        _, hexes_path, areas_path, map_path = _draft_files(output, hex_draft)
        try:
            write_tables(skeleton, game.id, hexes_path, areas_path)
        except OSError as error:
            raise UsageError(f"cannot be written ({error.strerror or error}); choose a folder that exists",
                             hexes_path) from None
        _write(map_path, read_skeleton(hexes_path, areas_path, game.id,
                                       re.sub(r"[^A-Za-z0-9_.:/\-]", "-", stem.name) or "map",
                                       most_hexes=limits.hexes))
        href, game_map = relative_href(map_path, output), map_path
        for sentence in skeleton.notes:
            note(f"{module.source}: {sentence}.")
    else:
        game_map = read_mapping(game.default_mapping_path).map_path if game.default_mapping_path.is_file() else None
        href = relative_href(game_map, output) if game_map is not None else "FILL-IN-map.xml"
    drafted = draft_mapping(module, game.id, map_href=href, game_map=game_map, skeleton=skeleton,
                            saved_pieces=saved,
                            saved_properties=[name for game_read in games for name in game_read.global_properties])
    parse_mapping(drafted.xml, str(output or "the draft"), (output or Path("x")).resolve().parent)
    if output is None:
        console.write_text(drafted.xml.decode("utf-8"), end="")
    else:
        _write(output, drafted.xml)
    kinds = sum(1 for item in drafted.pieces if item.kind is not None)
    described = sum(1 for item in drafted.pieces if item.kind is not None and not item.missing)
    properties = len(drafted.matched_state) + len(drafted.unmatched_properties)
    hexes = f", {len(skeleton.hexes):,} hexes in the skeleton" if skeleton is not None else ""
    note(f"{output or 'the draft'}: {len(module.maps)} maps{hexes}, {len(drafted.matched_locations)} named places "
         f"matched, {kinds} of {len(drafted.pieces)} piece names classified ({described} with every attribute "
         f"the game needs), {len(drafted.matched_state)} of {properties} global properties matched; "
         f"{drafted.to_fill_in} elements marked todo to fill in.")
    return EXIT_OK


def check(arguments: argparse.Namespace) -> int:
    from validator.games import get
    from validator.saves.vassal.mapping import read_mapping
    from validator.saves.vassal.mapping_coverage import coverage

    limits = limits_of(arguments)
    module = read_with_extensions(arguments)
    mapping = read_mapping(arguments.mapping)
    checks = tuple(dict.fromkeys(check.rule for check in get(mapping.game).rules.judging("position")))
    results = [coverage(module, mapping, game, checks) for game in _saved_games(arguments.saves, limits)]
    if arguments.format == "json":
        print_json({"coverage": [result.to_json() for result in results]})
    else:
        console.write_text("".join(result.render_text() for result in results), end="")
    return EXIT_OK


def write_skeleton_map(arguments: argparse.Namespace) -> int:
    from validator.games import get
    from validator.saves.vassal.map_skeleton import read_skeleton

    game = get(arguments.game)
    stem = arguments.output.with_suffix("").name
    notes: list[str] = []
    _write(arguments.output, read_skeleton(arguments.hexes, arguments.areas, game.id,
                                           re.sub(r"[^A-Za-z0-9_.:/\-]", "-", stem) or "map",
                                           most_hexes=limits_of(arguments).hexes, notes=notes))
    for sentence in notes:
        note(f"{sentence}.")
    note(f"{arguments.output}: map written from {arguments.hexes} and {arguments.areas}.")
    return EXIT_OK

"""Prepared maps kept in the instance folder: loaded when they hold, rebuilt when stale or damaged, never an error.

These tests use A World at War's shipped map (its game prepares every hex)
and the real instance folder of each test (see tests/conftest.py).
``prepared`` takes the preparing work as a function, so a test can tell a
kept entry (the function is not called) from a rebuilt one.
"""

from __future__ import annotations

import gc
import marshal
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from validator import prepared_maps
from validator.games import Game, get
from validator.model import Location, LocationTable
from validator.rules import RuleSet
from validator.saves import unchanged_files, xml_reader
from validator.saves.xml_reader import read_position_file

CHECKOUT = Path(__file__).resolve().parents[2]
AWAW_MAP = CHECKOUT / "plugin" / "awaw" / "maps" / "awaw-map.xml"


class Preparations:
    """The preparing work, counted: how many times the map was really read."""

    def __init__(self, game: Game, data: bytes, source: str) -> None:
        self.game, self.data, self.source, self.count = game, data, source, 0

    def __call__(self):
        self.count += 1
        return xml_reader.read_map_file(self.game, self.source, "save.xml", 1, self.data, self.source,
                                        xml_reader.DEFAULT_LIMITS)


@pytest.fixture
def awaw_map(tmp_path) -> tuple[Game, bytes, str]:
    path = tmp_path / "awaw-map.xml"
    path.write_bytes(AWAW_MAP.read_bytes())
    return get("awaw"), path.read_bytes(), str(path)


def prepare_twice(game, data, source):
    preparations = Preparations(game, data, source)
    first = prepared_maps.prepared(game, data, source, preparations)
    second = prepared_maps.prepared(game, data, source, preparations)
    return preparations.count, first, second


def entry_of(game, data, source) -> Path:
    folder = prepared_maps.folder()
    assert folder is not None
    return folder / (prepared_maps.entry_name(game, data, source) + prepared_maps.SUFFIX)


def assert_same_map(kept, fresh) -> None:
    assert dict(kept.locations) == dict(fresh.locations)
    assert dict(kept.areas) == dict(fresh.areas)
    assert (kept.id, kept.source, kept.line, dict(kept.attributes)) == (
        fresh.id, fresh.source, fresh.line, dict(fresh.attributes))
    assert kept.derived.keys() == fresh.derived.keys()
    assert kept.derived["awaw"].hexes == fresh.derived["awaw"].hexes


def test_a_prepared_map_is_kept_and_loaded_without_being_read_again(awaw_map):
    game, data, source = awaw_map
    count, first, second = prepare_twice(game, data, source)
    assert count == 1
    assert entry_of(game, data, source).is_file()
    assert_same_map(second, first)
    assert second is not first  # loaded from the entry, not handed back from memory
    # The game's pass over every hex came with it: the checks find their reading made.
    assert {"awaw", "awaw problems", "awaw places that are not hexes"} <= second.derived.keys()


def test_a_kept_map_is_read_only_like_a_fresh_one(awaw_map):
    game, data, source = awaw_map
    _, _, kept = prepare_twice(game, data, source)
    location = next(iter(kept.locations.values()))
    with pytest.raises(TypeError):
        kept.locations[location.id] = location
    with pytest.raises(TypeError):
        location.attributes["terrain"] = "sea"


def out_of_the_collectors_sight(map_data) -> bool:
    """Whether the map's table is frozen: the collector lists every object it tracks but the frozen ones."""
    return not any(tracked is map_data.locations for tracked in gc.get_objects())


def test_a_map_prepared_anew_or_loaded_is_left_out_of_later_collections(awaw_map):
    game, data, source = awaw_map
    preparations = Preparations(game, data, source)
    first = prepared_maps.prepared(game, data, source, preparations)
    assert out_of_the_collectors_sight(first)
    second = prepared_maps.prepared(game, data, source, preparations)
    assert preparations.count == 1 and out_of_the_collectors_sight(second)


def test_a_damaged_entry_is_removed_and_the_map_prepared_again(awaw_map):
    game, data, source = awaw_map
    prepare_twice(game, data, source)
    entry = entry_of(game, data, source)
    header = prepared_maps.entry_header(game)
    whole = entry.read_bytes()
    entry.write_bytes(whole[: len(header) + (len(whole) - len(header)) // 2])  # cut in the middle of the pickle
    count, rebuilt, again = prepare_twice(game, data, source)
    assert count == 1
    assert entry.read_bytes() == whole  # written again, whole
    assert_same_map(again, rebuilt)


def test_garbage_after_a_good_header_is_discarded_too(awaw_map):
    game, data, source = awaw_map
    entry = entry_of(game, data, source)
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_bytes(prepared_maps.entry_header(game) + os.urandom(4096))
    count, _, _ = prepare_twice(game, data, source)
    assert count == 1


def test_a_stale_entry_from_other_code_is_never_trusted(awaw_map):
    game, data, source = awaw_map
    prepare_twice(game, data, source)
    entry = entry_of(game, data, source)
    header = prepared_maps.entry_header(game)
    other_code = header.replace(prepared_maps.code_hash(game.folder).encode(), b"0" * 64)
    entry.write_bytes(other_code + entry.read_bytes()[len(header):])
    count, _, _ = prepare_twice(game, data, source)
    assert count == 1
    assert entry.read_bytes().startswith(header)


def test_an_entry_of_another_cache_format_is_rebuilt(awaw_map, monkeypatch):
    game, data, source = awaw_map
    prepare_twice(game, data, source)
    monkeypatch.setattr(prepared_maps, "FORMAT", prepared_maps.FORMAT + 1)
    count, _, _ = prepare_twice(game, data, source)
    assert count == 1


def test_editing_the_games_code_changes_the_hash_in_a_new_process(tmp_path):
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "checks.py").write_text("LIMIT = 7\n", encoding="utf-8")
    script = textwrap.dedent(f"""
        from pathlib import Path
        from validator import prepared_maps
        print(prepared_maps.code_hash(Path({str(folder)!r})))
    """)

    def hash_in_a_new_process() -> str:
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              cwd=CHECKOUT).stdout.strip()

    before = hash_in_a_new_process()
    assert hash_in_a_new_process() == before
    (folder / "checks.py").write_text("LIMIT = 8\n", encoding="utf-8")
    assert hash_in_a_new_process() != before


def test_the_same_bytes_under_another_name_are_another_entry(awaw_map, tmp_path):
    game, data, source = awaw_map
    other = tmp_path / "elsewhere.xml"
    other.write_bytes(data)
    assert prepared_maps.entry_name(game, data, source) != prepared_maps.entry_name(game, data, str(other))
    kept = prepared_maps.prepared(game, data, str(other), Preparations(game, data, str(other)))
    assert kept.source == str(other)  # the map's messages name the file the save used


def test_a_map_that_is_refused_is_never_kept(tmp_path):
    game = get("awaw")
    data = b'<map xmlns="urn:referee:save:1" game="awaw"><hex id="a" column="x" row="1"/></map>'
    preparations = Preparations(game, data, str(tmp_path / "bad.xml"))
    for _ in range(2):
        with pytest.raises(xml_reader.SaveInputError):
            prepared_maps.prepared(game, data, preparations.source, preparations)
    assert preparations.count == 2
    assert not any(prepared_maps.folder().glob("*" + prepared_maps.SUFFIX))


def test_without_a_usable_instance_folder_the_map_is_prepared_every_time(awaw_map, tmp_path, monkeypatch):
    game, data, source = awaw_map
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("REFEREE_INSTANCE", str(blocker / "instance"))
    count, first, second = prepare_twice(game, data, source)
    assert count == 2
    assert_same_map(second, first)


WRITER = textwrap.dedent("""
    import sys
    from validator import prepared_maps
    from validator.games import get
    from validator.saves import xml_reader
    game, source = get("awaw"), sys.argv[1]
    data = open(source, "rb").read()
    sys.stdin.readline()  # every writer starts together
    for _ in range(3):
        prepared_maps._remove(prepared_maps.folder() / (prepared_maps.entry_name(game, data, source) + ".prepared"))
        map_data = prepared_maps.prepared(
            game, data, source, lambda: xml_reader.read_map_file(game, source, "save.xml", 1, data, source,
                                                                  xml_reader.DEFAULT_LIMITS))
        assert len(map_data.locations) > 0
    print(len(map_data.locations))
""")


def test_concurrent_writers_of_one_entry_leave_one_whole_entry(awaw_map):
    game, data, source = awaw_map
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, source], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=CHECKOUT)
        for _ in range(4)
    ]
    for writer in writers:
        writer.stdin.write("go\n")
        writer.stdin.flush()
    results = [writer.communicate(timeout=120) for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0, 0, 0], [error for _, error in results]
    assert len({output for output, _ in results}) == 1
    folder = prepared_maps.folder()
    assert not list(folder.glob(".*.partial"))  # no temporary file left behind
    count, _, kept = prepare_twice(game, data, source)
    assert count == 0  # the entry the last writer renamed into place loads whole
    assert len(kept.locations) == int(results[0][0])


def test_a_check_in_a_new_process_gives_the_same_report_from_a_kept_map(tmp_path):
    save = tmp_path / "save.xml"
    save.write_text(
        '<position xmlns="urn:referee:save:1" version="1" game="awaw" turn="spring 1943" '
        'phase="unit-construction" phasing="allies"><map href="awaw-map.xml"/><pieces/></position>\n',
        encoding="utf-8",
    )
    (tmp_path / "awaw-map.xml").write_bytes(AWAW_MAP.read_bytes())

    def check() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "validator.cli", "check", str(save)], capture_output=True,
                              text=True, cwd=CHECKOUT, env=os.environ)

    first = check()
    assert list(prepared_maps.folder().glob("*" + prepared_maps.SUFFIX))
    second = check()
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)


def test_reading_a_save_twice_in_one_process_gives_equal_positions(awaw_map, tmp_path):
    _, data, _ = awaw_map
    save = tmp_path / "save.xml"
    save.write_text(
        '<position xmlns="urn:referee:save:1" version="1" game="awaw" turn="spring 1943" '
        'phase="unit-construction"><map href="awaw-map.xml"/><pieces/></position>\n', encoding="utf-8")
    first = read_position_file(save)
    xml_reader._MAP_CACHE.clear()
    unchanged_files._CACHE.clear()
    second = read_position_file(save)  # from the instance's entry
    assert_same_map(second.map, first.map)


def test_a_location_table_builds_each_location_once_and_equal_to_a_built_one():
    built = Location("h1", "hex", area="france", attributes={"terrain": "clear"}, neighbours=("h2",), line=3)
    table = LocationTable({"h1": ("h1", "hex", "france", None, "", (("terrain",), ("clear",)), ("h2",), 3)})
    assert table["h1"] == Location("h1", "hex", area="france", attributes=built.attributes, neighbours=("h2",),
                                   line=3)
    assert table["h1"] is table["h1"]
    assert table.get("nowhere") is None and "h1" in table and len(table) == 1 and list(table) == ["h1"]
    assert LocationTable.of([built])["h1"] is built


def test_a_game_without_preparation_still_keeps_its_map(tmp_path):
    game = Game(id="plain", title="A plain game", folder=tmp_path, rules=RuleSet.from_modules("plain", ()))
    data = (CHECKOUT / "plugin" / "tww" / "maps" / "tww-map.xml").read_bytes().replace(b' game="tww"', b"")
    source = str(tmp_path / "tww-map.xml")
    preparations = Preparations(game, data, source)
    prepared_maps.prepared(game, data, source, preparations)
    kept = prepared_maps.prepared(game, data, source, preparations)
    assert preparations.count == 1 and len(kept.locations) > 0


def _code_folder(tmp_path) -> Path:
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "checks.py").write_text("LIMIT = 7\n", encoding="utf-8")
    return folder


def _kept_code_hashes() -> list[Path]:
    kept = prepared_maps.folder() / prepared_maps.CODE_HASHES_FOLDER
    return sorted(kept.iterdir()) if kept.is_dir() else []


def test_a_code_hash_of_files_just_changed_is_not_kept(tmp_path, monkeypatch):
    folder = _code_folder(tmp_path)
    changed_at = (folder / "checks.py").stat().st_ctime_ns
    now = SimpleNamespace(time_ns=lambda: changed_at + prepared_maps.SETTLED_NS)  # not yet settled
    monkeypatch.setattr(prepared_maps, "time", now)
    before = prepared_maps.code_hash(folder)
    assert _kept_code_hashes() == []  # its times might not move at the next change: hashed from bytes again
    prepared_maps._code_hashes.clear()
    (folder / "checks.py").write_text("LIMIT = 8\n", encoding="utf-8")  # same size, within the same moment
    assert prepared_maps.code_hash(folder) != before


def test_a_kept_code_hash_serves_the_same_files_and_no_other(tmp_path, monkeypatch):
    folder = _code_folder(tmp_path)
    monkeypatch.setattr(prepared_maps, "SETTLED_NS", -10**18)  # as if every file had been changed long ago
    first = prepared_maps.code_hash(folder)
    [kept] = _kept_code_hashes()
    signature, hashed = marshal.loads(kept.read_bytes())
    assert hashed == first
    prepared_maps._code_hashes.clear()
    kept.write_bytes(marshal.dumps((signature, "0" * 64)))  # proves the kept hash is the one used
    assert prepared_maps.code_hash(folder) == "0" * 64
    prepared_maps._code_hashes.clear()
    checks = folder / "checks.py"
    times = checks.stat()
    checks.write_text("LIMIT = 8\n", encoding="utf-8")  # same size: the modification time below tells
    os.utime(checks, ns=(times.st_atime_ns, times.st_mtime_ns + 1))
    changed = prepared_maps.code_hash(folder)
    assert changed not in ("0" * 64, first)
    prepared_maps._code_hashes.clear()
    checks.write_text("LIMIT = 80\n", encoding="utf-8")  # another size
    os.utime(checks, ns=(times.st_atime_ns, times.st_mtime_ns + 1))
    resized = prepared_maps.code_hash(folder)
    assert resized not in ("0" * 64, first, changed)
    prepared_maps._code_hashes.clear()
    (folder / "more.py").write_text("", encoding="utf-8")  # a new file is another list of files
    assert prepared_maps.code_hash(folder) not in ("0" * 64, first, changed, resized)


def test_a_damaged_kept_code_hash_is_ignored(tmp_path, monkeypatch):
    folder = _code_folder(tmp_path)
    monkeypatch.setattr(prepared_maps, "SETTLED_NS", -10**18)
    first = prepared_maps.code_hash(folder)
    [kept] = _kept_code_hashes()
    for damage in (b"", os.urandom(64), marshal.dumps(("other", first)), marshal.dumps([1, 2, 3])):
        kept.write_bytes(damage)
        prepared_maps._code_hashes.clear()
        assert prepared_maps.code_hash(folder) == first


def test_files_are_settled_only_well_after_their_last_change(tmp_path):
    folder = _code_folder(tmp_path)
    signature = prepared_maps._signature([folder / "checks.py"])
    changed_at = (folder / "checks.py").stat().st_ctime_ns
    assert not prepared_maps._settled(signature, changed_at + prepared_maps.SETTLED_NS)
    assert prepared_maps._settled(signature, changed_at + prepared_maps.SETTLED_NS + 1)
    assert prepared_maps._signature([folder / "missing.py"]) is None

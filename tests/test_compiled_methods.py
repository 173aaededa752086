"""The dataclass methods table: classes made through it are the ones ``dataclasses`` makes, and a table
that is another interpreter's, damaged or absent is compiled around, never trusted and never an error."""

from __future__ import annotations

import dataclasses
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from validator import compiled_methods

CHECKOUT = Path(__file__).resolve().parents[1]


@pytest.fixture
def fresh_table(monkeypatch, instance_dir):
    """An empty table of this process, the instance folder made, and the module's state put back afterwards.

    The table is installed here (idempotent), as the first module of a command installs it: a test run alone
    has imported none."""
    compiled_methods.install()
    instance_dir.mkdir(parents=True)
    monkeypatch.setattr(compiled_methods, "_code_of", {})
    monkeypatch.setattr(compiled_methods, "_used", set())
    monkeypatch.setattr(compiled_methods, "_compiled_anew", False)
    return instance_dir


def _make_class(default: int = 0):
    @dataclasses.dataclass(frozen=True)
    class Sample:
        first: int
        second: str = "two"
        third: int = default

    return Sample


def test_dataclasses_compile_through_the_table_once_it_is_installed():
    import validator.games  # noqa: F401 - the first module of a command to make dataclasses installs it

    assert dataclasses.exec is compiled_methods._exec


def test_a_class_made_through_the_table_behaves_as_dataclasses_makes_it(fresh_table):
    Sample = _make_class()
    assert compiled_methods._compiled_anew  # its methods went through the table
    again = _make_class()  # the same texts, now found in the table
    for made in (Sample, again):
        value = made(1)
        assert value == made(1, "two", 0) and value != made(1, "three")
        assert hash(value) == hash(made(1)) == hash((1, "two", 0))
        assert repr(value) == "_make_class.<locals>.Sample(first=1, second='two', third=0)"
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.first = 2
        assert [field.name for field in dataclasses.fields(made)] == ["first", "second", "third"]
        assert dataclasses.replace(value, third=3).third == 3
        assert made.__init__.__annotations__ == {"first": "int", "second": "str", "third": "int", "return": None}


def test_the_code_of_a_text_is_what_compiling_the_text_gives(fresh_table):
    _make_class()
    for text, code in compiled_methods._code_of.items():
        assert code == compile(text, "<string>", "exec", dont_inherit=True)


def test_another_default_is_another_text_and_its_own_entry(fresh_table):
    assert _make_class(5)(1).third == 5
    before = set(compiled_methods._code_of)
    assert _make_class(6)(1).third == 6  # a default is passed in, so the same texts serve it
    assert set(compiled_methods._code_of) == before
    @dataclasses.dataclass(frozen=True)
    class Other:
        only: int

    assert set(compiled_methods._code_of) > before  # other fields: other texts, compiled anew


def test_the_table_is_written_at_exit_and_read_back_the_same(fresh_table):
    _make_class()
    compiled_methods._write_if_new()
    path = compiled_methods._table_path()
    assert path.parent == fresh_table / compiled_methods.FOLDER_NAME and path.is_file()
    assert path.stat().st_mode & 0o077 == 0  # the owner's only
    kept = compiled_methods._read(path)
    assert kept.keys() == compiled_methods._code_of.keys()
    assert all(compiled_methods._code(kept[text]) == code for text, code in compiled_methods._code_of.items())


def test_an_entry_read_from_the_table_is_turned_into_code_only_when_its_text_is_asked_for(fresh_table):
    _make_class()
    compiled_methods._write_if_new()
    compiled_methods._code_of.clear()
    compiled_methods._code_of.update(compiled_methods._read(compiled_methods._table_path()))
    compiled_methods._compiled_anew = False
    assert all(type(entry) is bytes for entry in compiled_methods._code_of.values())
    made = _make_class()
    assert made(1) == made(1, "two", 0) and hash(made(1)) == hash((1, "two", 0))
    assert not compiled_methods._compiled_anew  # every text found, none compiled


def test_an_entry_whose_bytes_are_not_code_is_compiled_anew(fresh_table):
    Sample = _make_class()
    texts = list(compiled_methods._code_of)
    compiled_methods._code_of.update({text: b"\x00not code" for text in texts})
    compiled_methods._compiled_anew = False
    again = _make_class()
    assert again(1) == again(1, "two", 0) and repr(again(1)) == repr(Sample(1))
    assert compiled_methods._compiled_anew
    assert all(type(entry) is not bytes for entry in compiled_methods._code_of.values())


def test_nothing_is_written_when_nothing_was_compiled_anew(fresh_table):
    compiled_methods._write_if_new()
    assert not (fresh_table / compiled_methods.FOLDER_NAME).exists()


def test_nothing_is_written_without_an_instance_folder(monkeypatch, instance_dir):
    monkeypatch.setattr(compiled_methods, "_code_of", {})
    monkeypatch.setattr(compiled_methods, "_compiled_anew", False)
    _make_class()
    assert compiled_methods._table_path() is None
    compiled_methods._write_if_new()
    assert not instance_dir.exists()


@pytest.mark.parametrize("damage", ["empty", "truncated", "flipped byte", "other magic", "other format", "other -O",
                                    "not a table"])
def test_a_damaged_or_foreign_table_is_ignored(fresh_table, damage):
    _make_class()
    compiled_methods._write_if_new()
    path = compiled_methods._table_path()
    data = path.read_bytes()
    header = len(compiled_methods._header(b""))
    damaged = {
        "empty": b"",
        "truncated": data[: len(data) // 2],
        "flipped byte": data[:-10] + bytes([data[-10] ^ 0x40]) + data[-9:],
        "other magic": bytes([data[0] ^ 1]) + data[1:],
        "other format": data[:4] + bytes([data[4] + 1]) + data[5:],
        "other -O": data[:5] + bytes([data[5] + 1]) + data[6:],
        "not a table": compiled_methods._header(marshal.dumps([1, 2])) + marshal.dumps([1, 2]),
    }[damage]
    assert len(data) > header
    path.write_bytes(damaged)
    assert compiled_methods._read(path) == {}


def test_entries_that_are_not_text_and_bytes_are_left_out(fresh_table):
    payload = marshal.dumps({"def f(): pass": compile("x = 1", "<string>", "exec"), 3: b"bytes"})
    path = fresh_table / "table.marshal"
    path.write_bytes(compiled_methods._header(payload) + payload)
    assert compiled_methods._read(path) == {}


def test_a_check_run_twice_reports_the_same_with_and_without_the_table(tmp_path):
    """The second run makes every class from the table the first one wrote; the report is the same."""
    instance = tmp_path / "instance"
    instance.mkdir()
    environment = {"REFEREE_INSTANCE": str(instance), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "validator.cli", "check", "--format", "json",
               str(CHECKOUT / "examples" / "tito" / "overstacked.xml")]
    first = subprocess.run(command, capture_output=True, text=True, cwd=CHECKOUT, env=environment)
    [table] = (instance / compiled_methods.FOLDER_NAME).iterdir()
    written = table.stat().st_mtime_ns
    second = subprocess.run(command, capture_output=True, text=True, cwd=CHECKOUT, env=environment)
    assert first.returncode == second.returncode == 1
    assert first.stdout == second.stdout and '"legal": false' in first.stdout
    assert table.stat().st_mtime_ns == written  # every text was found: nothing written again


def _written_table(fresh_table) -> Path:
    """The table this process writes, of the texts of a sample class."""
    _make_class()
    compiled_methods._write_if_new()
    path = compiled_methods._table_path()
    assert compiled_methods._read(path).keys() == compiled_methods._code_of.keys() != set()  # read as it is
    return path


def _planted(path: Path) -> str:
    """Put in ``path`` a valid table whose one entry's code would leave a mark if it were run; its text."""
    text = "def __create_fn__(): pass\n"
    payload = marshal.dumps({text: marshal.dumps(compile("PLANTED = True", "<string>", "exec"))})
    path.write_bytes(compiled_methods._header(payload) + payload)
    return text


@pytest.mark.parametrize("mode", [0o620, 0o602, 0o666, 0o622], ids=oct)
def test_a_table_its_group_or_others_may_write_is_ignored(fresh_table, mode):
    path = _written_table(fresh_table)
    text = _planted(path)
    assert text in compiled_methods._read(path)  # the owner's only: read (the file is sound)
    path.chmod(mode)
    assert compiled_methods._read(path) == {}


def test_a_table_only_its_group_or_others_may_read_is_still_read(fresh_table):
    path = _written_table(fresh_table)
    path.chmod(0o644)
    assert compiled_methods._read(path).keys() == compiled_methods._code_of.keys()


def test_a_table_another_user_owns_is_ignored(fresh_table, monkeypatch):
    path = _written_table(fresh_table)
    _planted(path)
    monkeypatch.setattr(compiled_methods.os, "getuid", lambda: path.stat().st_uid + 1)
    assert compiled_methods._read(path) == {}


def test_without_owners_the_table_is_read_whatever_its_mode_says(fresh_table, monkeypatch):
    """Where os.getuid does not exist (Windows) the mode bits do not say who may write: both tests are skipped."""
    path = _written_table(fresh_table)
    path.chmod(0o666)
    monkeypatch.delattr(compiled_methods.os, "getuid")
    assert compiled_methods._read(path).keys() == compiled_methods._code_of.keys()


def test_a_table_that_is_a_symbolic_link_or_has_other_names_is_ignored(fresh_table, tmp_path):
    path = _written_table(fresh_table)
    elsewhere = tmp_path / "elsewhere.marshal"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)
    assert compiled_methods._read(path) == {} and compiled_methods._read(elsewhere) != {}
    path.unlink()
    path.hardlink_to(elsewhere)
    assert compiled_methods._read(path) == {} and compiled_methods._read(elsewhere) == {}


def test_a_planted_table_is_not_run_and_is_written_anew(fresh_table, monkeypatch):
    """A table another could have written: its entries are never run, and the process's own table replaces it."""
    path = _written_table(fresh_table)
    path.chmod(0o600)
    text = _planted(path)
    path.chmod(0o666)
    monkeypatch.setattr(compiled_methods, "_code_of", compiled_methods._read(path))
    monkeypatch.setattr(compiled_methods, "_compiled_anew", False)
    namespace: dict = {}
    compiled_methods._exec(text, namespace)  # the text compiled, not the planted code run
    assert "PLANTED" not in namespace and callable(namespace["__create_fn__"])
    compiled_methods._write_if_new()
    assert path.stat().st_mode & 0o077 == 0 and text in compiled_methods._read(path)
    assert compiled_methods._code(compiled_methods._read(path)[text]) == compile(text, "<string>", "exec",
                                                                                   dont_inherit=True)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_in_the_tables_place_is_ignored_without_waiting(fresh_table):
    path = _written_table(fresh_table)
    path.unlink()
    os.mkfifo(path, 0o600)
    assert compiled_methods._read(path) == {}  # opened without waiting for a writer, then refused: not a file


DATACLASSES_FIRST = """
import sys
from validator import compiled_methods
compiled_methods.install()
import dataclasses
print(sorted(name for name in compiled_methods.SELDOM_USED_BY_DATACLASSES if name in sys.modules))

@dataclasses.dataclass
class Undocumented:
    items: list

print(Undocumented.__doc__, dataclasses.asdict(Undocumented([[1], {"a": (2,)}])))
print(dataclasses.copy is sys.modules["copy"], dataclasses.inspect is sys.modules["inspect"])
"""


def test_dataclasses_installed_first_imports_what_it_seldom_uses_only_when_it_uses_it():
    """Before any use neither module is imported; a class without a docstring and asdict work as before, and
    then dataclasses holds the real modules."""
    completed = subprocess.run([sys.executable, "-c", DATACLASSES_FIRST], capture_output=True, text=True,
                               cwd=CHECKOUT, check=True)
    assert completed.stdout.splitlines() == [
        "[]", "Undocumented(items: list) {'items': [[1], {'a': (2,)}]}", "True True"]


def test_a_plain_check_imports_no_copy_module(tmp_path):
    listing = tmp_path / "modules.txt"
    script = ("import sys\nfrom validator.cli import main\ntry:\n    main(sys.argv[2:])\nfinally:\n"
              "    open(sys.argv[1], 'w').write(' '.join(sys.modules))")
    subprocess.run([sys.executable, "-c", script, str(listing), "check",
                    str(CHECKOUT / "examples" / "tito" / "overstacked.xml")], capture_output=True, cwd=CHECKOUT)
    modules = listing.read_text().split()
    assert "dataclasses" in modules and "copy" not in modules

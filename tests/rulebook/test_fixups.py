"""Fixups on a damaged text of our own."""

import pytest

from validator.cases import CaseNumber
from validator.rulebook import fixups
from validator.rulebook.fixups import FixupError, fingerprint
from validator.rulebook.importer import RulebookFile, RulebookImportError, import_texts

DAMAGED = """\
9. PONDS
with lily pads on every side.
9.1 Ponds
Every pond is drawn 9.1.1 Large ponds hold three frogs and are
41
ringed by reeds. 9.1.2 Small p onds h old one.
"""
LINES = DAMAGED.split("\n")


def write(tmp_path, body):
    path = tmp_path / "fixups.toml"
    path.write_text(body, encoding="utf-8")
    return path


def good_fixups(tmp_path):
    columns = [LINES[5].index("p onds") + 2, LINES[5].index("h old") + 2]
    return write(tmp_path, f"""
[[fixup]]
operation = "delete-characters"
line = 6
fingerprint = "{fingerprint(LINES[5])}"
columns = {columns}
reason = "broken words"

[[fixup]]
operation = "join"
line = 2
fingerprint = "{fingerprint(LINES[1])}"
to_line = 4
to_fingerprint = "{fingerprint(LINES[3])}"
reason = "misplaced fragment"

[[fixup]]
operation = "delete"
line = 5
fingerprint = "{fingerprint(LINES[4])}"
reason = "page number"

[[fixup]]
operation = "flag"
line = 6
fingerprint = "{fingerprint(LINES[5])}"
case = "9.1.2"
note = "Our note on a damaged case."
reason = "flagged"
""")


def test_repairs_apply(tmp_path):
    book = import_texts("pond", [RulebookFile("pond.txt", DAMAGED)], fixups.load(good_fixups(tmp_path)))
    large = book.cases[CaseNumber.parse("9.1.1")]
    small = book.cases[CaseNumber.parse("9.1.2")]
    assert large.blocks[0].text == "Large ponds hold three frogs and are with lily pads on every side."
    assert [block.text for block in small.blocks] == ["Small ponds hold one."]
    assert small.notes == ["Our note on a damaged case."]
    assert not book.unplaced
    assert len(book.repairs) == 4


def test_without_fixups_the_damage_is_visible(tmp_path):
    book = import_texts("pond", [RulebookFile("pond.txt", DAMAGED)])
    assert [unplaced.text for unplaced in book.unplaced] == ["41"]


def test_a_different_text_is_refused_whole(tmp_path):
    changed = DAMAGED.replace("ringed by reeds", "circled by reeds")
    with pytest.raises(RulebookImportError, match="does not match pond.txt"):
        import_texts("pond", [RulebookFile("pond.txt", changed)], fixups.load(good_fixups(tmp_path)))


def test_column_that_is_not_a_space(tmp_path):
    path = write(tmp_path, f"""
[[fixup]]
operation = "delete-characters"
line = 6
fingerprint = "{fingerprint(LINES[5])}"
columns = [1]
reason = "wrong column"
""")
    with pytest.raises(RulebookImportError, match="expects a space at column 1"):
        import_texts("pond", [RulebookFile("pond.txt", DAMAGED)], fixups.load(path))


@pytest.mark.parametrize(
    "body, message",
    [
        ("not toml = = 1", "not valid TOML"),
        ("title = 'no fixups'", r"no \[\[fixup\]\] entries"),
        ("[[fixup]]\noperation = 'explode'\nline = 1\nfingerprint = 'x'\nreason = 'r'", "operation must be one of"),
        ("[[fixup]]\noperation = 'delete'\nline = 1\nreason = 'r'", "'fingerprint' is missing"),
        ("[[fixup]]\noperation = 'join'\nline = 1\nfingerprint = 'x'\nreason = 'r'", "needs 'to_line'"),
        (
            "[[fixup]]\noperation = 'flag'\nline = 1\nfingerprint = 'x'\nreason = 'r'\ncase = 'x'\nnote = 'n'",
            "not a case number",
        ),
    ],
)
def test_malformed_fixups_files(tmp_path, body, message):
    with pytest.raises(FixupError, match=message):
        fixups.load(write(tmp_path, body))


def test_missing_fixups_file(tmp_path):
    with pytest.raises(FixupError, match="does not exist"):
        fixups.load(tmp_path / "nothing.toml")

"""What a report says besides its results: plurals, what the verdict covers, pieces by name."""

from __future__ import annotations

import json
from dataclasses import replace

from validator import games, runner
from validator.rules import Violation
from validator.saves.xml_reader import read_position_file

from .conftest import FROG, position_xml

PIECE = '    <piece id="{id}" name="{name}" side="{side}" type="{type}" location="{at}"/>'


def report_of(write_save, *lines):
    return runner.check(read_position_file(write_save(position_xml("\n".join(lines)))))


def test_the_summary_line_counts_in_words(pond, write_save):
    one = report_of(write_save, *(FROG.format(id=f"f{index}", at="north/pad") for index in range(1, 4)))
    assert one.to_text().splitlines()[-1].endswith(": 1 violation, 1 finding.")
    legal = report_of(write_save, FROG.format(id="f1", at="south/pad"))
    assert legal.to_text().splitlines()[-1].endswith(": legal, 1 finding.")


def test_every_report_says_how_many_cases_its_checks_cover(pond, write_save):
    report = report_of(write_save, FROG.format(id="f1", at="south/pad"))
    # The pond's index holds 2, 2.1 and 2.2; its checks sit at 2.1 and 2.2.
    assert report.to_text().splitlines()[-2] == (
        "Checked against 2 of the 3 sections and cases of the pond case index; run referee rules coverage pond to see "
        "which."
    )
    data = report.to_json(base_url="https://club.example")
    assert data["coverage"] == {
        "checked_cases": 2,
        "move_cases": 0,
        "unchecked_cases": 0,
        "index_cases": 3,
        "url": "https://club.example/pond/coverage",
    }
    assert report.to_json()["coverage"]["url"] == "/pond/coverage"


def test_pieces_are_listed_by_name_with_the_id_only_where_two_would_look_alike(pond, write_save):
    report = report_of(
        write_save,
        PIECE.format(id="f1", name="Green frog", side="frogs", type="frog", at="north/pad"),
        PIECE.format(id="f2", name="Green frog", side="frogs", type="frog", at="north/pad"),
        PIECE.format(id="f3", name="Tree frog", side="frogs", type="frog", at="north/pad"),
        PIECE.format(id="h1", name="Grey heron", side="herons", type="heron", at="north/pad"),
        PIECE.format(id="h2", name="Grey heron", side="herons", type="heron", at="south/pad"),
    )
    crowded, heron = report.violations
    assert crowded.pieces == ("f1", "f2", "f3")
    assert report.piece_names(crowded) == ["Green frog (f1)", "Green frog (f2)", "Tree frog"]
    # The other grey heron stands elsewhere, so the name alone says which one is meant.
    assert report.piece_names(heron) == ["Grey heron"]
    lines = report.to_text().splitlines()
    assert lines[1] == "    pieces: Green frog (f1), Green frog (f2), Tree frog"
    data = report.to_json()
    first = data["violations"][0]
    assert first["pieces"] == ["f1", "f2", "f3"]
    assert first["piece_names"] == ["Green frog (f1)", "Green frog (f2)", "Tree frog"]
    json.dumps(data)


def test_a_piece_without_a_name_or_sharing_a_place_with_its_namesake_is_told_apart(pond, write_save):
    report = report_of(
        write_save,
        PIECE.format(id="h1", name="Grey heron", side="herons", type="heron", at="north/pad"),
        PIECE.format(id="h2", name="Grey heron", side="herons", type="heron", at="north/pad"),
        PIECE.format(id="f9", name="", side="frogs", type="frog", at="north/pad"),
    )
    shown = [report.piece_names(violation) for violation in report.violations]
    assert shown == [["Grey heron (h1)"], ["Grey heron (h2)"]]
    assert report.position.piece("f9").name == ""
    assert report.piece_names(Violation("a nameless frog", pieces=["f9", "gone"])) == ["f9", "gone"]


def test_a_game_whose_index_cannot_be_read_says_so_in_its_reports(pond, write_save, monkeypatch, tmp_path):
    monkeypatch.setitem(games.registry(), "pond", replace(pond, folder=tmp_path / "missing"))
    report = report_of(write_save, FROG.format(id="f1", at="south/pad"))
    assert report.to_json()["coverage"] is None
    assert (
        report.to_text()
        .splitlines()[-2]
        .startswith("Referee cannot say how many cases its checks cover: the pond case index could not be read")
    )

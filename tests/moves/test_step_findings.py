"""A move blamed only for what it brings keeps the findings it brings too: an undecided position is no fine one."""

from __future__ import annotations

from pathlib import Path

from validator import intake, runner
from validator.games import get
from validator.model import Position
from validator.moves.diff import difference
from validator.moves.verdicts import judge_move

from tests.moves.saves import tito_save

CETINJE, PODGORICA = "montenegro/cetinje/axis", "montenegro/podgorica/axis"


def italian(index: int, location: str) -> str:
    return (f'id="it-{index}" name="Italian division {index}" nationality="italian" size="division" strength="6" '
            f'location="{location}"')


def without_phase(path: Path, pieces: list[str]) -> Position:
    """A save that gives no phase, so a stacking limit that depends on it cannot be decided (6.21 unchecked)."""
    saved = tito_save(path, pieces, phase="")
    saved.write_text(saved.read_text().replace(' phase=""', ""))
    return intake.read_submission(intake.Submission(saved.read_bytes(), saved.name)).position


def cases(results) -> list[tuple[str, str]]:
    return [(str(result.case), result.severity) for result in results]


def test_a_step_brings_the_unchecked_finding_of_the_position_after(tmp_path):
    game = get("tito")
    before = without_phase(tmp_path / "1.xml", [italian(index, CETINJE if index < 7 else PODGORICA)
                                                for index in range(9)])
    after = without_phase(tmp_path / "2.xml", [italian(index, CETINJE) for index in range(9)])
    alone = cases(runner.check(after, game).results)
    assert ("6.21", "unchecked") in alone
    step = judge_move(difference(before, after), game, standing=list(runner.iter_results(before, game)), index=2)
    assert ("6.21", "unchecked") in cases(step.report.results) and step.speaks


def test_a_standing_finding_is_not_said_again_by_a_step_that_does_not_change_it(tmp_path):
    game = get("tito")
    pieces = [italian(index, CETINJE) for index in range(9)]
    before = without_phase(tmp_path / "1.xml", pieces)
    after = without_phase(tmp_path / "2.xml", [*pieces, italian(9, PODGORICA)])
    standing = list(runner.iter_results(before, game))
    assert ("6.21", "unchecked") in cases(standing)
    step = judge_move(difference(before, after), game, standing=standing, index=2)
    assert ("6.21", "unchecked") not in cases(step.report.results)

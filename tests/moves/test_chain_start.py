"""The first save of a chain is checked as a position: its violations make the chain illegal, reported once as the
start's, and house rules rate them as they rate a link's."""

from __future__ import annotations

import json
from pathlib import Path

from tests.house_rules.test_house_rules_cli import house_rules_file, rule
from tests.moves.saves import tito_save

CETINJE, KOTOR = "montenegro/cetinje/axis", "montenegro/kotor/axis"


def italians(count: int, location: str) -> list[str]:
    return [f'id="it-{index}" name="Italian division {index}" nationality="italian" size="division" strength="6" '
            f'location="{location}"' for index in range(count)]


def overstacked_then_fixed(folder: Path) -> list[Path]:
    """Nine divisions in the Cetinje box (6.21), then two of them gone to Kotor."""
    return [tito_save(folder / "1.xml", italians(9, CETINJE), turn=3, phase="axis-combat"),
            tito_save(folder / "2.xml", [*italians(7, CETINJE), *italians(9, KOTOR)[7:]], turn=3,
                      phase="axis-combat")]


def test_a_chain_whose_first_save_is_illegal_is_illegal(run_cli, tmp_path):
    saves = overstacked_then_fixed(tmp_path)
    code, out, _ = run_cli("check", *saves, "--format", "json")
    chain = json.loads(out)
    assert code == 1 and chain["legal"] is False and chain["start"]["legal"] is False
    assert [violation["case"] for violation in chain["start"]["violations"]] == ["6.21"]
    assert [link["legal"] for link in chain["links"]] == [True]
    code, out, _ = run_cli("check", *saves)
    assert code == 1
    assert f"start: the first save ({saves[0]}) has 1 violation" in out
    assert out.strip().endswith("2 saves in a chain: the first save is illegal.")


def test_house_rules_rate_the_first_save_of_a_chain(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("warning"))
    code, out, _ = run_cli("check", *overstacked_then_fixed(tmp_path), "--house-rules", rules, "--format", "json")
    chain = json.loads(out)
    assert code == 0 and chain["legal"] is True and chain["start"]["violations"] == []
    (warned,) = [finding for finding in chain["start"]["findings"] if finding["case"] == "6.21"]
    assert warned["severity"] == "warning" and warned["house_rule"] is not None


def test_a_link_is_blamed_only_for_the_violations_it_brings(run_cli, tmp_path):
    """The standing overstack is the first save's; a link moving another unit is legal; one making it worse is not."""
    partisan = ('id="p1" name="Partisan group" nationality="partisan" size="group" strength="1" '
                'location="{}"')
    stack = italians(9, CETINJE)
    saves = [tito_save(tmp_path / "1.xml", [*stack, partisan.format("bosnia/mountain/partisan")], turn=3,
                       phase="axis-combat"),
             tito_save(tmp_path / "2.xml", [*stack, partisan.format("bosnia/hide-away/partisan")], turn=3,
                       phase="axis-combat"),
             tito_save(tmp_path / "3.xml", [*stack, italians(10, CETINJE)[9],
                                            partisan.format("bosnia/hide-away/partisan")], turn=3,
                       phase="axis-combat")]
    code, out, _ = run_cli("check", *saves, "--format", "json")
    chain = json.loads(out)
    assert code == 1 and [violation["case"] for violation in chain["start"]["violations"]] == ["6.21"]
    first_link, second_link = chain["links"]
    assert first_link["legal"] and first_link["violations"] == []
    assert not second_link["legal"] and [violation["case"] for violation in second_link["violations"]] == ["6.21"]

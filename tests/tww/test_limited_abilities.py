"""15.3: limited units act only in the impulses and phases their side allows."""

from __future__ import annotations

import pytest

from .conftest import by_case, unit

KUWAITI = unit("kw-1", "nato", "kuwait", "h0401")
IRAQI = unit("iq-1", "pact", "iraq", "h0602", "armour")


@pytest.mark.parametrize("impulse, legal", [("first", True), ("second", False), ("reserve", False)])
def test_nato_limited_units_move_only_in_the_first_impulse(check_save, impulse, legal):
    report = check_save(pieces=[KUWAITI], facts=[("impulse", impulse)], events=['kind="move" pieces="kw-1"'])
    assert report.legal is legal
    if not legal:
        (violation,) = report.violations
        assert str(violation.case) == "15.3.1" and violation.pieces == ("kw-1",)
        assert f"NATO {impulse} impulse" in violation.message


@pytest.mark.parametrize(
    "impulse, sub_impulse, phase, legal",
    [
        ("first", "first-echelon", "movement", True),
        ("first", "first-echelon", "combat", True),
        ("first", "second-echelon", "movement", False),
        ("first", "second-echelon", "combat", False),
        ("first", "second-echelon", "regroup", True),  # the regroup phase of the first impulse is theirs
        ("second", "first-echelon", "movement", False),
        ("second", "first-echelon", "regroup", False),
    ],
)
def test_pact_limited_units(check_save, impulse, sub_impulse, phase, legal):
    kind = {"movement": "move", "combat": "attack", "regroup": "regroup"}[phase]
    target = ' hex="h0402"' if kind == "attack" else ""
    report = check_save(
        pieces=[IRAQI, unit("tr-1", "nato", "turkey", "h0402")],
        facts=[("impulse", impulse), ("sub-impulse", sub_impulse)],
        events=[f'kind="{kind}" pieces="iq-1"{target}'], phase=phase, phasing="pact",
    )
    assert report.legal is legal
    assert all(str(violation.case) == "15.3.2" for violation in report.violations)


def test_a_limited_marking_counts_even_for_a_nation_not_listed(check_save):
    marked = unit("x-1", "nato", "greece", "h0302", limited="yes")
    report = check_save(pieces=[marked], facts=[("impulse", "second")], events=['kind="move" pieces="x-1"'])
    assert [v.pieces for v in report.violations] == [("x-1",)]


def test_the_previous_location_tells_who_moved(check_save):
    moved = unit("kw-1", "nato", "kuwait", "h0401", previous_location="h0402")
    report = check_save(pieces=[moved], facts=[("impulse", "second")])
    assert [v.pieces for v in by_case(report, "15.3")] == [("kw-1",)]


def test_a_records_fact_says_no_event_means_no_action(check_save):
    report = check_save(pieces=[KUWAITI], facts=[("impulse", "second"), ("records", "move")])
    assert report.legal and not by_case(report, "15.3", "finding")


def test_without_events_or_previous_locations_it_is_unchecked(check_save):
    report = check_save(pieces=[KUWAITI], facts=[("impulse", "second")])
    assert report.legal
    (finding,) = by_case(report, "15.3", "finding")
    assert (
        finding.severity == "unchecked" and "move events" in finding.message and "previous-location" in finding.message
    )


def test_without_the_impulse_it_is_unchecked(check_save):
    report = check_save(pieces=[KUWAITI], events=['kind="move" pieces="kw-1"'])
    (finding,) = by_case(report, "15.3", "finding")
    assert finding.severity == "unchecked" and "fact impulse" in finding.message


def test_without_the_sub_impulse_the_pact_case_is_unchecked(check_save):
    report = check_save(
        pieces=[IRAQI], facts=[("impulse", "first")], events=['kind="move" pieces="iq-1"'], phasing="pact"
    )
    (finding,) = by_case(report, "15.3", "finding")
    assert "sub-impulse" in finding.message


def test_the_other_side_and_other_phases_are_left_alone(check_save):
    assert check_save(
        pieces=[KUWAITI], facts=[("impulse", "second")], events=['kind="move" pieces="kw-1"'], phasing="pact"
    ).legal
    assert check_save(pieces=[KUWAITI], facts=[("impulse", "second")], phase="air").legal

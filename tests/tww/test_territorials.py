"""15.1: territorials stay home and arrive in their own cities."""

from __future__ import annotations

from .conftest import by_case, unit

NATO_FIRST = [("impulse", "first")]


def test_a_territorial_retreated_abroad_still_breaks_15_1_3(check_save):
    report = check_save(pieces=[unit("wg-t", "nato", "west-germany", "h0102", territorial="yes")],
                        events=['kind="forced-retreat" pieces="wg-t"'], facts=NATO_FIRST, phase="combat")
    (violation,) = by_case(report, "15.1.3")
    assert violation.location == "h0102" and "West Germany" in violation.message and "Netherlands" in violation.message


def test_units_without_the_t_marking_may_go_abroad(check_save):
    assert check_save(pieces=[unit("wg-1", "nato", "west-germany", "h0102")], facts=NATO_FIRST).legal


def test_an_arrival_outside_a_city_and_abroad_says_both(check_save):
    report = check_save(pieces=[unit("nl-t", "nato", "netherlands", "h0002", territorial="yes")],
                        events=['kind="arrive" pieces="nl-t"'], facts=NATO_FIRST)
    (violation,) = by_case(report, "15.1.2")
    assert "in West Germany, not Netherlands and not in a city" in violation.message
    assert violation.facts == {"home": "netherlands", "hex_nation": "west-germany", "city": False}


def test_only_arrivals_must_stand_in_cities(check_save):
    assert check_save(pieces=[unit("wg-t", "nato", "west-germany", "h0002", territorial="yes")], facts=NATO_FIRST).legal

"""15.2 messages count in words: one closed hex is "1 non-clear hex", and the verb agrees with the count."""

from __future__ import annotations

from .conftest import by_case, save_text, unit

KURDS_AGAINST_NATO_IN_IRAQ = [("kurdish-partisans", "nato"), ("kurdish-partisans-in", "iraq")]


def test_one_closed_hex_and_one_reopened_hex_read_in_the_singular(check_save):
    report = check_save(facts=KURDS_AGAINST_NATO_IN_IRAQ, pieces=[unit("t", "nato", "turkey", "h0605")])
    (kurdish,) = [result for result in by_case(report, "15.2.3", "finding")]
    assert kurdish.facts["closed"] == ["h0604"] and kurdish.facts["reopened"] == ["h0605"]
    assert "NATO may not trace communications through 1 non-clear hex (h0604)" in kurdish.message
    assert "1 more is open through friendly units or zones of control (h0605)" in kurdish.message


def test_the_units_marked_in_communication_are_counted_with_their_verb(check_save):
    one = check_save(pieces=[unit("gr-1", "nato", "greece", "h0302", communication="yes")])
    two = check_save(pieces=[unit("gr-1", "nato", "greece", "h0302", communication="yes"),
                             unit("gr-2", "nato", "greece", "h0303", communication="yes")])
    (first,) = [result for result in one.findings if result.pieces == ("gr-1",)]
    (second,) = [result for result in two.findings if result.pieces == ("gr-1", "gr-2")]
    assert first.message.startswith("1 NATO unit is marked in communication, but the save names no NATO supply source")
    assert second.message.startswith("2 NATO units are marked in communication")


def test_two_supply_sources_off_the_map_are_named_in_the_plural(write_save, run_cli):
    path = write_save(save_text(facts=[("supply-source:pact", "h9998 h9999")]))
    code, _out, err = run_cli("check", path, "--game", "tww")
    assert code == 2
    assert "the map has no hexes 'h9998', 'h9999'" in err

"""15.2: the closed-hex map per side, and units cut off from their supply sources."""

from __future__ import annotations

from validator.saves.xml_reader import read_position_file

from plugin.tww.partisans import partisan_map

from .conftest import by_case, save_text, unit

PACT_SOURCE = ("supply-source:pact", "h1200")
NATO_SOURCE = ("supply-source:nato", "h0000")


def derived(write_save, **parts):
    return partisan_map(read_position_file(write_save(save_text(**parts))))


def test_afghanistan_closes_every_non_clear_hex_to_the_pact_only(write_save):
    sides = derived(write_save).sides
    assert "h0803" in sides["pact"].blocked  # urban (Kabul)
    assert "h0804" in sides["pact"].blocked  # wilderness
    assert "h0905" not in sides["pact"].blocked  # the one clear Afghan hex
    assert not sides["nato"].blocked


def test_finland_closes_wilderness_from_the_turn_after_entry(write_save):
    finnish = {f"h11{row:02d}" for row in range(6)}
    assert not finnish & derived(write_save, facts=[("war-entry:finland", "4")], turn="4").sides["pact"].blocked
    assert finnish <= derived(write_save, facts=[("war-entry:finland", "4")], turn="5").sides["pact"].blocked


def test_yugoslavia_closes_mountains_and_passes_but_not_other_terrain(write_save):
    sides = derived(write_save, facts=[("war-entry:yugoslavia", "1")], turn="2").sides
    assert {"h0200", "h0201", "h0204"} <= sides["pact"].blocked  # mountain, pass, pass
    assert sides["pact"].by_case["15.2.4"] == frozenset(f"h02{row:02d}" for row in range(6))
    # Yugoslav partisans leave non-mountain terrain open, and Finnish ones close only wilderness.
    assert "h0305" not in sides["pact"].blocked  # Greek rough, not Yugoslav
    assert not sides["nato"].blocked


def test_kurdish_partisans_follow_the_saved_alignment_and_parts(write_save):
    against_pact = derived(write_save, facts=[("kurdish-partisans", "pact")]).sides
    assert {"h0404", "h0705"} <= against_pact["pact"].blocked and not against_pact["nato"].blocked
    only_iraq = derived(write_save, facts=[("kurdish-partisans", "nato"), ("kurdish-partisans-in", "iraq")]).sides
    assert only_iraq["nato"].blocked == {"h0604", "h0605"}
    assert not derived(write_save, facts=[("kurdish-partisans", "none")]).sides["nato"].blocked


def test_a_friendly_unit_opens_its_hex_and_its_zone_of_control(write_save):
    facts = [("kurdish-partisans", "nato")]
    plain = derived(write_save, facts=facts, pieces=[unit("t", "nato", "turkey", "h0605")]).sides["nato"]
    assert plain.lifted == {"h0605"}
    zoc = derived(write_save, facts=facts, pieces=[unit("t", "nato", "turkey", "h0605", zoc="yes")]).sides["nato"]
    assert zoc.lifted == {"h0605", "h0504", "h0505", "h0604", "h0704", "h0705"}
    enemy = derived(write_save, facts=facts, pieces=[unit("s", "pact", "syria", "h0605", zoc="yes")]).sides["nato"]
    assert not enemy.lifted


def test_the_derived_map_is_reported_per_country_and_side(check_save):
    report = check_save(facts=[("war-entry:finland", "2"), ("kurdish-partisans", "none")], turn="3")
    findings = {str(result.case): result for result in by_case(report, "15.2", "finding")}
    assert findings["15.2.2"].facts["closed"] == [f"h11{row:02d}" for row in range(6)]
    assert "Pact may not trace communications through 6 wilderness hexes" in findings["15.2.2"].message
    assert findings["15.2.3"].facts == {"active": False}
    assert findings["15.2.4"].facts == {"active": False}


def test_a_cut_off_unit_names_the_hexes_that_close_it_in(check_save):
    report = check_save(
        pieces=[unit("su-3", "pact", "soviet-union", "h0103", communication="yes")],
        facts=[("war-entry:yugoslavia", "1"), PACT_SOURCE], turn="2", phasing="pact",
    )
    (violation,) = report.violations
    assert str(violation.case) == "15.2.4" and violation.location == "h0103" and violation.pieces == ("su-3",)
    assert violation.facts["blocking"] == [f"h02{row:02d}" for row in range(6)]
    assert violation.facts["pocket_size"] == 12
    assert "(h0200, h0201, h0202, h0203, h0204, h0205)" in violation.message


def test_several_countries_closing_a_pocket_keep_the_general_case(check_save):
    report = check_save(
        pieces=[unit("su-1", "pact", "soviet-union", "h1003", communication="yes")],
        facts=[("war-entry:finland", "3"), PACT_SOURCE], turn="4", phasing="pact",
    )
    (violation,) = report.violations
    assert str(violation.case) == "15.2"
    assert {"h1100", "h0900"} <= set(violation.facts["blocking"])


def test_units_not_marked_in_communication_are_not_traced(check_save):
    report = check_save(
        pieces=[unit("su-3", "pact", "soviet-union", "h0103")],
        facts=[("war-entry:yugoslavia", "1"), PACT_SOURCE], turn="2",
    )
    assert report.legal


def test_without_a_supply_source_the_check_says_what_is_missing(check_save):
    report = check_save(pieces=[unit("su-1", "pact", "soviet-union", "h1003", communication="yes")])
    (finding,) = [r for r in report.findings if r.severity == "unchecked" and r.pieces]
    assert "supply-source:pact" in finding.message and report.legal


def test_an_unknown_kurdish_alignment_is_unchecked_not_guessed(check_save):
    pieces = [unit("tr-1", "nato", "turkey", "h0605", communication="yes")]
    report = check_save(pieces=pieces, facts=[NATO_SOURCE])
    assert report.legal
    (finding,) = [r for r in report.findings if r.pieces == ("tr-1",)]
    assert finding.severity == "unchecked" and "kurdish-partisans" in finding.message
    decided = check_save(pieces=pieces, facts=[NATO_SOURCE, ("kurdish-partisans", "pact")])
    assert decided.legal and not [r for r in decided.findings if r.pieces == ("tr-1",)]


def test_no_path_at_all_is_left_to_rule_8(write_save, tmp_path):
    island = save_text(
        pieces=[unit("n-1", "nato", "west-germany", "a2", communication="yes")],
        facts=[("supply-source:nato", "a1")],
        map_part=(
            '<map grid="hex" layout="odd-q"><area id="west-germany"/>'
            '<hex id="a1" column="0" row="0" area="west-germany" terrain="clear"/>'
            '<hex id="a2" column="5" row="5" area="west-germany" terrain="clear"/></map>'
        ),
    )
    from validator import runner

    report = runner.check(read_position_file(write_save(island)))
    assert report.legal
    (warning,) = [r for r in report.findings if r.severity == "warning"]
    assert "rule 8" in warning.message and warning.pieces == ("n-1",)


def test_one_derivation_serves_the_checks_of_a_position(write_save):
    position = read_position_file(write_save(save_text()))
    assert partisan_map(position) is partisan_map(position)

"""15.4: the rivalry table and what rivals may not do."""

from __future__ import annotations

from validator.saves.xml_reader import read_position_file

from plugin.tww import rivals

from .conftest import by_case, save_text, unit

NATO_FIRST = [("impulse", "first")]


def test_the_table_holds_the_texts_pairs_and_says_it_is_cut_off():
    table = rivals.rulebook_table()
    assert table.complete is False
    assert table.are_rivals("greece", "turkey") and table.are_rivals("turkey", "greece")
    assert table.are_rivals("iraq", "syria") and table.are_rivals("iraq", "iran")
    assert table.rivals_of("israel") == {
        "iraq", "jordan", "kuwait", "oman", "qatar", "saudi-arabia", "syria", "united-arab-emirates",
    }
    assert table.source("israel", "united-arab-emirates") == rivals.COMPLETED
    assert table.source("israel", "jordan") == rivals.RULEBOOK
    assert not table.are_rivals("syria", "jordan") and not table.are_rivals("greece", "greece")


def test_a_save_adds_pairs_the_text_lost(write_save):
    position = read_position_file(write_save(save_text(facts=[("rivals", "syria jordan")])))
    table = rivals.table_for(position)
    assert table.are_rivals("jordan", "syria") and table.source("syria", "jordan") == rivals.SAVE


def test_a_setting_file_adds_pairs(write_save, tmp_path, monkeypatch, check_save):
    extra = tmp_path / "more-rivals.toml"
    extra.write_text('[[rivalry]]\nnation = "west-germany"\nrivals = ["netherlands"]\n', encoding="utf-8")
    monkeypatch.setenv(rivals.SETTING_VARIABLE, str(extra))
    report = check_save(pieces=[unit("a", "nato", "west-germany", "h0001"), unit("b", "nato", "netherlands", "h0001")],
                        facts=NATO_FIRST)
    (violation,) = by_case(report, "15.4.1.1")
    assert violation.facts["rivalry_source"] == rivals.SETTING and violation.facts["rivalry_list_complete"] is False


def test_a_broken_setting_file_is_unusable_input(write_save, tmp_path, monkeypatch, run_cli):
    extra = tmp_path / "broken.toml"
    extra.write_text('[[rivalry]]\nnation = "greece"\nrivals = "turkey"\n', encoding="utf-8")
    monkeypatch.setenv(rivals.SETTING_VARIABLE, str(extra))
    code, _, err = run_cli("check", write_save(save_text()))
    assert code == 2 and "broken.toml" in err and "rivals" in err


def test_rivals_stacked_names_both_nations_and_the_units(check_save):
    report = check_save(
        pieces=[unit("gr-1", "nato", "greece", "h0302"), unit("tr-1", "nato", "turkey", "h0302", forced_retreat="yes")],
        facts=NATO_FIRST,
    )
    (violation,) = by_case(report, "15.4.1.1")
    assert violation.location == "h0302" and set(violation.pieces) == {"gr-1", "tr-1"}
    assert violation.message.startswith("Greece and Turkey are rivals")


def test_rivals_on_opposite_sides_or_neutral_are_not_bound(check_save):
    assert check_save(pieces=[unit("gr-1", "nato", "greece", "h0302"), unit("tr-1", "pact", "turkey", "h0302")]).legal
    assert check_save(pieces=[unit("gr-1", "neutral", "greece", "h0401")]).legal


def test_a_rival_nations_side_may_come_from_the_save(check_save):
    piece = unit("il-1", "nato", "israel", "h0501")
    assert check_save(pieces=[piece], facts=NATO_FIRST).legal  # Syria is Pact on the map
    report = check_save(pieces=[piece], facts=NATO_FIRST + [("side:syria", "nato")])
    assert [str(v.case) for v in report.violations] == ["15.4.1.2"]


def test_an_unknown_side_for_the_rival_nation_is_unchecked(write_save):
    from validator import runner

    text = save_text(
        pieces=[unit("il-1", "nato", "israel", "j1")],
        map_part='<map><area id="jordan" name="Jordan"/><hex id="j1" area="jordan" terrain="desert"/></map>',
    )
    report = runner.check(read_position_file(write_save(text)))
    assert report.legal
    (finding,) = by_case(report, "15.4.1.2", "finding")
    assert finding.severity == "unchecked" and "side:jordan" in finding.message


def test_air_units_are_not_bound_by_rivalry(check_save):
    assert check_save(pieces=[unit("gr-air", "nato", "greece", "h0401", "air")], facts=NATO_FIRST).legal


def test_an_attack_names_the_rival_attackers_and_the_target(check_save):
    report = check_save(
        pieces=[
            unit("iq-1", "pact", "iraq", "h0602"),
            unit("sy-1", "pact", "syria", "h0502"),
            unit("su-1", "pact", "soviet-union", "h0503"),
        ],
        facts=[("impulse", "first"), ("sub-impulse", "first-echelon")],
        events=['kind="attack" pieces="iq-1 sy-1 su-1" hex="h0402"'],
        phase="combat",
        phasing="pact",
    )
    (violation,) = report.violations
    assert violation.location == "h0402" and set(violation.pieces) == {"iq-1", "sy-1"}


def test_a_combat_phase_without_attacks_listed_is_unchecked_when_rivals_are_present(check_save):
    pieces = [unit("iq-1", "pact", "iraq", "h0602"), unit("sy-1", "pact", "syria", "h0502")]
    facts = [("impulse", "first"), ("sub-impulse", "first-echelon")]
    report = check_save(pieces=pieces, facts=facts, phase="combat", phasing="pact")
    assert [f.severity for f in by_case(report, "15.4.1.3", "finding")] == ["unchecked"]
    recorded = check_save(pieces=pieces, facts=facts + [("records", "attack")], phase="combat", phasing="pact")
    assert not by_case(recorded, "15.4.1.3", "finding")


def test_regrouping_from_rival_territory_by_previous_location(check_save):
    report = check_save(
        pieces=[unit("gr-1", "nato", "greece", "h0303", previous_location="h0401")], facts=NATO_FIRST, phase="regroup"
    )
    assert [str(v.case) for v in report.violations] == ["15.4.1.4"]
    assert report.violations[0].location == "h0401"


def test_a_regroup_without_a_start_is_unchecked(check_save):
    report = check_save(
        pieces=[unit("gr-1", "nato", "greece", "h0303")],
        facts=NATO_FIRST,
        events=['kind="regroup" pieces="gr-1"'],
        phase="regroup",
    )
    assert report.legal
    (finding,) = by_case(report, "15.4.1.4", "finding")
    assert "previous-location" in finding.message


def test_a_regroup_phase_with_nothing_recorded_flags_units_in_rival_territory(check_save):
    report = check_save(
        pieces=[unit("gr-1", "nato", "greece", "h0401", forced_retreat="yes")], facts=NATO_FIRST, phase="regroup"
    )
    (finding,) = by_case(report, "15.4.1.4", "finding")
    assert finding.pieces == ("gr-1",) and finding.severity == "unchecked"

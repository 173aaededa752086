"""Saves and maps the tww rules cannot use exit 2 with the file, the line and what is wrong."""

from __future__ import annotations

import pytest

from .conftest import MAP, save_text, unit

GOOD_PIECE = unit("gr-1", "nato", "greece", "h0302")


@pytest.mark.parametrize(
    "parts, expected",
    [
        ({"facts": [("impulse", "third")]}, "line 3: the fact 'impulse' has the value 'third': use one of first, second, reserve"),
        ({"facts": [("weather", "rain")]}, "line 3: the fact 'weather' is unknown to this game"),
        ({"facts": [("rivals", "greece"), ("rivals", "greece turkey")]}, "line 3: the fact 'rivals' has the value 'greece'"),
        ({"facts": [("war-entry:finland", "soon")]}, "give the war turn number"),
        ({"facts": [("supply-source:pact", "h9999")]}, "name hexes of the map (h9999 is not one)"),
        ({"facts": [("supply-source:warsaw", "h1200")]}, "supply sources belong to a side"),
        ({"facts": [("kurdish-partisans", "kurds")]}, "use nato, pact or none"),
        ({"facts": [("rivals", "greece")]}, "give two different nation ids"),
        ({"turn": "D-day"}, "the turn 'D-day' is not a war turn number"),
        ({"phase": "lunch"}, "the phase 'lunch' is not one of"),
        ({"phasing": "axis"}, "the phasing side 'axis' is not one of nato, pact"),
        ({"pieces": [unit("x", "nato", "greece", "h0302", territorial="yes")]}, "'greece' has no territorial reserves"),
        ({"pieces": [unit("x", "pact", "iraq", "h0602", limited="no")]}, "every 'iraq' unit has limited abilities"),
        ({"pieces": [unit("x", "nato", "greece", "h0302", zoc="maybe")]}, 'zoc="maybe"; use yes or no'),
        ({"pieces": [unit("x", "nato", "greece", "h0302", colour="blue")]}, "attributes this game does not know: colour"),
        ({"pieces": [unit("x", "", "greece", "h0302")]}, "the piece 'x' needs a side"),
        ({"pieces": [unit("x", "nato", "greece", "h0302", previous_location="h9999")]}, "previous-location 'h9999'"),
        ({"pieces": [unit("x", "nato", "greece", None, communication="yes")]}, "marked in communication but stands on no hex"),
        ({"pieces": [GOOD_PIECE], "events": ['kind="attack" pieces="gr-1"']}, "the attack event needs hex"),
        ({"pieces": [GOOD_PIECE], "events": ['kind="attack" pieces="gr-1" hex="h9999"']}, "hex 'h9999' is not a hex of the map"),
        ({"pieces": [GOOD_PIECE], "events": ['kind="move" pieces="zz"']}, "names pieces the save does not have: zz"),
        ({"pieces": [GOOD_PIECE], "events": ['kind="teleport" pieces="gr-1"']}, "the event kind 'teleport' is not one of"),
        ({"pieces": [GOOD_PIECE], "events": ['kind="move" pieces="gr-1" speed="3"']}, "attributes this game does not know: speed"),
    ],
)
def test_bad_saves_exit_2_with_a_clear_message(write_save, run_cli, parts, expected):
    code, out, err = run_cli("check", write_save(save_text(**parts)))
    assert code == 2 and out == ""
    assert "save.xml" in err and expected in err and "Traceback" not in err


@pytest.mark.parametrize(
    "old, new, expected",
    [
        ('id="h0305" column="3" row="5" area="greece" terrain="rough"', 'id="h0305" column="3" row="5" area="greece" terrain="swampy"',
         "the hex 'h0305' has terrain 'swampy' is not one of clear, wilderness"),
        ('id="h0305" column="3" row="5" area="greece" terrain="rough"', 'id="h0305" column="3" row="5" area="greece"',
         "the hex 'h0305' needs a terrain"),
        ('id="h0305" column="3" row="5" area="greece" terrain="rough"', 'id="h0305" column="3" row="5" area="kurdistan" terrain="rough"',
         "belongs to 'kurdistan', which is not a nation area"),
        ('terrain="rough"', 'terrain="rough" region="greece"', "names the region 'greece', which is not a region area"),
        ('terrain="rough"', 'terrain="rough" supply="nato"', "attributes this game does not know: supply"),
        ('<area id="greece" name="Greece" side="nato"/>', '<area id="greece" name="Greece" side="axis"/>', "side 'axis' is not one of"),
    ],
)
def test_bad_maps_name_the_map_file_and_line(write_save, run_cli, tmp_path, old, new, expected):
    text = MAP.read_text(encoding="utf-8")
    assert old in text
    broken = text.replace(old, new, 1)
    line = next(number for number, content in enumerate(broken.splitlines(), start=1) if new in content)
    save = write_save(save_text())
    (tmp_path / "map.xml").write_text(broken, encoding="utf-8")
    code, _, err = run_cli("check", save)
    assert code == 2 and f"map.xml, line {line}: " in err and expected in err


@pytest.mark.parametrize(
    "parts, expected",
    [
        # str.isdigit() is true for "²" (int() refuses it) and "١" (int() reads it as 1): both are refused as text.
        ({"turn": "²"}, "line 2: the turn '²' is not a war turn number"),
        ({"turn": "١"}, "line 2: the turn '١' is not a war turn number"),
        ({"turn": "9" * 5000}, "is not a war turn number"),
        ({"facts": [("war-entry:finland", "²")]}, "line 3: the fact 'war-entry:finland' has the value '²': give the war turn number"),
        ({"facts": [("war-entry:finland", "١")]}, "line 3: the fact 'war-entry:finland' has the value '١': give the war turn number"),
    ],
)
def test_numbers_in_other_digits_get_the_plugins_sentence(write_save, run_cli, parts, expected):
    code, out, err = run_cli("check", write_save(save_text(**parts)))
    assert code == 2 and out == ""
    assert "save.xml" in err and expected in err and "Traceback" not in err and "bug" not in err

"""Saves and maps the tww rules cannot use exit 2 with the file, the line and what is wrong."""

from __future__ import annotations

import pytest

from .conftest import MAP, save_text, unit

GOOD_PIECE = unit("gr-1", "nato", "greece", "h0302")


@pytest.mark.parametrize(
    "parts, expected",
    [
        (
            {"facts": [("impulse", "third")]},
            "line 3: the fact 'impulse' takes one of first, second, reserve, not 'third'",
        ),
        (
            {"facts": [("weather", "rain")]},
            "line 3: the fact 'weather' is not a Third World War fact; the facts are impulse,",
        ),
        (
            {"facts": [("rivals", "greece"), ("rivals", "greece turkey")]},
            "line 3: the fact 'rivals' takes two different nation ids, not 'greece'",
        ),
        (
            {"facts": [("war-entry:finland", "soon")]},
            "takes the war turn number the nation entered the war on, not 'soon'",
        ),
        (
            {"facts": [("supply-source:pact", "h9999")]},
            "takes hexes of the map, separated by spaces, not 'h9999'; the map has no hex 'h9999'",
        ),
        (
            {"facts": [("supply-source:warsaw", "h1200")]},
            "the fact 'supply-source:warsaw' needs a side (nato or pact) after the colon",
        ),
        (
            {"facts": [("kurdish-partisans", "kurds")]},
            "takes nato, pact or none (the side they act against), not 'kurds'",
        ),
        ({"facts": [("rivals", "greece greece")]}, "takes two different nation ids, not 'greece greece'"),
        ({"turn": "D-day"}, "the position has turn='D-day'; it takes a war turn number (1, 2, ...)"),
        ({"phase": "lunch"}, "the position has phase='lunch'; it takes one of reinforcement,"),
        ({"phasing": "axis"}, "the position has phasing='axis'; it takes one of nato, pact"),
        ({"pieces": [unit("x", "nato", "greece", "h0302", territorial="yes")]}, "'greece' has no territorial reserves"),
        ({"pieces": [unit("x", "pact", "iraq", "h0602", limited="no")]}, "every 'iraq' unit has limited abilities"),
        ({"pieces": [unit("x", "nato", "greece", "h0302", zoc="maybe")]}, "has zoc='maybe'; it takes yes or no"),
        (
            {"pieces": [unit("x", "nato", "greece", "h0302", colour="blue")]},
            "has an unknown attribute 'colour' (a Third World War piece takes side, territorial,",
        ),
        (
            {"pieces": [unit("x", "", "greece", "h0302")]},
            "the piece 'x' has no side=; it takes one of nato, pact, neutral",
        ),
        (
            {"pieces": [unit("x", "nato", "greece", "h0302", previous_location="h9999")]},
            "has previous-location='h9999'; it takes a location of the map",
        ),
        (
            {"pieces": [unit("x", "nato", "greece", None, communication="yes")]},
            "marked in communication but stands on no hex",
        ),
        (
            {"pieces": [GOOD_PIECE], "events": ['kind="attack" pieces="gr-1"']},
            "the event has no hex=; it takes a hex of the map",
        ),
        (
            {"pieces": [GOOD_PIECE], "events": ['kind="attack" pieces="gr-1" hex="h9999"']},
            "the event has hex='h9999'; it takes a hex of the map",
        ),
        ({"pieces": [GOOD_PIECE], "events": ['kind="move" pieces="zz"']}, "names pieces the save does not have: zz"),
        (
            {"pieces": [GOOD_PIECE], "events": ['kind="teleport" pieces="gr-1"']},
            "the event has kind='teleport'; it takes one of move, attack,",
        ),
        (
            {"pieces": [GOOD_PIECE], "events": ['kind="move" pieces="gr-1" speed="3"']},
            "the event has an unknown attribute 'speed' (a move event takes kind, from, to)",
        ),
    ],
)
def test_bad_saves_exit_2_with_a_clear_message(write_save, run_cli, parts, expected):
    code, out, err = run_cli("check", write_save(save_text(**parts)))
    assert code == 2 and out == ""
    assert "save.xml" in err and expected in err and "Traceback" not in err


@pytest.mark.parametrize(
    "old, new, expected",
    [
        (
            'id="h0305" column="3" row="5" area="greece" terrain="rough"',
            'id="h0305" column="3" row="5" area="greece" terrain="swampy"',
            "the hex 'h0305' has terrain='swampy'; it takes one of clear, wilderness",
        ),
        (
            'id="h0305" column="3" row="5" area="greece" terrain="rough"',
            'id="h0305" column="3" row="5" area="greece"',
            "the hex 'h0305' has no terrain=; it takes one of clear,",
        ),
        (
            'id="h0305" column="3" row="5" area="greece" terrain="rough"',
            'id="h0305" column="3" row="5" area="kurdistan" terrain="rough"',
            "belongs to 'kurdistan', which is not a nation area",
        ),
        (
            'terrain="rough"',
            'terrain="rough" region="greece"',
            "the hex 'h0305' has region='greece'; it takes region areas of the map",
        ),
        (
            'terrain="rough"',
            'terrain="rough" supply="nato"',
            "has an unknown attribute 'supply' (a Third World War hex takes column, row,",
        ),
        (
            '<area id="greece" name="Greece" side="nato"/>',
            '<area id="greece" name="Greece" side="axis"/>',
            "the area 'greece' has side='axis'; it takes one of nato, pact, neutral",
        ),
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
        ({"turn": "²"}, "line 2: the position has turn='²'; it takes a war turn number"),
        ({"turn": "١"}, "line 2: the position has turn='١'; it takes a war turn number"),
        ({"turn": "9" * 5000}, "(5,000 characters); it takes a war turn number"),
        (
            {"facts": [("war-entry:finland", "²")]},
            "line 3: the fact 'war-entry:finland' takes the war turn number the nation entered the war on, not '²'",
        ),
        (
            {"facts": [("war-entry:finland", "١")]},
            "line 3: the fact 'war-entry:finland' takes the war turn number the nation entered the war on, not '١'",
        ),
    ],
)
def test_numbers_in_other_digits_get_the_plugins_sentence(write_save, run_cli, parts, expected):
    code, out, err = run_cli("check", write_save(save_text(**parts)))
    assert code == 2 and out == ""
    assert "save.xml" in err and expected in err and "Traceback" not in err and "bug" not in err


def test_a_hex_attribute_that_takes_any_text_is_taken_whatever_it_holds(write_save, run_cli, tmp_path):
    """The map check reads no value of column, row or city (any text is good), yet still reads the others."""
    text = MAP.read_text(encoding="utf-8")
    odd = 'id="h0305" column="3" row="5" area="greece" terrain="rough" city=" ½ ~ "'
    (tmp_path / "map.xml").write_text(text.replace('id="h0305" column="3" row="5" area="greece" terrain="rough"',
                                                   odd, 1), encoding="utf-8")
    save = write_save(save_text())
    code, _, err = run_cli("check", save)
    assert code in (0, 1) and not err
    (tmp_path / "map.xml").write_text(text.replace('terrain="rough"', 'terrain="rough" city="x" supply="y"', 1),
                                      encoding="utf-8")
    code, _, err = run_cli("check", save)
    assert code == 2 and "has an unknown attribute 'supply'" in err

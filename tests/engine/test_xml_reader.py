import pytest

from validator.model import Piece
from validator.saves.xml_reader import SaveInputError, read_capped, read_position_file

from .conftest import FROG, MAP, position_xml


def frogs(*places):
    return "\n".join(FROG.format(id=f"f{index}", at=place) for index, place in enumerate(places, 1))


def test_reads_the_position_and_its_referenced_map(pond, write_save):
    position = read_position_file(write_save(position_xml(frogs("north/pad", "south/pad"))))
    assert (position.game, position.turn, position.phase, position.phasing) == ("pond", "3", "movement", "frogs")
    assert position.fact("season") == "spring"
    assert [piece.location for piece in position.pieces] == ["north/pad", "south/pad"]
    assert position.map.areas["north"].neighbours == ("south",)
    assert position.location_label("north/pad") == "North Pond / Pad"
    assert position.pieces[0].line == 6


def test_inline_map(pond, write_save):
    inline = MAP.replace(' xmlns="urn:referee:save:1"', "")
    position = read_position_file(write_save(position_xml(frogs("south/pad"), map_part=inline)))
    assert set(position.map.locations) == {"north/pad", "south/pad"}


@pytest.mark.parametrize(
    "text, message, line",
    [
        (position_xml(frogs("east/pad")), "stands at 'east/pad', which the map does not have", 6),
        (position_xml(frogs("north pad")), "stands at 'north pad', which the map does not have", 6),
        (
            position_xml(frogs("north/pad") + "\n" + FROG.format(id="f1", at="north/pad")),
            "the piece id 'f1' is used twice (first at line 6)",
            7,
        ),
        (position_xml(frogs("north/pad")).replace('version="1"', 'version="x"'), "'x' is not a valid value", 2),
        (position_xml(frogs("north/pad"), game="chess"), "There is no game 'chess'", 2),
        (
            position_xml(frogs("north/pad"), map_part='<map href="missing.xml"/>'),
            "the map 'missing.xml' cannot be used",
            4,
        ),
        ('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e "boom">]><position/>', "DOCTYPE or entities", 2),
        ("<position xmlns='urn:referee:save:1'>\n<unclosed>", "not well-formed XML", 2),
        ("<position/>", "No matching global declaration", 1),
        (MAP, "this is a map file", 1),
    ],
)
def test_unusable_saves_name_the_file_line_and_problem(pond, write_save, text, message, line):
    path = write_save(text)
    with pytest.raises(SaveInputError) as raised:
        read_position_file(path)
    assert message in str(raised.value)
    assert raised.value.line == line
    assert str(raised.value).startswith(str(path)) or "missing.xml" in str(raised.value)


def test_the_requested_game_must_match(pond, write_save):
    with pytest.raises(SaveInputError, match="the save is for the game 'pond', not 'tito'"):
        read_position_file(write_save(position_xml(frogs())), "tito")


def test_oversized_and_missing_files(pond, tmp_path):
    with pytest.raises(SaveInputError, match="no such file"):
        read_position_file(tmp_path / "absent.xml")
    big = tmp_path / "big.xml"
    big.write_bytes(b"x" * 11)
    with pytest.raises(SaveInputError, match="larger than 10 bytes"):
        read_capped(big, limit=10)


def test_a_map_neighbour_that_does_not_exist(pond, write_save):
    broken = MAP.replace('neighbours="south"', 'neighbours="west"')
    write_save(broken, "pond-map.xml")
    with pytest.raises(SaveInputError, match="names a neighbour 'west' that the map does not have") as raised:
        read_position_file(write_save(position_xml(frogs())))
    assert raised.value.source.endswith("pond-map.xml") and raised.value.line == 2


def test_a_shared_map_is_read_once_until_it_changes(pond, write_save):
    first = read_position_file(write_save(position_xml(frogs("north/pad")), "one.xml"))
    second = read_position_file(write_save(position_xml(frogs("south/pad")), "two.xml"))
    assert first.map is second.map
    write_save(MAP.replace("North Pond", "Upper Pond"), "pond-map.xml")
    third = read_position_file(write_save(position_xml(frogs("south/pad")), "three.xml"))
    assert third.map is not first.map and third.map.areas["north"].name == "Upper Pond"


def test_a_changed_map_replaces_its_cache_entry(pond, write_save):
    from validator.saves import xml_reader

    read_position_file(write_save(position_xml(frogs("north/pad")), "one.xml"))
    entries = len(xml_reader._MAP_CACHE)
    write_save(MAP.replace("North Pond", "Upper Pond"), "pond-map.xml")
    read_position_file(write_save(position_xml(frogs("south/pad")), "two.xml"))
    assert len(xml_reader._MAP_CACHE) == entries  # one entry per map file, holding its current bytes


def test_game_attributes_leave_out_the_envelopes_own(pond, write_save):
    position = read_position_file(
        write_save(
            position_xml(
                '<piece id="f1" name="Frog" type="frog" side="green" strength="3" location="north/pad" colour="green" '
                'mood="calm"/>'
            )
        )
    )
    piece = position.pieces[0]
    assert (piece.id, piece.name, piece.type, piece.side, piece.strength, piece.location) == (
        "f1",
        "Frog",
        "frog",
        "green",
        3,
        "north/pad",
    )
    assert dict(piece.attributes) == {"colour": "green", "mood": "calm"}
    assert piece.line > 0


def test_pieces_written_differently_in_one_save_each_read_as_written(pond, write_save):
    """Each set of attribute names is read by its own shape: its order, a left-out field's default, a strength."""
    pieces = "\n".join((
        '<piece id="f1" name="Frog" side="frogs" type="frog" location="north/pad" strength="2" colour="green"/>',
        '<piece location="south/pad" colour="green" type="frog" name="Toad" id="f2"/>',
        '<piece id="f3" name="Frog" location="north/pad" colour="green" mood="calm" strength="0"/>',
        '<piece id="f4" name="Frog" side="frogs" type="frog" location="south/pad" strength="5" colour="brown"/>',
        '<piece id="f5" name="Lily"/>',
        '<piece id="f6" name="Frog" side="frogs" type="frog" location="north/pad" strength="2" colour="green"/>',
    ))
    read = read_position_file(write_save(position_xml(pieces))).pieces
    assert read == (
        Piece("f1", "Frog", side="frogs", type="frog", strength=2, location="north/pad",
              attributes={"colour": "green"}, line=6),
        Piece("f2", "Toad", type="frog", location="south/pad", attributes={"colour": "green"}, line=7),
        Piece("f3", "Frog", strength=0, location="north/pad", attributes={"colour": "green", "mood": "calm"}, line=8),
        Piece("f4", "Frog", side="frogs", type="frog", strength=5, location="south/pad",
              attributes={"colour": "brown"}, line=9),
        Piece("f5", "Lily", line=10),
        Piece("f6", "Frog", side="frogs", type="frog", strength=2, location="north/pad",
              attributes={"colour": "green"}, line=11),
    )
    assert read[0].attributes is read[5].attributes  # the same own values of the same names: one mapping,
    assert read[0].attributes is read[1].attributes  # however the rest of each piece is written
    with pytest.raises(TypeError):
        read[0].attributes["colour"] = "blue"  # read-only, so sharing it is safe


def test_the_reader_builds_pieces_in_the_order_of_their_fields(pond, write_save):
    """The reader fills a Piece positionally for speed; a new or moved field must be noticed here."""
    assert Piece._fields == (
        "id",
        "name",
        "side",
        "nationality",
        "type",
        "size",
        "strength",
        "location",
        "attributes",
        "line",
    )
    text = position_xml(frogs("north/pad")).replace(
        'location="north/pad"', 'location="north/pad" strength="3" colour="green"'
    )
    piece = read_position_file(write_save(text)).pieces[0]
    assert (piece.id, piece.location, piece.strength, dict(piece.attributes), piece.line) == (
        "f1",
        "north/pad",
        3,
        {"colour": "green"},
        6,
    )


def test_each_value_of_a_repeated_fact_keeps_its_own_line(pond, write_save):
    extra = '\n  <fact name="weather" value="rain"/>\n  <fact name="season" value="summer"/>'
    position = read_position_file(write_save(position_xml(frogs("north/pad"), extra=extra)))
    assert position.fact_entries("season") == [("spring", 3), ("summer", 5)]
    assert (position.fact_line("season"), position.fact_line("season", 1), position.fact_line("weather")) == (3, 5, 4)
    assert (position.fact_line("tide"), position.fact_entries("tide")) == (0, [])


@pytest.mark.parametrize(
    "change, message",
    [
        (
            ('neighbours="north"', 'neighbours=""'),
            "the area 'north' lists 'south' as a neighbour, but 'south' does not have 'north'",
        ),
        (('neighbours="north"', 'neighbours="north south"'), "the area 'south' lists itself as a neighbour"),
        (('neighbours="north"', 'neighbours="north north"'), "the area 'south' lists the neighbour 'north' twice"),
    ],
)
def test_area_neighbours_must_agree(pond, write_save, change, message):
    write_save(MAP.replace(*change), "pond-map.xml")
    with pytest.raises(SaveInputError, match=message):
        read_position_file(write_save(position_xml(frogs("north/pad"))))


def test_a_strength_beyond_any_counter_is_refused_with_its_line(pond, write_save):
    text = position_xml(frogs("north/pad")).replace(
        'location="north/pad"', 'location="north/pad" strength="' + "9" * 5000 + '"'
    )
    with pytest.raises(SaveInputError) as raised:
        read_position_file(write_save(text))
    assert raised.value.line == 6 and "greater than the maximum value allowed ('999999')" in raised.value.problem
    assert " characters)" in raised.value.problem and len(raised.value.problem) < 400  # the value is not echoed whole


@pytest.mark.parametrize(
    "map_part, message",
    [
        ('<map href=""/>', "the map reference is empty"),
        ('<map href="one.xml"/>', "the map 'one.xml' is a position file, not a map"),
        ('<map href="other-game-map.xml"/>', "the map 'other-game-map.xml' is for the game 'chess', not 'pond'"),
        ('<map game="chess"><area id="north"/></map>', "the map is for the game 'chess', not 'pond'"),
    ],
)
def test_a_map_reference_that_cannot_serve_is_named_at_the_saves_map_line(pond, write_save, map_part, message):
    write_save(position_xml(frogs("north/pad")), "one.xml")
    write_save(MAP.replace('id="pond-map"', 'id="pond-map" game="chess"'), "other-game-map.xml")
    with pytest.raises(SaveInputError) as raised:
        read_position_file(write_save(position_xml("", map_part=map_part), "two.xml"))
    assert message in raised.value.problem and raised.value.line == 4
    assert raised.value.source.endswith("two.xml")

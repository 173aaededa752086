"""The dump's header counts its pieces in words: one piece is "1 piece"."""

from validator.saves.vassal.dump import render_text


def piece(name: str) -> dict:
    return {"map": "Main", "location": "A1", "x": 0, "y": 0, "name": name, "id": name, "properties": {},
            "hidden": False, "obscured": False}


def header(pieces: list[dict]) -> str:
    data = {"source": "game.vsav", "format": "VCSK", "pieces": pieces, "arbiter": False, "viewer": None}
    return render_text(data).splitlines()[0]


def test_one_piece_is_counted_in_the_singular():
    assert header([piece("Tank")]) == "game.vsav: VCSK save, 1 piece shown to spectator"


def test_several_pieces_are_counted_in_the_plural():
    assert header([piece("Tank"), piece("Gun")]) == "game.vsav: VCSK save, 2 pieces shown to spectator"

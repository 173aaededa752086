from validator.rulebook.tables import is_value, rebuild


def test_values_and_labels():
    for value in ["0", "1:2", "2-3", "-", "2†", "1**", "2§"]:
        assert is_value(value), value
    for label in ["Frogland", "Iraq*", "AF", "Western Allies", ""]:
        assert not is_value(label), label


def test_single_header_table():
    cells = ["", "Frogs", "Toads", "Pondia", "0", "1:2", "Marshland", "2", "-"]
    (part,) = rebuild(cells)
    assert part.header == ("", "Frogs", "Toads")
    assert part.rows == (("Pondia", "0", "1:2"), ("Marshland", "2", "-"))


def test_titled_parts_with_group_rows():
    cells = [
        "North", "", "Land", "Water", "", "1-2", "AF", "Ax",
        "Pondia", "1", "-", "2", "Reedton", "-", "3", "1:2",
        "South", "", "Land", "", "2-2", "Ax",
        "Mudville", "4", "1**",
    ]
    north, south = rebuild(cells)
    assert north.title == "North" and north.groups == ("", "Land", "Water")
    assert north.header == ("", "1-2", "AF", "Ax")
    assert north.rows == (("Pondia", "1", "-", "2"), ("Reedton", "-", "3", "1:2"))
    assert south.title == "South" and south.header == ("", "2-2", "Ax")
    assert south.rows == (("Mudville", "4", "1**"),)


def test_cells_without_rows_stay_one_block():
    (part,) = rebuild(["Alpha", "Beta", "Gamma"])
    assert part.rows == (("Alpha",), ("Beta",), ("Gamma",))

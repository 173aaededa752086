"""Values quoted in problems stay short enough to read, and say how much was left out."""

from validator.quoting import FEW, LONGEST, name_a_few, quote


def test_a_short_value_is_quoted_whole():
    assert quote("germany russia") == "'germany russia'"


def test_a_long_value_is_cut_and_its_length_given():
    assert quote("x" * 5000) == f"'{'x' * LONGEST}…' (5,000 characters)"


def test_a_long_list_names_a_few_and_counts_the_rest():
    ids = [f"h{number}" for number in range(FEW + 7)]
    assert name_a_few(ids) == ", ".join(f"'h{number}'" for number in range(FEW)) + " and 7 more"
    assert name_a_few(["a", "b"]) == "'a', 'b'"

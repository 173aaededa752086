"""Our save format and rulebook texts: repeated facts and long lines cost their length."""

from __future__ import annotations

from tests.hostile import shapes
from tests.hostile.conftest import LINEAR_BOUND, WEB_PEAK_MB
from tests.hostile.cost import growth, measure


def test_a_fact_repeated_many_times_costs_its_number(tmp_path):
    # Each value was added by copying the tuple of the values before it.
    ratio, small, large = growth("xml_save", shapes.repeated_facts, tmp_path, 10_000)
    assert small.summary == "10000 fact values" and large.summary == "80000 fact values"
    assert ratio < LINEAR_BOUND, (small, large)


def test_facts_past_the_limit_are_refused_at_the_first_one_too_many(tmp_path):
    path = shapes.repeated_facts(tmp_path / "facts.xml", 100_001)
    cost = measure("xml_save", path)
    assert cost.refused == (f"{path}, line 100004: the save gives 100,001 fact values, "
                            "more than the facts limit of 100,000")
    assert cost.peak_mb < WEB_PEAK_MB


def test_a_heading_with_a_long_run_of_spaces_costs_its_length(tmp_path):
    # The capitals-title pattern retried the spaces after every letter: 100,000 spaces took half a minute.
    ratio, small, large = growth("rulebook", shapes.rulebook_spaces, tmp_path, 100_000)
    assert small.summary == large.summary == "2 cases"
    assert ratio < LINEAR_BOUND, (small, large)


def test_a_line_citing_the_next_case_many_times_costs_its_length(tmp_path):
    # Each candidate number copied the whole line before it to look at the word in front.
    ratio, small, large = growth("rulebook", shapes.rulebook_excluded_numbers, tmp_path, 5_000)
    assert small.summary == large.summary == "2 cases"
    assert ratio < LINEAR_BOUND, (small, large)


def test_a_line_of_many_successive_cases_is_cut_without_recursion(tmp_path):
    # One recursive call per cut: a line of a few thousand cases ran out of stack.
    ratio, small, large = growth("rulebook", shapes.rulebook_successive_numbers, tmp_path, 1_000)
    assert small.summary == "1001 cases" and large.summary == "8001 cases"
    assert ratio < LINEAR_BOUND, (small, large)

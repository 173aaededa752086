"""The command reader of .vsav/.vlog files: counted as the text streams, linear in what it reads."""

from __future__ import annotations

from tests.hostile import shapes
from tests.hostile.conftest import LINEAR_BOUND, WEB_PEAK_MB
from tests.hostile.cost import growth, measure


def test_a_run_of_backslashes_is_refused_by_the_nesting_limit(tmp_path):
    # 300,000 backslashes before an ESC nest a token 300,000 levels deep in a 330-byte file;
    # splitting it level by level took minutes.
    path = shapes.backslash_run(tmp_path / "run.vsav", 300_000)
    assert path.stat().st_size < 1000
    cost = measure("vassal_save", path)
    assert cost.refused and "nested 300,000 levels deep, more than the nesting limit of 100" in cost.refused
    assert "entry 'savedGame'" in cost.refused
    assert cost.peak_mb < WEB_PEAK_MB


def test_quoted_nesting_is_written_as_vassal_encodes_it_level_by_level():
    nested = "'leaf'"
    for depth in range(1, 41):
        nested = shapes.encode(["'q'", nested], shapes.ESC)
        assert shapes.quoted_nesting_text(depth) == nested, depth


def test_quoted_nesting_4000_deep_is_refused_before_it_is_decoded(tmp_path):
    cost = measure("vassal_save", shapes.quoted_nesting(tmp_path / "quoted.vsav", 4000))
    assert cost.refused and "more than the nesting limit of 100" in cost.refused
    assert cost.peak_mb < WEB_PEAK_MB


def test_quoted_groups_within_the_nesting_limit_cost_their_length(tmp_path):
    # Quoted groups take the rule-for-rule decoder; at a fixed depth its cost grows with the text.
    def build(path, n):
        nested = "'leaf'"
        for _ in range(40):
            nested = shapes.encode(["'q'", nested], shapes.ESC)
        return shapes.write_vsav(path, shapes.voxz(shapes.restore() + (shapes.ESC + nested) * n))

    ratio, small, large = growth("vassal_save", build, tmp_path, 200)
    assert small.summary and large.summary
    assert ratio < LINEAR_BOUND, (small, large)


def test_empty_tokens_are_refused_at_the_commands_limit_without_reading_on(tmp_path):
    # 150 million ESCs fit in under a kilobyte of XZ.
    huge = shapes.empty_tokens(tmp_path / "huge.vsav", 150_000_000)
    assert huge.stat().st_size < 1000
    refused = measure("vassal_save", huge, limits={"commands": 2_000_000})
    assert refused.refused and "command tokens or more, more than the commands limit of 2,000,000" in refused.refused
    assert refused.peak_mb < WEB_PEAK_MB
    # What refusing costs is about what reading up to the limit costs, not 75 times it.
    at_the_limit = measure("vassal_save", shapes.empty_tokens(tmp_path / "limit.vsav", 1_900_000),
                           limits={"commands": 2_000_000})
    assert at_the_limit.summary == "0 pieces, 0 stacks"
    assert refused.cpu / max(at_the_limit.cpu, 1e-3) < 4, (refused, at_the_limit)


def test_empty_tokens_below_the_limit_cost_their_number(tmp_path):
    ratio, small, large = growth("vassal_save", shapes.empty_tokens, tmp_path, 200_000)
    assert small.summary and large.summary
    assert ratio < LINEAR_BOUND, (small, large)


def test_a_leaf_wrapped_in_many_log_prefixes_costs_its_length(tmp_path):
    # Each LOG prefix used to be cut by copying the rest of the leaf.
    ratio, small, large = growth("vassal_log", shapes.log_prefixes, tmp_path, 100_000)
    assert small.summary == large.summary == "2 restore commands, 1 steps"
    assert ratio < LINEAR_BOUND, (small, large)


def test_fields_vassal_never_reads_are_not_split(tmp_path):
    cost = measure("vassal_save", shapes.many_fields(tmp_path / "fields.vsav", 20_000_000))
    assert cost.summary == "1 pieces, 0 stacks"
    assert cost.peak_mb < WEB_PEAK_MB

"""The force-pool tables as data, and the modifiers of 44.32B, 44.35, the Communist China footnote and 11.341C."""

import pytest

from plugin.awaw import pools
from plugin.awaw.vocabulary import AXIS, COMMUNIST, IRAQ_GROUP, WESTERN_ALLIES


def state(**values):
    return pools.PoolState(year=values.pop("year", 1943), **values)


@pytest.mark.parametrize(
    "area, faction, expected",
    [
        ("france", WESTERN_ALLIES, (1, 2)), ("france", AXIS, (0, 0)), ("britain", COMMUNIST, (0, 0)),
        ("russia", COMMUNIST, (4, 8)), ("siberia", COMMUNIST, (2, 4)), ("china", WESTERN_ALLIES, (2, 2)),
        ("china", COMMUNIST, (1, 6)), ("spain", AXIS, (3, 3)), ("turkey", COMMUNIST, (2, 4)),
        ("western-poland", COMMUNIST, (0, 0)), ("norway", WESTERN_ALLIES, (0, 0)), ("algeria", AXIS, None),
    ],
)
def test_table_entries(area, faction, expected):
    assert pools.table_entry(area, faction) == expected


def test_occupation_policies_lower_the_russian_pool_by_at_most_three():
    assert (pools.limit("russia", COMMUNIST, state(occupation_policy_results=2)).automatic,
            pools.limit("russia", COMMUNIST, state(occupation_policy_results=2)).maximum) == (2, 6)
    five = pools.limit("russia", COMMUNIST, state(occupation_policy_results=5))
    assert (five.automatic, five.maximum, five.reduction) == (1, 5, 3)
    assert pools.limit("siberia", COMMUNIST, state(occupation_policy_results=3)).maximum == 4


@pytest.mark.parametrize("year, expected", [(1941, 1), (1942, 2), (1945, 5)])
def test_communist_china_grows_a_partisan_a_year_from_1942(year, expected):
    assert pools.limit("communist-china", COMMUNIST, state(year=year)).maximum == expected


@pytest.mark.parametrize("results, expected", [(0, 0), (1, 1), (2, 2), (5, 2)])
def test_moslem_unrest_fills_a_middle_east_pool_to_two(results, expected):
    limit = pools.limit(IRAQ_GROUP, AXIS, state(moslem_unrest={IRAQ_GROUP: results}))
    assert limit.maximum == expected
    assert pools.limit("egypt", AXIS, state(moslem_unrest={IRAQ_GROUP: results})).maximum == 0


def test_india_needs_indian_subversion():
    assert pools.limit("india", AXIS, state()).maximum == 0
    assert pools.limit("india", AXIS, state(indian_subversion_results=1)).maximum == 2


def test_raised_pools_are_the_western_allied_and_communist_a_to_b_entries():
    assert pools.limit("greece", WESTERN_ALLIES, state()).raised_by_results
    assert not pools.limit("spain", AXIS, state()).raised_by_results
    assert not pools.limit("china", WESTERN_ALLIES, state()).raised_by_results
    assert pools.describe(pools.limit("yugoslavia", COMMUNIST, state())) == "2:4"

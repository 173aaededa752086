from validator.hexpaths import enclosures, reachable

# a - b - c - d, and e joined only to d
GRAPH = {"a": ("b",), "b": ("a", "c"), "c": ("b", "d"), "d": ("c", "e"), "e": ("d",)}


def test_reachable_from_several_starts_avoiding_a_set():
    assert reachable(GRAPH, ["a"]) == set(GRAPH)
    assert reachable(GRAPH, ["a"], {"c"}) == {"a", "b"}
    assert reachable(GRAPH, ["a", "e"], {"c"}) == {"a", "b", "d", "e"}
    assert reachable(GRAPH, ["c"], {"c"}) == set()
    assert reachable(GRAPH, ["nowhere"]) == set()


def test_enclosures_give_each_start_its_pocket_and_ring():
    found = enclosures(GRAPH, ["a", "b", "e"], frozenset({"c"}))
    assert found["a"] == (frozenset({"a", "b"}), frozenset({"c"}))
    assert found["b"] is found["a"] or found["b"] == found["a"]
    assert found["e"] == (frozenset({"d", "e"}), frozenset({"c"}))

"""What one replay reads once and reuses gives what reading each time gives.

A replay keeps the traits its types share (Layers, Text Labels, Markers, by
their own type) and the short stack states its empty stacks share; the fast
paths of a piece's facts skip the decoder's rule where nothing is escaped or
quoted.  Each must leave every result as it was.
"""

from __future__ import annotations

import random

from validator.limits import DEFAULT_LIMITS
from validator.saves.vassal.piece_types import facts_of, layer_in_state, layer_type, parse_piece_type, plan_of
from validator.saves.vassal.pieces import chain_elements, chain_view
from validator.saves.vassal.sequence import java_int, leading
from validator.saves.vassal.state import GameState

from vassal_save_writer import chain

_TRAITS = ["mark;Side", "mark;Side,Nation", "PROP;Strength;1",
           "emb2;;0;;;0;;;0;;;;1;false;0;0;a.png,b.png;Up,Down;true;Step",
           "emb2;;0;;;0;;;0;;;;1;false;0;0;a.png,b.png;+ (Up),Down+;true;Face",
           "label;;;;;;;;;;;;$pieceName$ [$label$];;;;Name", "label;;;;;;;;;;;;;;;;;;true", "obs;;;;;;Hidden;side:",
           "hide;;;;;side:", "macro;x", "report;a\\;b", "'quoted;'", "basicName;Real"]
_STATES = ["", "1", "2", "-2", "0", "x", "2;x", "'2'", "a\\;b", "Axis", "Axis,Germany", "Axis,", "'Axis'", "a\\,b",
           "null", "player1", "side:Axis"]


def _plan_fields(plan) -> tuple:
    return (list(plan.ids), plan.image, plan.basic_name, plan.name_steps, plan.property_steps, plan.mask, plan.hide)


def test_types_planned_with_shared_traits_plan_as_each_alone():
    rng = random.Random(55)
    shared: dict = {}
    for _ in range(3000):
        elements = [rng.choice(_TRAITS) for _ in range(rng.randint(1, 7))]
        value = chain(*elements, "piece;;;u.png;Unit")
        alone = parse_piece_type(value)
        with_shared = parse_piece_type(value, DEFAULT_LIMITS.traits, DEFAULT_LIMITS.list_items, shared)
        assert _plan_fields(with_shared) == _plan_fields(alone) == _plan_fields(
            plan_of(tuple(chain_view(value, 3000)))), repr(value)
    assert shared                     # the traits were kept, and the later types read them from there


def test_facts_from_plain_states_are_the_decoder_rule_ones():
    rng = random.Random(89)
    for _ in range(3000):
        elements = [rng.choice(_TRAITS) for _ in range(rng.randint(1, 6))]
        plan = parse_piece_type(chain(*elements, "piece;;;u.png;Unit"))
        states = [rng.choice(_STATES) for _ in elements] + ["Main;10;20;;1;Owner;Axis"]
        facts = facts_of(plan, chain_view(chain(*states), len(elements) + 2))
        assert facts == facts_of(plan, chain_elements(chain(*states), len(elements) + 2))
        marks = [(trait, state) for trait, state in zip(elements, states, strict=False) if trait.startswith("mark;")]
        if marks and marks[0][1] and not any(character in marks[0][1] for character in "\\',"):
            assert facts.properties["Side"] == marks[0][1]      # the outermost Marker answers first


def test_a_layer_level_read_plainly_is_the_decoder_rule_one():
    layer = layer_type("emb2;", "emb2;;0;;;0;;;0;;;;1;false;0;0;a.png,b.png,c.png;One,Two,Three;true;Step")
    for state in _STATES + ["3;true", "12;x;y", "+2", " 2"]:
        expected = java_int(leading(state, ";", 1)[0], layer.default_value) if state else layer.default_value
        shown = layer_in_state(layer, state)
        level = abs(expected) if expected != 0 else 1
        assert (shown.level, shown.active) == (level, expected > 0), state


def test_empty_stacks_sharing_one_state_each_hold_their_own_pieces():
    state = GameState("shared-stacks.vsav")
    state.apply_leaf("+/p1/" + chain("mark;Side", "piece;;;u.png;One") + "/" + chain("Axis", "null;0;0"))
    state.apply_leaf("+/p2/" + chain("mark;Side", "piece;;;u.png;Two") + "/" + chain("Allies", "null;0;0"))
    for index in range(5):
        state.apply_leaf(f"+/s{index}/stack/null;0;0;@@-1")
    state.apply_leaf("+/s5/stack/Main;10;10;p1")
    state.apply_leaf("+/s6/stack/Main;10;10;p1")         # the same state: p1 leaves s5 for s6
    state.apply_leaf("+/s7/stack/Main;30;40;p2")
    game = state.snapshot(format="plain")
    assert {stack.id: stack.piece_ids for stack in game.stacks} == {"s6": ("p1",), "s7": ("p2",)}
    assert {piece.id: (piece.map, piece.x, piece.y, piece.stack_id) for piece in game.pieces} == {
        "p1": ("Main", 10, 10, "s6"), "p2": ("Main", 30, 40, "s7")}
    assert state.children_of("s0") == ()

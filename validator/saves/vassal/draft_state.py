"""The draft's ``<state>``: a module's global properties matched to the game's position attributes and facts.

Matching is exact, as for places and pieces (docs/vassal-mapping.md): a
global property whose normalised name is a position attribute (``turn``), a
fact of the game (``Tito State`` is ``tito-state``), another name the
game's vocabulary gives one (``VP``), or a fact about a subject written
before or after it (``Yugoslavia War Entry`` is ``war-entry:yugoslavia``)
is proposed as that, marked todo so the club checks its values.  A value
that is one word of a set is slugged (``Axis Combat`` becomes
``axis-combat``).  Every other property is listed in a table marked todo,
which reads nothing, and a position attribute the game cannot do without
gets a stand-in marked todo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from validator.facts import MANY, Context, ValueProblem, Word, Words
from validator.model import MapData
from validator.vocabulary import Vocabulary

from .draft_pieces import normalised

POSITION_ATTRIBUTES = ("scenario", "turn", "phase", "phasing")
UNMATCHED_TABLE = "unmatched-global-properties"
_IDENTIFIER = re.compile(r"[a-z0-9][a-z0-9\-]{0,99}")


@dataclass(frozen=True)
class StateMatch:
    """What one global property was matched to: a position attribute or a fact, and how to read its value."""

    property: str
    position: str | None
    fact: str | None
    slugged: bool
    several: bool
    """The fact takes a list of values: the club may need ``separator=``."""


def _is_word_type(value_type: object) -> bool:
    """A value of one word of a set (or words of sets), which modules write in other case and spacing."""
    if isinstance(value_type, Word):
        return True
    return isinstance(value_type, Words) and all(isinstance(part, Word) for part in value_type.parts) and (
        value_type.rest is None or isinstance(value_type.rest, Word))


def _subject_fact(normalised_name: str, vocabulary: Vocabulary) -> tuple[str, bool] | None:
    """``war-entry:yugoslavia`` for ``yugoslavia-war-entry`` or ``war-entry-yugoslavia`` (a fact with a subject)."""
    if vocabulary.facts is None:
        return None
    for fact in vocabulary.facts.facts:
        if fact.subject is None:
            continue
        before = normalised_name[:-len(fact.name) - 1] if normalised_name.endswith("-" + fact.name) else ""
        after = normalised_name[len(fact.name) + 1:] if normalised_name.startswith(fact.name + "-") else ""
        for subject in (before, after):
            if subject and _IDENTIFIER.fullmatch(subject) and _subject_fits(fact.subject, subject):
                return f"{fact.name}:{subject}", _is_word_type(fact.value)
    return None


def _subject_fits(subject_type, subject: str) -> bool:
    """Whether the subject is one the fact's subject type reads (a side of nato or pact, any nation id)."""
    try:
        subject_type.read(subject, Context(MapData()))
    except ValueProblem:
        return False
    return True


def match_property(name: str, normalised_name: str, vocabulary: Vocabulary) -> StateMatch | None:
    """The position attribute or fact a global property is named like, or None."""
    target = vocabulary.names.get(normalised_name, normalised_name)
    position_types = {attribute.name: attribute.value for attribute in
                      (vocabulary.position.attributes if vocabulary.position is not None else ())}
    if target in POSITION_ATTRIBUTES:  # a scenario is an id of the save, whatever the game reads in it
        return StateMatch(name, target, None, target == "scenario" or _is_word_type(position_types.get(target)),
                          False)
    facts = vocabulary.facts.by_name if vocabulary.facts is not None else {}
    if target in facts and facts[target].subject is None:
        fact = facts[target]
        return StateMatch(name, None, target, _is_word_type(fact.value), fact.repeat == MANY)
    about = _subject_fact(normalised_name, vocabulary)
    if about is not None:
        return StateMatch(name, None, about[0], about[1], False)
    return None


def draft_state(global_properties: Iterable[str], vocabulary: Vocabulary | None
                ) -> tuple[list[StateMatch], list[str], list[str]]:
    """(matched properties, position attributes the game needs and no property holds, unmatched properties)."""
    matched: list[StateMatch] = []
    unmatched: list[str] = []
    taken: set[str] = set()
    for name in global_properties:
        found = match_property(name, normalised(name), vocabulary) if vocabulary is not None else None
        target = found.position or found.fact if found is not None else None
        if found is None or target in taken:
            unmatched.append(name)
            continue
        taken.add(target)
        matched.append(found)
    needed = [attribute for attribute in (vocabulary.position_needed if vocabulary is not None else ("turn",))
              if attribute not in taken]
    return matched, needed, unmatched


def write_state(writer, root, global_properties: Iterable[str], vocabulary: Vocabulary | None
                ) -> tuple[list[StateMatch], list[str]]:
    """The ``<state>`` element (when there is anything to say) and the table of unmatched properties; returns both."""
    matched, needed, unmatched = draft_state(global_properties, vocabulary)
    if unmatched:
        table = writer.add(root, "table", name=UNMATCHED_TABLE,
                           todo="global properties of the module named like no position attribute or fact of the "
                                "game: for each that holds one, add a <global property=... fact=...> to <state> "
                                "(docs/save-format.md lists the facts); then delete this table, which reads nothing")
        for name in unmatched:
            writer.add(table, "entry", vassal=name, ours="")
    if not (matched or needed):
        return matched, unmatched
    state = writer.add(root, "state")
    for item in matched:
        what = f"the {item.position}" if item.position else f"the fact {item.fact}"
        hint = " If it lists several values, add separator=." if item.several else ""
        attributes: Mapping[str, str] = {"position": item.position} if item.position else {"fact": item.fact}
        writer.add(state, "global", property=item.property, **attributes,
                   **({"value": "{value|slug}"} if item.slugged else {}),
                   todo=f"the module's global property '{item.property}' is named like {what}: check that its "
                        f"values are ours (change value= or add translate= if not).{hint}")
    for attribute in needed:
        writer.add(state, "global", property=f"(the global property that holds the {attribute})", position=attribute,
                   todo=f"the module has no global property named '{attribute}': name the one that holds it, "
                        "or give default= (for a scenario's set-up) when none does")
    return matched, unmatched


__all__ = ["POSITION_ATTRIBUTES", "StateMatch", "UNMATCHED_TABLE", "draft_state", "match_property", "write_state"]

"""The game-state facts and the turn an A World at War save may give, declared as tables.

Each fact's value type says what its words are; :mod:`validator.facts`
reads them, refuses what they cannot be with the value's own line, and hands
the situation the values read (``fact_reading``, once per position).
"""

from __future__ import annotations

from validator.derived import memoised
from validator.facts import (
    KEYED,
    MANY,
    Attribute,
    AttributeTable,
    Context,
    Count,
    Fact,
    FactReading,
    FactTable,
    MapReferences,
    SeasonYear,
    Word,
    Words,
)
from validator.model import Position

from plugin.awaw.vocabulary import (
    BUILDERS,
    CONTROLLER_WORDS,
    COUNTRY_NAMES,
    FACTIONS,
    MAJOR_POWERS,
    MIDDLE_EAST_AREAS,
    PARTISAN,
    SEASONS,
    SIDES,
)


def _areas(context: Context):
    return context.map.areas


def _minor_areas(context: Context):
    return context.map.areas.keys() - MAJOR_POWERS.keys()


COUNT = Count()
POWER = Word(BUILDERS, name="a power")
MAJOR = Word(MAJOR_POWERS, name="a major power")
COUNTRY = Word(COUNTRY_NAMES, name="a known country or an area of the map", extra=_areas)
MINOR = Word(COUNTRY_NAMES.keys() - MAJOR_POWERS.keys(), name="a minor country", extra=_minor_areas)
CLAIMANT = Word((*BUILDERS, *FACTIONS, *SIDES), name="a power, faction or side")
CONTROLLER = Word((*BUILDERS, *CONTROLLER_WORDS), name="a controller (a power, 'neutral' or 'none')")


def _minor_fact(name: str, meaning: str, repeat: str = MANY) -> Fact:
    return Fact(name, Words((MINOR, POWER), name=f"a minor country and the power {meaning}, e.g. 'greece italy'"),
                repeat)


FACTS = FactTable("an A World at War fact", (
    Fact("at-war", Words((POWER, POWER), different=True,
                         name="two powers at war with each other, e.g. 'germany russia'"), MANY),
    Fact("conquered", Words((COUNTRY, MAJOR), name="a country and the major power that conquered it, e.g. "
                                                   "'france germany'"), KEYED),
    Fact("surrendered", Words((MAJOR, CLAIMANT), different=True, name="a major power and the power, faction or side "
                                                                      "it surrendered to, e.g. 'italy allies'"), KEYED),
    Fact("sued-for-peace", Words((Word(("usa",)), Word(("europe", "pacific"))),
                                 name="the U.S. and a theatre, 'usa europe' or 'usa pacific'"), MANY),
    Fact("rgt", COUNT),
    Fact("diplomatic-result", Words((COUNTRY, COUNT), name="a country and its diplomatic result, e.g. 'ukraine 6'"),
         KEYED),
    *(Fact(name, COUNT) for name in ("russian-occupation-policies", "western-allied-partisan-results",
                                     "russian-partisan-results", "indian-subversion-results")),
    Fact("moslem-unrest", Words((Word(MIDDLE_EAST_AREAS), COUNT), name="a Middle East area (egypt, iraq-group, "
                                                                       "persia) and its Moslem Unrest results"), KEYED),
    Fact("persian-brp-route", Word(("active", "inactive"))),
    _minor_fact("minor-attacked", "that attacked it"),
    _minor_fact("minor-associated", "it associated or allied with"),
    _minor_fact("minor-war-declared", "that declared war on it"),
    _minor_fact("country-controller", "controlling it", KEYED),
    Fact("area-control", Words((CONTROLLER,), rest=MapReferences("area")), MANY),
    Fact("control", Words((Word((*CONTROLLER.choices, PARTISAN),
                                name="a controller (a power, 'neutral', 'none' or 'partisan')"),),
                          rest=MapReferences("hex")), MANY),
    Fact("objectives", Words((CLAIMANT, COUNT), name="a power, faction or side and the objectives the save counts for "
                                                     "it, e.g. 'axis 12'"), KEYED),
))
POSITION = AttributeTable("an A World at War position", (Attribute("turn", SeasonYear(SEASONS), required=True),))


def fact_reading(position: Position) -> FactReading:
    """The position's facts as the table reads them, once per position (validation and the situation share it)."""
    return memoised(position, "awaw facts", lambda: FACTS.read(position))

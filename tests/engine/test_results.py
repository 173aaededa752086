"""Result's written-out ``__init__`` answers as the dataclass's generated one would."""

import dataclasses
import inspect

import pytest

from validator.cases import CaseNumber
from validator.rules import Finding, Result, Violation


def test_its_parameters_are_the_fields_in_order_with_their_defaults():
    parameters = list(inspect.signature(Result.__init__).parameters.values())[1:]
    fields = dataclasses.fields(Result)
    assert [parameter.name for parameter in parameters] == [field.name for field in fields]
    for parameter, field in zip(parameters, fields, strict=True):
        if field.default_factory is not dataclasses.MISSING:
            assert parameter.default is None  # facts: a fresh dict each time
        else:
            assert parameter.default == (inspect.Parameter.empty if field.default is dataclasses.MISSING
                                         else field.default)


@pytest.mark.parametrize("kind", [Violation, Finding])
def test_a_case_given_as_text_is_parsed_and_pieces_become_a_tuple(kind):
    result = kind("3 frogs", location="pad", pieces=["f1", "f2"], case="2.2A")
    assert result.case == CaseNumber.parse("2.2A") and isinstance(result.case, CaseNumber)
    assert result.pieces == ("f1", "f2")
    assert (result.severity, result.rule, result.game, result.judges, result.check) == ("", "", "", "", "")
    assert result.also_cases == ()


def test_each_result_without_facts_gets_its_own_empty_dict():
    first, second = Finding("a"), Finding("a")
    assert first.facts == {} and first.facts is not second.facts


def test_equality_and_hash_ignore_facts_and_a_result_stays_frozen():
    one, other = Violation("a", facts={"total": 3}), Violation("a", facts={"total": 4})
    assert one == other and hash(one) == hash(other)
    assert Violation("a") != Finding("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.message = "b"


def test_replace_and_keyword_copies_build_the_same_result():
    result = Violation("a", location="pad", pieces=("f1",), case="2.1", facts={"total": 3})
    assert dataclasses.replace(result, severity="warning").severity == "warning"
    copy = Violation(**{field.name: getattr(result, field.name) for field in dataclasses.fields(result)})
    assert copy == result and copy.facts == result.facts
    assert repr(copy) == repr(result)

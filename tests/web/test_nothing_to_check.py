"""A game with no checks gets no verdict on the web either: a 400 with the sentence, never "legal"."""

from __future__ import annotations

import dataclasses

import pytest

from validator.rules import RuleSet

from .conftest import api_upload, html, orchard_save, upload

SENTENCE = ("crowded.xml: Orchard Raid (alpha) has no checks of a position, so Referee cannot say whether this "
            "position is legal; its rulebook can still be read (referee rules list alpha).")


@pytest.fixture
def alpha_without_checks(checking_games):
    checking_games["alpha"] = dataclasses.replace(checking_games["alpha"], rules=RuleSet("alpha"))
    return checking_games


def test_the_form_answers_400_with_the_sentence(check_client, alpha_without_checks):
    response = upload(check_client, orchard_save())
    assert response.status_code == 400
    assert html(response).xpath("string(//p[@class='error-message'])") == SENTENCE


def test_the_api_answers_400_with_the_sentence(check_client, alpha_without_checks):
    response = api_upload(check_client, orchard_save())
    assert response.status_code == 400
    assert SENTENCE in response.get_data(as_text=True)

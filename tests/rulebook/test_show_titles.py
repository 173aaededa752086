"""``rules show --format json`` names every case with the title ``rules list`` gives it.

Many printed cases carry no title of their own; both commands then use the
plugin's short title, so a script reading either gets the same name.
"""

from __future__ import annotations

import json

import pytest


def shown_titles(shown: dict) -> dict[str, str]:
    """Every case in a ``rules show`` answer (children and lettered items) by number."""
    titles = {shown["case"]: shown["title"]}
    for child in shown["children"]:
        titles.update(shown_titles(child))
    for block in shown["blocks"]:
        if "item" in block:
            titles.update(shown_titles(block["item"]))
    return titles


@pytest.mark.rulebooks
@pytest.mark.parametrize("game", ["tito", "awaw", "tww"])
def test_show_and_list_give_every_case_the_same_title(import_real, run_cli, game):
    import_real(game)
    code, out, err = run_cli("rules", "list", game, "--format", "json")
    assert code == 0, err
    listed = {entry["case"]: entry["title"] for entry in json.loads(out)}
    shown: dict[str, str] = {}
    for top in [entry for entry in json.loads(out) if entry["parent"] is None]:
        code, out_show, err = run_cli("rules", "show", game, top["case"], "--format", "json")
        assert code == 0, err
        shown.update(shown_titles(json.loads(out_show)))
    assert shown == listed
    assert len(listed) > 10

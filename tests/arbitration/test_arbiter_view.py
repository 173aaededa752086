"""The arbiter's view of a stored VASSAL report: every piece, those hidden from the report's viewer marked."""

from __future__ import annotations

from contextlib import closing

import pytest

from validator import store
from validator.arbitration import arbiters
from validator.web import create_app

from .conftest import PASSWORD
from tests.web.conftest import html, text_of
from tests.web.test_check_vassal import GERMAN, STATE, _masked_german, post


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE": str(tmp_path / "vassal-instance"), "SECRET_KEY": "test-only"})
    with closing(store.connect(app.config["DATABASE"])) as connection:
        arbiters.add(connection, "alice", PASSWORD)
    return app.test_client()


def test_an_arbiter_sees_the_masked_piece_a_spectators_report_left_out_and_a_player_does_not(client, tmp_path):
    from modules import tito_game, tito_module, tito_unit

    module = tito_module(tmp_path)
    visible = [tito_unit(f"de-{n}", f"{n}th Division", "Serbia: Belgrade Axis", {**GERMAN, "Designation": str(n)})
               for n in range(1, 3)]
    save = tito_game(tmp_path / "fog.vsav", [*visible, _masked_german(8, "Axis")], STATE)
    report = post(client, save, module=module, api=True).get_json()
    address = report["report_url"].removeprefix("http://localhost") + "/arbiter-view"
    assert client.get(address).status_code == 302  # a player is sent to sign in
    token = html(client.get("/sign-in")).xpath("//input[@name='csrf_token']/@value")[0]
    client.post("/sign-in", data={"csrf_token": token, "name": "alice", "password": PASSWORD})
    page = html(client.get(address))
    hidden = [text_of(row) for row in page.xpath("//tr[@class='hidden-piece']")]
    assert len(hidden) == 1 and "8th Division" in hidden[0] and "masked or hidden" in hidden[0]
    shown = [text_of(row) for row in page.xpath("//table[@class='arbiter-pieces']/tbody/tr")]
    assert len(shown) == 3 and "2 of them" not in text_of(page) and "1 of them masked" in text_of(page)

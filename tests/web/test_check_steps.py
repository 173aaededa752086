"""A VASSAL log checked through the web, step by step by default: the illegal step at its index on the stored
report, with the position before and after it pictured; the same step undone is no move; "final position only"
checks the last position as before.

The logs are real .vlog files written through the sample Tito module (examples/vassal/sample_modules.py), as
the command line's log tests write them (tests/moves/test_logs.py).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from validator.web import create_app

from .conftest import form_token, html, report_id_of, text_of
from sample_modules import tito_log_from_position, tito_module
from tests.moves.test_logs import GAME_TURN_ONE, ILLEGAL, ROOT, steps_with, undo_of

TITO_MAP = ROOT / "plugin" / "tito" / "maps" / "tito-map.xml"


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE": str(tmp_path / "instance"), "SECRET_KEY": "test-only"})
    return app.test_client()


@pytest.fixture
def files(tmp_path) -> tuple[Path, Path]:
    """The sample Tito module and the Game-Turn 1 position a log starts from."""
    start = tmp_path / "turn-one.xml"
    start.write_text(GAME_TURN_ONE.format(map=TITO_MAP.as_posix()))
    return tito_module(tmp_path), start


def log_of(tmp_path: Path, start: Path, steps: list[str]) -> bytes:
    return tito_log_from_position(start, tmp_path / "moves.vlog", steps).read_bytes()


def post_log(client, log: bytes, module: Path, *, api: bool = False, **fields):
    data = {"game": "tito", "save": (io.BytesIO(log), "moves.vlog"),
            "module": (io.BytesIO(module.read_bytes()), "tito-sample.vmod"), **fields}
    if api:
        return client.post("/api/check", data=data, content_type="multipart/form-data")
    data["csrf_token"] = form_token(client)
    return client.post("/check", data=data, content_type="multipart/form-data")


def test_an_illegal_step_is_caught_at_its_index_on_the_stored_report(client, files, tmp_path):
    module, start = files
    response = post_log(client, log_of(tmp_path, start, steps_with()), module)
    assert response.status_code == 303, response.get_data(as_text=True)
    report_id = report_id_of(response)
    stored = client.get(f"/reports/{report_id}.json").get_json()
    assert stored["kind"] == "log" and stored["report_url"].endswith(f"/reports/{report_id}")
    assert (stored["step_count"], stored["judged_steps"], stored["illegal_steps"]) == (3, 3, [2])
    assert not stored["legal"]
    (step,) = [step for step in stored["steps"] if not step["legal"]]
    assert step["index"] == 2 and [violation["case"] for violation in step["violations"]] == ["6.63"]
    assert step["violations"][0]["url"].startswith("http")  # absolute, as a single report's JSON gives them
    assert step["in_words"] == "Partisan group from Macedonia / Partisan Mountain to Serbia / Partisan Mountain"
    assert "pictures" not in stored  # page material, not a verdict

    page = html(client.get(f"/reports/{report_id}"))
    (section,) = page.xpath("//section[@id='step-2']")
    assert text_of(section.xpath("h3")[0]) == ("Step 2: Partisan group from Macedonia / Partisan Mountain to "
                                               "Serbia / Partisan Mountain")
    assert section.xpath(".//a[contains(@href, '/tito/') and contains(@href, '6.63')]")
    assert [text_of(caption) for caption in section.xpath(".//figcaption")] == [
        "Before step 2", "After step 2: violations numbered as listed above"]
    assert len(section.xpath(".//*[local-name()='svg']")) == 2
    assert "1 illegal step (step 2)" in text_of(page.xpath("//p[contains(@class, 'verdict')]")[0])
    assert not page.xpath("//section[@id='step-1' or @id='step-3'][contains(@class, 'illegal')]")


def test_the_same_step_undone_is_not_a_move_on_the_web(client, files, tmp_path):
    module, start = files
    response = post_log(client, log_of(tmp_path, start, steps_with(undo_of(*ILLEGAL))), module, api=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    stored = response.get_json()
    assert (stored["undone_steps"], stored["undo_steps"], stored["illegal_steps"], stored["legal"]) == (
        [2], [3], [], True)
    page = html(client.get(f"/reports/{stored['id']}"))
    assert "Legal" in text_of(page.xpath("//p[contains(@class, 'verdict')]")[0])
    assert page.xpath("//section[@id='illegal']/p")[0].text == "None."


def test_final_position_only_checks_the_last_position_as_a_single_report(client, files, tmp_path):
    module, start = files
    response = post_log(client, log_of(tmp_path, start, steps_with()), module, api=True, final="1")
    assert response.status_code == 200, response.get_data(as_text=True)
    stored = response.get_json()
    assert "kind" not in stored and "steps" not in stored and stored["legal"]  # the last position alone is legal
    assert "violations" in stored


def test_the_stored_pictures_are_shown_without_drawing_again(client, files, tmp_path):
    """The page shows the pictures kept with the record: a game whose picture hook is gone still shows them."""
    module, start = files
    report_id = report_id_of(post_log(client, log_of(tmp_path, start, steps_with()), module))
    from validator import games

    tito = games.get("tito")
    drawn = tito.picture
    try:
        object.__setattr__(tito, "picture", None)
        section = html(client.get(f"/reports/{report_id}")).xpath("//section[@id='step-2']")[0]
    finally:
        object.__setattr__(tito, "picture", drawn)
    assert len(section.xpath(".//*[local-name()='svg']")) == 2


def test_a_log_without_its_module_or_game_is_refused_naming_the_file(client, files, tmp_path):
    module, start = files
    log = log_of(tmp_path, start, steps_with())
    response = post_log(client, log, module, api=True, game="")  # before any cookie: the API needs no token
    assert response.status_code == 400 and response.get_json()["error"].startswith("moves.vlog: this is a VASSAL")
    token = form_token(client)
    response = client.post("/check", content_type="multipart/form-data",
                           data={"csrf_token": token, "game": "tito", "save": (io.BytesIO(log), "moves.vlog")})
    assert response.status_code == 400
    assert "moves.vlog: a VASSAL save is read with its module" in text_of(html(response).xpath("//*[@role='alert']")[0])


def test_a_log_that_does_not_read_is_a_400_with_its_name(client, files, tmp_path):
    module, start = files
    broken = log_of(tmp_path, start, steps_with())[:-200]
    response = post_log(client, broken, module, api=True)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("moves.vlog")


def test_the_form_offers_final_position_only(client):
    page = html(client.get("/check"))
    (box,) = page.xpath("//input[@name='final']")
    assert box.get("type") == "checkbox"
    assert text_of(page.xpath("//label[@for='final']")[0]) == "Final position only"
    assert page.xpath("//input[@name='save']")[0].get("multiple") is not None


def test_the_clubs_house_rules_rate_every_step(client, files, tmp_path):
    """A house rule making 6.63 a warning leaves the step legal, and the report says which rule applied."""
    from validator import kept_house_rules, store
    from validator.instance import database_target

    client.get("/check")  # the instance and its database exist once the app has served a page
    connection = store.connect(database_target(tmp_path / "instance"))  # SQLite, or REFEREE_DATABASE_URL
    for case in ("6.63", "15.4"):  # the one check states both cases
        kept_house_rules.save(connection, "tito", case, "left_zone_in_first_two_turns", "warning",
                              "The club lets units leave their zone on the first turns.", "marta")
    connection.close()
    module, start = files
    report_id = report_id_of(post_log(client, log_of(tmp_path, start, steps_with()), module))
    stored = client.get(f"/reports/{report_id}.json").get_json()
    assert (stored["legal"], stored["illegal_steps"]) == (True, [])
    (step,) = [step for step in stored["steps"] if step["index"] == 2]
    assert ("6.63", "warning") in [(finding["case"], finding["severity"]) for finding in step["findings"]]
    (rated,) = [finding for finding in step["findings"] if finding["case"] == "6.63"]
    assert rated["house_rule"]["url"].startswith("http")  # absolute, as the case's url is
    assert sorted(rule["case"] for rule in stored["house_rules"]["rules"]) == ["15.4", "6.63"]
    page = html(client.get(f"/reports/{stored['id']}"))
    assert "left_zone_in_first_two_turns" in text_of(page.xpath("//section[@id='house-rules']")[0])


def test_only_the_first_faulty_steps_are_pictured(client, files, tmp_path, monkeypatch):
    """Past PICTURED_MOVES a faulty step is listed without pictures, so a long bad log keeps a page of sane size."""
    from validator.web import move_reports

    from sample_modules import tito_move
    from tests.moves.test_logs import MACEDONIA_MOUNTAIN, SERBIA_MOUNTAIN

    monkeypatch.setattr(move_reports, "PICTURED_MOVES", 1)
    module, start = files
    steps = [tito_move("p1", MACEDONIA_MOUNTAIN, SERBIA_MOUNTAIN, "p1 into Serbia"),
             tito_move("p2", SERBIA_MOUNTAIN, MACEDONIA_MOUNTAIN, "p2 into Macedonia")]
    page = html(client.get(f"/reports/{report_id_of(post_log(client, log_of(tmp_path, start, steps), module))}"))
    first, second = page.xpath("//section[@id='step-1']")[0], page.xpath("//section[@id='step-2']")[0]
    assert len(first.xpath(".//*[local-name()='svg']")) == 2 and not second.xpath(".//*[local-name()='svg']")
    assert "Only the first 1 faulty step is pictured" in text_of(second)
    assert page.xpath("//form[@class='open-case-file']")  # a dispute can be opened on a log's report


def test_a_log_of_more_steps_than_the_sites_limit_is_refused_naming_it(files, tmp_path):
    """Each step is a position judged, so a short file of many steps would hold one request for seconds."""
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "referee.toml").write_text("[web.limits]\nlog_steps = 2\n")
    client = create_app({"TESTING": True, "INSTANCE": str(instance), "SECRET_KEY": "test-only"}).test_client()
    module, start = files
    log = log_of(tmp_path, start, steps_with())  # three steps
    response = post_log(client, log, module, api=True)
    assert response.status_code == 413
    assert response.get_json()["error"].startswith(
        "moves.vlog: the log has 3 steps, more than the log_steps limit of 2 steps judged one by one on this site;")
    assert post_log(client, log, module, api=True, final="1").status_code == 200  # its final position is checked


def test_pages_outside_the_moves_page_read_the_violations_of_a_logs_steps(client, files, tmp_path, import_real):
    """A log's report keeps its violations in its steps: the case page, a ruling's exception and a case file's
    export find them there, and the public JSON has no empty list of violations at the top to mislead a client."""
    from contextlib import closing

    from validator import store
    from validator.arbitration import rulings
    from validator.instance import database_target

    module, start = files
    report_id = report_id_of(post_log(client, log_of(tmp_path, start, steps_with()), module))
    stored = client.get(f"/reports/{report_id}.json").get_json()
    assert "violations" not in stored and "findings" not in stored
    case_page = text_of(html(client.get(f"/tito/rules/6.63?report={report_id}")).xpath("//main")[0])
    assert "has 1 violation of case 6.63" in case_page

    (step,) = [step for step in stored["steps"] if step["index"] == 2]
    import_real("tito")  # a ruling cites the imported rulebook
    with closing(store.connect(database_target(tmp_path / "instance"))) as connection:
        key = rulings.ViolationKey.of_item(report_id, step["violations"][0])
        rulings.write(connection, arbiter="marta", game="tito", decision="The club agreed to the move.",
                      cases=["6.63"], exceptions=[rulings.ExceptedViolation(key, "agreed before play")])
    excepted = html(client.get(f"/reports/{report_id}")).xpath("//section[@id='excepted']//li[@class='excepted']")
    assert len(excepted) == 1 and "[6.63]" in text_of(excepted[0])


def test_the_case_a_violation_is_also_stated_under_is_shown_and_linked(client, files, tmp_path):
    """Tito states its zone rule under 6.63 and 15.4: the step, its JSON and the page of 15.4 all name both."""
    module, start = files
    report_id = report_id_of(post_log(client, log_of(tmp_path, start, steps_with()), module))
    (step,) = [step for step in client.get(f"/reports/{report_id}.json").get_json()["steps"] if step["index"] == 2]
    (also,) = step["violations"][0]["also_cases"]
    assert also["case"] == "15.4" and also["url"].startswith("http") and also["url"].endswith("/tito/rules/15.4")
    (section,) = html(client.get(f"/reports/{report_id}")).xpath("//section[@id='step-2']")
    (line,) = section.xpath(".//*[@class='also-cases']")
    assert text_of(line) == "The same rule is also case 15.4."
    assert line.xpath("a/@href") == ["/tito/rules/15.4"]
    case_page = text_of(html(client.get(f"/tito/rules/15.4?report={report_id}")).xpath("//main")[0])
    assert "has 1 violation of case 15.4" in case_page


def test_the_arbiters_view_of_a_log_says_it_shows_the_final_position(client, files, tmp_path):
    from contextlib import closing

    from validator import store
    from validator.arbitration import arbiters
    from validator.instance import database_target

    from tests.arbitration.conftest import PASSWORD

    module, start = files
    report_id = report_id_of(post_log(client, log_of(tmp_path, start, steps_with()), module))
    with closing(store.connect(database_target(tmp_path / "instance"))) as connection:
        arbiters.add(connection, "alice", PASSWORD)
    client.post("/sign-in", data={"csrf_token": form_token(client), "name": "alice", "password": PASSWORD})
    page = html(client.get(f"/reports/{report_id}/arbiter-view"))
    assert text_of(page.xpath("//p[@class='log-view']")[0]).startswith("This is a log: the view shows its final")
    assert page.xpath("//table[@class='arbiter-pieces']/tbody/tr")


def test_a_log_from_an_illegal_position_says_so_plainly_and_the_page_says_what_was_covered(client, files, tmp_path):
    """Eight Italian divisions overstack a box before any step: the verdict says the start is illegal and no
    step is, the moves page gives the mapping's and the checks' coverage as a single report does, a step's
    case groups are headed under its own heading, and its two pictures are told apart by their titles."""
    from sample_modules import tito_move
    from tests.moves.test_logs import SERBIA_HIDE_AWAY, SERBIA_MOUNTAIN

    module, _ = files
    italians = "\n".join(
        f'    <piece id="it-{index}" name="Italian division" nationality="italian" size="division" strength="6" '
        f'location="montenegro/cetinje/axis"/>' for index in range(8))
    start = tmp_path / "overstacked.xml"
    start.write_text(GAME_TURN_ONE.replace('turn="1" phase="yugoslav-movement"', 'turn="3" phase="axis-combat"')
                     .replace("  </pieces>", italians + "\n  </pieces>").format(map=TITO_MAP.as_posix()))
    log = log_of(tmp_path, start, [tito_move("p2", SERBIA_MOUNTAIN, SERBIA_HIDE_AWAY, "p2 hides")])
    page = html(client.get(f"/reports/{report_id_of(post_log(client, log, module))}"))
    assert text_of(page.xpath("//p[contains(@class, 'verdict')]")[0]) == (
        "Illegal: the position the log starts from breaks a rule Referee checks (listed below), and no step "
        "breaks one.")
    assert text_of(page.xpath("//p[@class='coverage']")[0]).startswith("Checked against ")
    assert "move case" not in text_of(page.xpath("//p[@class='coverage']")[0])  # a log's steps judge them
    assert "resolved" in text_of(page.xpath("//p[@class='mapping-coverage']")[0])

    module, start = files
    page = html(client.get(f"/reports/{report_id_of(post_log(client, log_of(tmp_path, start, steps_with()), module))}"))
    (section,) = page.xpath("//section[@id='step-2']")
    assert section.xpath("h3") and section.xpath(".//section[@class='case-group']/h4") \
        and not section.xpath(".//section[@class='case-group']/h3")
    titles = [svg.xpath("*[local-name()='title']")[0].text for svg in section.xpath(".//*[local-name()='svg']")]
    assert [title.split(":")[0] for title in titles] == ["Before step 2", "After step 2"]


def test_a_single_report_says_the_move_cases_are_left_to_a_pair_a_log_or_a_chain(client, files, tmp_path):
    module, start = files
    response = post_log(client, log_of(tmp_path, start, steps_with()), module, final="1")
    sentence = text_of(html(client.get(f"/reports/{report_id_of(response)}")).xpath("//p[@class='coverage']")[0])
    assert "move cases, which only a pair of saves, a log or a chain can break" in sentence

"""A chain of saves sent as several files: each save after the first is judged as following from the one before
it, as ``referee check S1 S2 ...`` judges it (tests/moves/test_chains.py), and stored at a permanent address.

The saves are our save XML on the shipped Tito map (tests/moves/saves.py) and real .vsav files written through
the sample Tito module (examples/vassal/sample_modules.py).
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from validator.web import create_app

from .conftest import form_token, html, report_id_of, text_of
from sample_modules import tito_module, tito_save_from_position
from tests.moves.saves import partisan, tito_save

ROOT = Path(__file__).resolve().parents[2]
MACEDONIA, SERBIA = "macedonia/mountain/partisan", "serbia/mountain/partisan"


@pytest.fixture
def instance(tmp_path) -> Path:
    return tmp_path / "instance"


@pytest.fixture
def client(instance):
    app = create_app({"TESTING": True, "INSTANCE": str(instance), "SECRET_KEY": "test-only"})
    return app.test_client()


def post_chain(client, saves: list[Path | tuple[bytes, str]], *, api: bool = False, **fields):
    parts = [(io.BytesIO(save.read_bytes()), save.name) if isinstance(save, Path) else (io.BytesIO(save[0]), save[1])
             for save in saves]
    data = {"save": parts, **fields}
    if api:
        return client.post("/api/check", data=data, content_type="multipart/form-data")
    data["csrf_token"] = form_token(client)
    return client.post("/check", data=data, content_type="multipart/form-data")


def test_a_chain_that_follows_is_legal_and_the_form_takes_the_saves_in_the_order_of_their_names(client, tmp_path):
    saves = [
        tito_save(tmp_path / "turn-10.xml", [partisan("serbia/hide-away/partisan")], turn=10),
        tito_save(tmp_path / "turn-2.xml", [partisan(MACEDONIA)], turn=2),
        tito_save(tmp_path / "turn-3.xml", [partisan(SERBIA)], turn=3),
    ]
    response = post_chain(client, saves)
    assert response.status_code == 303, response.get_data(as_text=True)
    report_id = report_id_of(response)
    stored = client.get(f"/reports/{report_id}.json").get_json()
    assert stored["kind"] == "chain" and stored["legal"], stored
    assert stored["saves"] == ["turn-2.xml", "turn-3.xml", "turn-10.xml"]
    assert [link["index"] for link in stored["links"]] == [2, 3]
    assert stored["id"] == report_id and stored["report_url"].endswith(f"/reports/{report_id}")
    page = html(client.get(f"/reports/{report_id}"))
    assert text_of(page.xpath("//h1")[0]) == "Chain of saves: turn-2.xml to turn-10.xml (3 saves)"
    assert [text_of(item) for item in page.xpath("//ol[@class='chain-saves']/li")] == stored["saves"]
    assert text_of(page.xpath("//p[contains(@class, 'verdict')]")[0]).startswith("Legal: every save follows")


def test_a_rewind_is_reported_with_the_save(client, tmp_path):
    saves = [
        tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=5, phase="axis-movement"),
        tito_save(tmp_path / "2.xml", [partisan(MACEDONIA)], turn=5, phase="yugoslav-movement"),
        tito_save(tmp_path / "3.xml", [partisan(MACEDONIA)], turn=4, phase="axis-movement"),
    ]
    response = post_chain(client, saves, api=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    stored = response.get_json()
    assert not stored["legal"]
    assert [(link["index"], link["after"], [found["kind"] for found in link["breaks"]]) for link in stored["links"]] \
        == [(2, "2.xml", ["rewind"]), (3, "3.xml", ["rewind"])]
    page = html(client.get(f"/reports/{stored['id']}"))
    (section,) = page.xpath("//section[@id='save-3']")
    assert "From 2.xml to 3.xml." in text_of(section)
    (rewind,) = section.xpath(".//li[@class='break rewind']")
    assert "3.xml is of Game-Turn 4, before Game-Turn 5 of 2.xml" in text_of(rewind)
    assert "2 saves do not follow from the one before" in text_of(page.xpath("//p[contains(@class, 'verdict')]")[0])


def test_an_unexplained_change_is_reported_with_the_save_and_the_piece(client, tmp_path):
    saves = [
        tito_save(tmp_path / "before.xml", [partisan(MACEDONIA)]),
        tito_save(tmp_path / "after.xml", [partisan(MACEDONIA, size="brigade", name="Partisan brigade")]),
    ]
    stored = post_chain(client, saves, api=True).get_json()
    (link,) = stored["links"]
    (found,) = link["breaks"]
    assert (link["after"], found["kind"], found["pieces"]) == ("after.xml", "unexplained-change", ["p1"])
    page = html(client.get(f"/reports/{stored['id']}"))
    (item,) = page.xpath("//section[@id='save-2']//li[@class='break unexplained-change']")
    assert "the piece p1 of before.xml is another unit in after.xml" in text_of(item)
    assert text_of(item).endswith("(pieces: Partisan brigade)")
    assert len(page.xpath("//section[@id='save-2']//*[local-name()='svg']")) == 2  # before and after


def test_an_illegal_move_between_saves_is_judged(client, tmp_path):
    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=1),
             tito_save(tmp_path / "2.xml", [partisan(SERBIA)], turn=1)]
    stored = post_chain(client, saves, api=True).get_json()
    (link,) = stored["links"]
    assert not link["breaks"] and [violation["case"] for violation in link["violations"]] == ["6.63"]
    assert link["in_words"] == "Partisan group from Macedonia / Partisan Mountain to Serbia / Partisan Mountain"
    assert link["violations"][0]["url"].startswith("http")


def test_the_saves_are_kept_together_in_order(client, instance, tmp_path):
    saves = [tito_save(tmp_path / "b.xml", [partisan(MACEDONIA)]), tito_save(tmp_path / "a.xml", [partisan(SERBIA)])]
    post_chain(client, saves, api=True)
    (kept,) = (instance / "uploads").glob("report-*.save.zip")
    with zipfile.ZipFile(kept) as archive:
        assert archive.namelist() == ["1.xml", "2.xml"]
        assert archive.read("1.xml") == saves[0].read_bytes()  # the API keeps the order sent


def test_a_chain_of_vassal_saves_is_read_with_one_module(client, tmp_path):
    module = tito_module(tmp_path)
    saves = [tito_save_from_position(tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=1), tmp_path / "1.vsav"),
             tito_save_from_position(tito_save(tmp_path / "2.xml", [partisan(SERBIA)], turn=1), tmp_path / "2.vsav")]
    response = post_chain(client, saves, api=True, game="tito",
                          module=(io.BytesIO(module.read_bytes()), "tito-sample.vmod"))
    assert response.status_code == 200, response.get_data(as_text=True)
    stored = response.get_json()
    (link,) = stored["links"]
    assert link["moves"][0]["to"] == SERBIA and [violation["case"] for violation in link["violations"]] == ["6.63"]
    assert stored["vassal"]["module"]["name"] and stored["checked_with"]["module_sha256"]
    response = post_chain(client, saves, api=True, game="tito")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("1.vsav: a VASSAL save is read with its module")


def test_more_saves_than_the_limit_are_refused_naming_it(client, tmp_path):
    save = tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)])
    response = post_chain(client, [save] * 21, api=True)
    assert response.status_code == 413
    assert response.get_json()["error"] == (
        "21 saves were sent, more than the chain_saves limit of 20 saves in one chain on this site; send the "
        "chain in parts of at most 20 saves, each part starting with the last save of the part before.")


def test_the_limit_is_the_sites_own(instance, tmp_path):
    instance.mkdir(parents=True)
    (instance / "referee.toml").write_text("[web.limits]\nchain_saves = 2\n")
    client = create_app({"TESTING": True, "INSTANCE": str(instance), "SECRET_KEY": "test-only"}).test_client()
    save = tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)])
    response = post_chain(client, [save] * 3)
    assert response.status_code == 413
    assert "more than the chain_saves limit of 2" in text_of(html(response).xpath("//*[@role='alert']")[0])


@pytest.mark.parametrize(("second", "problem"), [
    ((ROOT / "examples" / "awaw" / "partisans-legal.xml").read_bytes(),
     "second.xml: this is a save of awaw, but 1.xml is a save of tito; a chain holds the saves of one game"),
    (b"<position", "second.xml, line 1, column 10: not well-formed XML"),
    (b"", "second.xml: the file is empty"),
])
def test_a_bad_save_in_a_chain_is_a_400_naming_the_file(client, tmp_path, second, problem):
    first = tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)])
    response = post_chain(client, [first, (second, "second.xml")], api=True)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(problem)


def test_a_module_with_a_chain_of_our_saves_is_refused(client, tmp_path):
    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)]), tito_save(tmp_path / "2.xml", [partisan(SERBIA)])]
    response = post_chain(client, saves, api=True, module=(io.BytesIO(b"PK"), "tito.vmod"))
    assert response.status_code == 400 and response.get_json()["error"].startswith("1.xml: ")


def test_the_clubs_house_rules_rate_every_link(client, instance, tmp_path):
    from validator import kept_house_rules, store
    from validator.instance import database_target

    client.get("/check")  # the instance and its database exist once the app has served a page
    connection = store.connect(database_target(instance))  # the instance's SQLite file, or REFEREE_DATABASE_URL
    for case in ("6.63", "15.4"):  # the one check states both cases
        kept_house_rules.save(connection, "tito", case, "left_zone_in_first_two_turns", "off",
                              "The club plays without the first turns' zone limit.", "marta")
    connection.close()
    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=1),
             tito_save(tmp_path / "2.xml", [partisan(SERBIA)], turn=1)]
    stored = client.get(f"/reports/{report_id_of(post_chain(client, saves))}.json").get_json()
    (link,) = stored["links"]
    cases = {result["case"] for result in link["violations"] + link["findings"]}
    assert stored["legal"] and not {"6.63", "15.4"} & cases
    assert stored["house_rules"]["rules"][0]["severity"] == "off"


def test_a_chain_report_is_rechecked_as_a_chain_not_as_one_position(client, tmp_path):
    """Re-checking a chain's record reads its zip's saves again and judges them as a chain, not the zip as a save."""
    from validator import recheck
    from validator.limits import WEB_LIMITS
    from validator.web import case_file_records, database, records

    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)]), tito_save(tmp_path / "2.xml", [partisan(SERBIA)])]
    report_id = post_chain(client, saves, api=True).get_json()["id"]
    with client.application.test_request_context():
        record = records.load(database.connection(), report_id)
        comparison = recheck.recheck(case_file_records.stored_check(record), WEB_LIMITS)
    assert comparison.judges_moves and comparison.now["saves"] == ["1.xml", "2.xml"]
    assert not comparison.verdict_changed and comparison.changed == []


def test_a_legal_save_with_something_unjudged_is_listed_among_those_that_follow(client, tmp_path):
    """A zone left between two Game-Turns is not judged for distance (6.11 unchecked): listed, with the case."""
    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=5),
             tito_save(tmp_path / "2.xml", [partisan(SERBIA)], turn=6)]
    stored = post_chain(client, saves, api=True).get_json()
    assert stored["legal"] and "unchecked" in [found["severity"] for found in stored["links"][0]["findings"]]
    page = html(client.get(f"/reports/{stored['id']}"))
    (item,) = page.xpath("//ul[@class='legal-move-list']/li")
    assert text_of(item).startswith("Save 2: Partisan group from Macedonia / Partisan Mountain to Serbia")
    told = [found for found in stored["links"][0]["findings"] if found["severity"] != "info"]
    shown = item.xpath("ul[@class='told-findings']/li")  # what an arbiter may want, each with its message
    assert f"({len(told)} finding" in text_of(item) and len(shown) == len(told)
    assert [text_of(line) for line in shown] == [f"{found['case']} {found['severity']}: {found['message']}"
                                                 for found in told]
    assert "6.11" in item.xpath(".//a/text()")


def test_a_vassal_save_of_a_chain_that_does_not_read_is_named_without_a_server_path(client, instance, tmp_path):
    module = tito_module(tmp_path)
    first = tito_save_from_position(tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)]), tmp_path / "1.vsav")
    response = post_chain(client, [first, (first.read_bytes()[:-300], "2.vsav")], api=True, game="tito",
                          module=(io.BytesIO(module.read_bytes()), "tito-sample.vmod"))
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith("2.vsav") and str(instance) not in error
    assert not list((instance / "uploads").glob("*.vmod*"))  # the module of a refused check is not kept


def test_the_arbiters_view_of_a_vassal_chain_says_it_reads_one_save_at_a_time(client, instance, tmp_path):
    """The chain's kept file is a zip of its saves, not a save: the view says so instead of misreading it."""
    from contextlib import closing

    from validator import store
    from validator.arbitration import arbiters
    from validator.instance import database_target

    from tests.arbitration.conftest import PASSWORD

    module = tito_module(tmp_path)
    saves = [tito_save_from_position(tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=1), tmp_path / "1.vsav"),
             tito_save_from_position(tito_save(tmp_path / "2.xml", [partisan(MACEDONIA)], turn=1), tmp_path / "2.vsav")]
    stored = post_chain(client, saves, api=True, game="tito",
                        module=(io.BytesIO(module.read_bytes()), "tito-sample.vmod")).get_json()
    with closing(store.connect(database_target(instance))) as connection:
        arbiters.add(connection, "alice", PASSWORD)
    client.post("/sign-in", data={"csrf_token": form_token(client), "name": "alice",
                                  "password": PASSWORD})
    page = html(client.get(f"/reports/{stored['id']}/arbiter-view"))
    (problem,) = page.xpath("//p[contains(@class, 'problem')]")
    assert text_of(problem).startswith("This report judges a chain of 2 saves, and the arbiter's view reads one save")
    assert "savedGame" not in text_of(page) and not page.xpath("//table[@class='arbiter-pieces']")


def test_the_picture_before_a_link_marks_the_violations_of_its_own_position(client, tmp_path):
    """A German division in a Yugoslav box breaks a rule in both saves: the picture before says so too."""
    german = ('id="de-704" name="de-704" nationality="german" size="division" strength="12" designation="704" '
              'location="serbia/belgrade/yugoslav"')
    saves = [tito_save(tmp_path / "1.xml", [german, partisan(MACEDONIA)], turn=1),
             tito_save(tmp_path / "2.xml", [german, partisan(SERBIA)], turn=1)]
    report_id = report_id_of(post_chain(client, saves))
    (section,) = html(client.get(f"/reports/{report_id}")).xpath("//section[@id='save-2']")
    before, after = section.xpath(".//figure")
    assert text_of(before.xpath("figcaption")[0]).startswith("Before save 2: this position holds ")
    assert "No place breaks a rule" not in text_of(before) and "outlined in red" in text_of(before)
    assert "outlined in red" in text_of(after)


def test_the_picture_before_a_link_from_a_legal_save_marks_nothing(client, tmp_path):
    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=1),
             tito_save(tmp_path / "2.xml", [partisan(SERBIA)], turn=1)]
    (section,) = html(client.get(f"/reports/{report_id_of(post_chain(client, saves))}")).xpath(
        "//section[@id='save-2']")
    before = section.xpath(".//figure")[0]
    assert text_of(before.xpath("figcaption")[0]) == "Before save 2"
    assert "No place breaks a rule" in text_of(before)


def test_a_chain_illegal_only_by_its_first_save_says_so_on_its_page(client, tmp_path):
    """The first save is checked as a position: the page names it, not 'the position the log starts from'."""
    italians = [f'id="it-{index}" name="Italian division {index}" nationality="italian" size="division" '
                f'strength="6" location="montenegro/cetinje/axis"' for index in range(9)]
    saves = [tito_save(tmp_path / "1.xml", italians, turn=3, phase="axis-combat"),
             tito_save(tmp_path / "2.xml", italians, turn=3, phase="axis-combat")]
    report_id = report_id_of(post_chain(client, saves))
    page = html(client.get(f"/reports/{report_id}"))
    verdict = text_of(page.xpath("//p[contains(@class, 'verdict')]")[0])
    assert verdict.startswith("Illegal: the first save breaks a rule Referee checks"), verdict
    assert "log" not in verdict
    (start,) = page.xpath("//section[@id='start']")
    assert text_of(start.xpath("h2")[0]) == "The first save"
    assert "6.21" in text_of(start)

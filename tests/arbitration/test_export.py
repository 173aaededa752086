"""A case file exported as one self-contained HTML document (no script, nothing external) and as JSON."""

from __future__ import annotations

import io
from pathlib import Path

import lxml.html
import pytest

from validator import store
from validator.arbitration import arbiters, case_files, comments, rulings
from validator.web import create_app

OVERSTACKED = Path(__file__).resolve().parents[1] / "fixtures" / "tito" / "6.21" / "fail-nine-italians.xml"
LEGAL = Path(__file__).resolve().parents[1] / "fixtures" / "tito" / "6.21" / "pass-exactly-seven.xml"
PASSWORD = "a long enough password"
DECISION = "The ninth division arrived by sea; the box is overstacked and it must retreat."


@pytest.fixture
def client(database_target, tmp_path):
    connection = store.connect(database_target)
    arbiters.add(connection, "marta", PASSWORD)
    connection.close()
    app = create_app({"TESTING": True, "DATABASE": str(database_target), "INSTANCE": str(tmp_path / "web"),
                      "SECRET_KEY": "test-only"})
    test_client = app.test_client()
    test_client.database = database_target
    test_client.uploads = tmp_path / "web" / "uploads"
    return test_client


def token_of(client, path: str = "/check") -> str:
    return lxml.html.fromstring(client.get(path).data).xpath("//input[@name='csrf_token']/@value")[0]


def upload(client, save: Path) -> str:
    data = {"csrf_token": token_of(client), "save": (io.BytesIO(save.read_bytes()), save.name)}
    answer = client.post("/check", data=data, content_type="multipart/form-data")
    assert answer.status_code == 303
    return answer.headers["Location"].rsplit("/", 1)[1]


@pytest.fixture
def case_file(client, run_cli, rulebooks_dir):
    code, _, err = run_cli("rules", "import", "tito", rulebooks_dir / "tito-rulebook.txt")
    assert code == 0, err
    before, after = upload(client, LEGAL), upload(client, OVERSTACKED)
    connection = store.connect(client.database)
    filed = case_files.open_case_file(connection, "Cetinje overstacked?", "pair", [before, after])
    comments.add(connection, filed.id, "Axis player", "I say the ninth division came by sea.", "127.0.0.1")
    rulings.write(connection, arbiter="marta", game="tito", decision=DECISION, cases=["6.21"], case_file=filed.id)
    connection.close()
    return filed


def test_the_html_export_is_one_document_that_loads_nothing(client, case_file):
    answer = client.get(f"/case-files/{case_file.id}/export.html")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    assert "attachment" in answer.headers["Content-Disposition"]
    document = lxml.html.fromstring(answer.data)
    assert document.xpath("//script") == [] and document.xpath("//link") == [] and document.xpath("//img") == []
    assert document.xpath("//iframe|//object|//embed") == []
    for attribute in ("src", "href", "xlink:href", "action", "data"):
        for value in document.xpath(f"//@*[local-name()='{attribute.split(':')[-1]}']"):
            assert value.startswith("#"), (attribute, value)
    assert "url(" not in document.xpath("string(//style)") and "@import" not in document.xpath("string(//style)")
    assert len(document.xpath("//style")) == 1 and document.xpath("string(//style)").strip()
    assert len(document.xpath("//svg|//*[local-name()='svg']")) == 2  # each position's picture, inline
    text = document.text_content()
    assert "Cetinje overstacked?" in text and DECISION in text and "I say the ninth division came by sea." in text
    assert "1 violation." in text and "Legal: the position breaks none of the rules Referee checks." in text


def test_the_json_export_holds_the_reports_rulings_and_comments(client, case_file):
    exported = client.get(f"/case-files/{case_file.id}/export.json").get_json()
    assert exported["export_version"] == 1
    assert exported["case_file"]["title"] == "Cetinje overstacked?" and exported["case_file"]["kind"] == "pair"
    assert [item["role"] for item in exported["reports"]] == ["before", "after"]
    assert [item["report"]["legal"] for item in exported["reports"]] == [True, False]
    assert exported["reports"][1]["report"]["violations"][0]["case"] == "6.21"
    assert exported["rulings"][0]["decision"] == DECISION and exported["rulings"][0]["arbiter"] == "marta"
    assert exported["rulings"][0]["cases"] == ["6.21"]
    assert exported["comments"] == [{"author": "Axis player", "body": "I say the ninth division came by sea.",
                                     "written_at": exported["comments"][0]["written_at"]}]


def test_an_unknown_case_file_has_no_export(client):
    assert client.get("/case-files/nothing-here/export.html").status_code == 404
    assert client.get("/case-files/nothing-here/export.json").status_code == 404


def test_only_an_arbiter_deletes_a_case_files_uploads(client, case_file):
    saves = sorted(client.uploads.iterdir())
    assert len(saves) == 4  # each save and the map it was read with
    assert client.post(f"/case-files/{case_file.id}/uploads/delete",
                       data={"csrf_token": token_of(client)}).status_code == 403
    assert sorted(client.uploads.iterdir()) == saves
    client.post("/sign-in", data={"name": "marta", "password": PASSWORD, "next": "/",
                                  "csrf_token": token_of(client, "/sign-in")})
    answer = client.post(f"/case-files/{case_file.id}/uploads/delete", data={"csrf_token": token_of(client)})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/case-files/{case_file.id}")
    assert list(client.uploads.iterdir()) == []
    exported = client.get(f"/case-files/{case_file.id}/export.json").get_json()
    assert all(item["uploads_removed_at"] for item in exported["reports"])
    assert exported["reports"][1]["report"]["legal"] is False  # the verdict stays

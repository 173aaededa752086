"""Checking VASSAL saves through the web: save + module, kept modules, viewers, and refusals.

The saves and modules are built by the VASSAL tests' own helpers
(tests/vassal/modules.py): the sample Tito module and the hand-written Tito
examples turned into .vsav files.
"""

from __future__ import annotations

import hashlib
import io
import sys
import zipfile
from pathlib import Path

import pytest

from validator import store
from validator.instance import database_target
from validator.web import create_app, kept_modules

from .conftest import form_token, html, report_id_of, text_of

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "tito"
sys.path.insert(0, str(ROOT / "tests" / "vassal"))  # the VASSAL tests' helpers are plain modules there

from modules import (  # noqa: E402
    TITO_MODULE_NAME,
    TWW,
    build_file,
    map_element,
    region_grid,
    tito_game,
    tito_module,
    tito_save_from_position,
    tito_unit,
    write_module,
)
from submitting import check_file  # noqa: E402

from vassal_save_writer import add_piece  # noqa: E402

GERMAN = {"Nationality": "German", "Unit": "Inf Div", "CF": "12", "Designation": "704"}
STATE = {"Scenario": "Campaign", "Turn": "4", "Phase": "Axis Combat", "Phasing": "Axis", "Tito": "Unidentified",
         "VP": "18"}


@pytest.fixture
def instance(tmp_path) -> Path:
    return tmp_path / "vassal-instance"


@pytest.fixture
def client(instance):
    app = create_app({"TESTING": True, "INSTANCE": str(instance), "SECRET_KEY": "test-only"})
    return app.test_client()


@pytest.fixture
def files(tmp_path):
    """The sample Tito module and the overstacked example as a .vsav on it."""
    folder = tmp_path / "files"
    folder.mkdir()
    module = tito_module(folder)
    save = tito_save_from_position(EXAMPLES / "overstacked.xml", folder / "overstacked.vsav")
    return module, save


def post(client, save: Path | bytes, *, name: str | None = None, module: Path | bytes | None = None,
         module_name: str = "tito-sample.vmod", api: bool = False, **fields):
    data: dict = {"game": "tito", **fields}
    save_bytes = save.read_bytes() if isinstance(save, Path) else save
    data["save"] = (io.BytesIO(save_bytes), name or (save.name if isinstance(save, Path) else "game.vsav"))
    if module is not None:
        data["module"] = (io.BytesIO(module.read_bytes() if isinstance(module, Path) else module), module_name)
    if api:
        return client.post("/api/check", data=data, content_type="multipart/form-data")
    data["csrf_token"] = form_token(client)
    return client.post("/check", data=data, content_type="multipart/form-data")


def error_of(response) -> str:
    return html(response).xpath("string(//p[@class='error-message'])")


def violations_on_page(page) -> list[str]:
    return [text_of(item) for item in page.xpath("//section[@class='violations']//li")]


def fact(page, name: str) -> str:
    return page.xpath(f"string(//dl[@class='position-facts']/div[dt='{name}']/dd)")


def rows(instance: Path, table: str) -> list[dict]:
    connection = store.connect(database_target(instance))  # the instance's SQLite file, or REFEREE_DATABASE_URL
    try:
        return [dict(row) for row in connection.execute(f"SELECT * FROM {table}")]
    finally:
        connection.close()


def sha256(path: Path) -> str:
    """A module's hash as Referee keeps it by: of the file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def uploads(instance: Path) -> list[str]:
    folder = instance / "uploads"
    return sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []


def test_a_save_with_its_module_gives_the_same_violations_as_the_command_line(client, instance, files):
    module, save = files
    expected = check_file(save, module, "tito")
    response = post(client, save, module=module)
    assert response.status_code == 303, error_of(response)
    report_id = report_id_of(response)

    stored = client.get(f"/reports/{report_id}.json").get_json()
    assert [(item["case"], item["message"]) for item in stored["violations"]] == [
        (str(violation.case), violation.message) for violation in expected.violations
    ]
    assert [item["case"] for item in stored["violations"]] == ["6.21", "6.21"]
    assert stored["source"] == "overstacked.vsav"
    with zipfile.ZipFile(module) as archive:
        build_file_hash = hashlib.sha256(archive.read("buildFile.xml")).hexdigest()
    assert stored["vassal"] == {
        "module": {"id": 1, "name": TITO_MODULE_NAME, "version": "1.0", "sha256": sha256(module),
                   "build_file_sha256": build_file_hash},
        "viewer": None,
        "seen_as": "as a spectator",
        "note": "23 pieces exported; none skipped. The module Tito (Referee sample module), version 1.0 "
                f"(SHA-256 {sha256(module)[:12]}…) was kept for later uploads.",
    }

    page = html(client.get(f"/reports/{report_id}"))
    assert fact(page, "VASSAL module") == "Tito (Referee sample module), version 1.0"
    assert fact(page, "Seen") == "as a spectator"
    assert "checked as a spectator" in text_of(page.xpath("//p[@class='vassal-view']")[0])
    assert len(page.xpath("//section[@class='violations']/section[@id='v-c6-21']//ul[@class='results']/li")) == 2
    assert len(violations_on_page(page)) == 2

    kept = rows(instance, "vassal_module")
    assert [(row["name"], row["version"], row["source_name"], row["sha256"]) for row in kept] == [
        (TITO_MODULE_NAME, "1.0", "tito-sample.vmod", sha256(module))]
    record = rows(instance, "report")[0]
    assert (record["module_id"], record["module_name"], record["module_version"], record["viewer"]) == (
        1, TITO_MODULE_NAME, "1.0", None)
    assert record["save_file"] == f"report-{report_id}.save.vsav"
    assert uploads(instance) == sorted([kept[0]["file"], record["save_file"], record["map_file"]])
    assert (instance / "uploads" / kept[0]["file"]).read_bytes() == module.read_bytes()
    assert kept[0]["file"].startswith("module-") and "tito-sample" not in kept[0]["file"]


def test_a_later_upload_names_the_kept_module_from_the_form(client, instance, files):
    module, save = files
    assert post(client, save, module=module).status_code == 303

    form = html(client.get("/check?game=tito"))
    options = form.xpath("//select[@name='kept_module']//option")
    kept = rows(instance, "vassal_module")[0]
    assert [(option.get("value"), text_of(option)) for option in options] == [
        ("", "None: I upload the module file"),
        (sha256(module), f"Tito (Referee sample module), version 1.0, SHA-256 {sha256(module)[:12]}…, build file "
                         f"SHA-256 {kept['build_file_sha256'][:12]}…, uploaded as “tito-sample.vmod” on "
                         f"{kept['kept_at']}")]
    assert form.xpath("//select[@name='kept_module']/optgroup/@label") == ["Tito and His Partisan Army (SPI)"]
    assert html(client.get("/check?game=tww")).xpath("//select[@name='kept_module']/optgroup") == []

    response = post(client, save, kept_module=sha256(module))
    assert response.status_code == 303, error_of(response)
    stored = client.get(f"/reports/{report_id_of(response)}.json").get_json()
    assert [item["case"] for item in stored["violations"]] == ["6.21", "6.21"]
    assert stored["vassal"]["module"]["sha256"] == stored["checked_with"]["module_sha256"] == sha256(module)
    assert stored["vassal"]["note"] == "23 pieces exported; none skipped."
    assert len(rows(instance, "vassal_module")) == 1
    assert sum(name.startswith("module-") for name in uploads(instance)) == 1


def test_the_same_bytes_uploaded_again_are_kept_once_and_the_report_says_so(client, instance, files):
    # Other bytes under the same name and version are another module: tests/web/test_modules_by_hash.py.
    module, save = files
    assert post(client, save, module=module).status_code == 303
    response = post(client, save, module=module, module_name="copy.vmod")
    assert response.status_code == 303, error_of(response)
    note = client.get(f"/reports/{report_id_of(response)}.json").get_json()["vassal"]["note"]
    assert "with these exact bytes (SHA-256 " in note and "was already kept (uploaded as “tito-sample.vmod”" in note
    assert "this upload was checked and not kept again" in note
    assert len(rows(instance, "vassal_module")) == 1
    assert sum(name.startswith("module-") for name in uploads(instance)) == 1


def test_the_api_takes_the_same_parts_and_lists_kept_modules(client, files):
    module, save = files
    response = post(client, save, module=module, api=True)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    for key in ("game", "source", "legal", "violations", "findings", "id", "report_url", "created_at"):
        assert key in body
    assert body["legal"] is False and body["vassal"]["viewer"] is None
    listed = client.get("/api/modules").get_json()["modules"]
    assert [(entry["sha256"], entry["name"], entry["version"], entry["game"]) for entry in listed] == [
        (sha256(module), TITO_MODULE_NAME, "1.0", "tito")]
    assert "file" not in listed[0]
    again = post(client, save, api=True, kept_module=listed[0]["sha256"])
    assert again.status_code == 200 and again.get_json()["violations"] == body["violations"]


def _masked_german(number: int, owner_side: str) -> str:
    """A German division masked by ``owner_side`` (side access), at Belgrade's Axis box."""
    properties = {**GERMAN, "Designation": str(number)}
    marker = "mark;" + ",".join(properties)
    x, y = _belgrade()
    return add_piece(f"de-{number}", [marker, "obs;77,130;back.png;Mask;G;Hidden unit;side:",
                                      f"piece;;;;{number}th Division"],
                     [",".join(properties.values()), f"{owner_side};", f"Yugoslavia;{x};{y};;0"])


def _belgrade() -> tuple[int, int]:
    from modules import tito_region_points

    return tito_region_points()["Serbia: Belgrade Axis"]


def test_the_viewer_changes_what_is_checked_for_a_masked_piece(client, files, tmp_path):
    module, _ = files
    visible = [tito_unit(f"de-{n}", f"{n}th Division", "Serbia: Belgrade Axis", {**GERMAN, "Designation": str(n)})
               for n in range(1, 8)]
    save = tito_game(tmp_path / "fog.vsav", [*visible, _masked_german(8, "Axis")], STATE)

    spectator = post(client, save, module=module, api=True).get_json()
    axis = post(client, save, api=True, kept_module=sha256(module), viewer="Axis").get_json()
    yugoslav = post(client, save, api=True, kept_module=sha256(module), viewer="Yugoslav").get_json()

    def stacking(body):
        return [item["message"] for item in body["violations"] if item["case"] == "6.21"]

    assert stacking(spectator) == stacking(yugoslav) == []        # seven divisions: at the limit
    assert len(stacking(axis)) == 1                                 # the Axis player sees the eighth
    assert stacking(axis) == [str(v.message) for v in check_file(save, module, "tito", viewer="Axis").violations
                              if str(v.case) == "6.21"]
    assert "skipped 1 masked from this viewer" in spectator["vassal"]["note"]
    assert "none skipped" in axis["vassal"]["note"]
    assert (axis["vassal"]["viewer"], axis["vassal"]["seen_as"]) == ("Axis", "as seen by the Axis player")

    page = html(client.get(axis["report_url"].removeprefix("http://localhost")))
    assert fact(page, "Seen") == "as seen by the Axis player"


def test_there_is_no_arbiter_view_on_the_web(client, files, instance):
    module, save = files
    response = post(client, save, module=module, arbiter="yes")
    assert response.status_code == 400
    assert "not offered on the web" in error_of(response)
    assert rows(instance, "report") == [] and rows(instance, "vassal_module") == []
    assert html(client.get("/check")).xpath("//*[@name='arbiter']") == []


def _truncated(path: Path) -> bytes:
    data = path.read_bytes()
    return data[: len(data) // 2]


@pytest.mark.parametrize("api", [False, True])
def test_a_corrupt_save_is_a_400_naming_the_file_and_keeps_nothing(client, instance, files, api):
    module, save = files
    response = post(client, _truncated(save), name="broken.vsav", module=module, api=api)
    assert response.status_code == 400
    message = response.get_json()["error"] if api else error_of(response)
    assert message.startswith("broken.vsav: ") and "zip" in message, message
    assert rows(instance, "report") == [] and rows(instance, "vassal_module") == []
    assert uploads(instance) == []


def test_a_corrupt_module_is_a_400_naming_the_module(client, instance, files):
    module, save = files
    response = post(client, save, module=_truncated(module), module_name="half.vmod")
    assert response.status_code == 400
    assert error_of(response).startswith("half.vmod: "), error_of(response)
    not_a_module = io.BytesIO()
    with zipfile.ZipFile(not_a_module, "w") as archive:
        archive.writestr("readme.txt", "hello")
    response = post(client, save, module=not_a_module.getvalue(), module_name="readme.vmod")
    assert error_of(response) == ("readme.vmod: has no buildFile.xml or buildFile entry, so it is not a VASSAL "
                                  "module.")
    assert uploads(instance) == [] and rows(instance, "vassal_module") == []


def test_a_module_for_another_game_is_refused_without_server_paths(client, instance, files, tmp_path):
    _, save = files
    other = TWW.module(tmp_path)
    response = post(client, save, module=other, module_name="tww.vmod")
    assert response.status_code == 400
    message = error_of(response)
    assert message == ("tww.vmod: the module is 'The Third World War (Referee sample module)', but the mapping "
                       "plugin/tito/mappings/vassal-mapping.xml is for the module 'Tito (Referee sample module)'; "
                       "this site checks only saves of modules it has a mapping for, so choose that module or "
                       "check the save with the command line and a mapping drafted for it.")
    assert str(instance) not in message and str(ROOT) not in message
    assert uploads(instance) == [] and rows(instance, "vassal_module") == []


def test_a_save_the_mapping_cannot_read_is_a_400(client, files, tmp_path):
    module, _ = files
    hungarian = tito_unit("hu-1", "1st Hungarian", "Serbia Axis Mountain", {**GERMAN, "Nationality": "Hungarian"})
    save = tito_game(tmp_path / "hu.vsav", [hungarian], STATE)
    message = error_of(post(client, save, module=module))
    mapping = "plugin/tito/mappings/vassal-mapping.xml"
    assert message.startswith(f"hu.vsav: 1 piece cannot be exported with the mapping {mapping}")
    assert "'Hungarian' is not in the table 'nationalities'" in message


def test_a_module_version_the_mapping_does_not_cover_is_refused(client, files, tmp_path):
    _, save = files
    newer = tito_module(tmp_path, version="2.0")
    message = error_of(post(client, save, module=newer))
    assert message == (
        "tito-sample.vmod: the module 'Tito (Referee sample module)' is version 2.0, but the mapping "
        "plugin/tito/mappings/vassal-mapping.xml is for versions 1.0 to 1"
    )


def test_the_viewer_must_be_a_roster_side_when_the_module_has_a_roster(client, files, tmp_path):
    _, save = files
    from modules import tito_region_points

    roster = (
        "<VASSAL.build.module.PlayerRoster><entry>Axis</entry><entry>Yugoslav</entry>"
        "</VASSAL.build.module.PlayerRoster>"
    )
    build = build_file(
        TITO_MODULE_NAME,
        "1.0",
        map_element("Yugoslavia", "Zones", region_grid(tito_region_points()), 900, 900),
        map_element("Turn Track", "Track", region_grid({"Turn 1": (20, 20)}), 400, 60),
        roster,
    )
    module = write_module(tmp_path / "roster.vmod", build, TITO_MODULE_NAME, "1.0")
    response = post(client, save, module=module, viewer="Axsi")
    assert response.status_code == 400
    assert error_of(response) == (
        "The module Tito (Referee sample module)'s player roster has the sides “Axis” and “Yugoslav”; "
        "“Axsi” is not one of them. Leave the viewer empty to check as a spectator."
    )
    response = post(client, save, module=module, viewer="Axis")
    assert response.status_code == 303, error_of(response)
    form = html(client.get("/check"))
    assert form.xpath("//datalist[@id='viewer-sides']/option/@value") == ["Axis", "Yugoslav"]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"game": ""}, "overstacked.vsav: this is a VASSAL save or log; choose its game"),
        ({}, "overstacked.vsav: a VASSAL save is read with its module"),
        ({"kept_module": "7"}, "There is no kept module “7”"),
        ({"kept_module": "0" * 64}, f"There is no kept module “{'0' * 64}”"),
        ({"kept_module": "'; DROP TABLE report"}, "There is no kept module"),
    ],
)
def test_missing_or_unknown_parts_are_400s(client, files, fields, expected):
    _, save = files
    response = post(client, save, **fields)
    assert response.status_code == 400
    assert error_of(response).startswith(expected), error_of(response)


def test_both_a_module_file_and_a_kept_module_is_a_400(client, files):
    module, save = files
    assert post(client, save, module=module).status_code == 303
    response = post(client, save, module=module, kept_module=sha256(module))
    assert response.status_code == 400 and "not both" in error_of(response)


def test_a_module_with_a_referee_xml_save_is_a_400(client, files):
    module, _ = files
    xml = (EXAMPLES / "opening-setup.xml").read_bytes()
    response = post(client, xml, name="opening.xml", module=module)
    assert response.status_code == 400
    assert error_of(response).startswith("opening.xml: a module goes with a VASSAL save")


def test_a_module_over_the_cap_is_a_413_and_leaves_nothing(client, instance, files, monkeypatch):
    module, save = files
    monkeypatch.setattr(kept_modules, "MAX_MODULE_BYTES", 1000)
    response = post(client, save, module=module, api=True)
    assert response.status_code == 413
    assert response.get_json()["error"].startswith("tito-sample.vmod: the module is larger than 1,000 bytes")
    assert uploads(instance) == []


def test_a_log_is_checked_at_its_final_position(client, instance, files, tmp_path):
    module, save = files
    log = tmp_path / "game.vlog"
    log.write_bytes(save.read_bytes())  # a .vlog with no steps is its restore section
    response = post(client, log, module=module)
    assert response.status_code == 303, error_of(response)
    assert rows(instance, "report")[0]["save_file"].endswith(".save.vlog")


def test_the_form_offers_the_vassal_fields(client):
    form = html(client.get("/check")).xpath("//form[@class='check']")[0]
    assert form.xpath(".//input[@type='file']/@name") == ["save", "map", "module"]
    assert form.xpath(".//input[@name='viewer']/@placeholder") == ["a spectator"]
    assert ".vsav" in form.xpath("string(.//input[@name='save']/@accept)")
    assert client.get("/api/modules").get_json() == {"modules": []}


def _rezipped(path: Path, out: Path, **entries: bytes) -> bytes:
    """The zip at ``path`` with some entries replaced or added, written to ``out``; its bytes."""
    with zipfile.ZipFile(path) as archive:
        contents = {name: archive.read(name) for name in archive.namelist()}
    contents.update(entries)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in contents.items():
            archive.writestr(name, data)
    return out.read_bytes()


@pytest.mark.parametrize("api", [False, True])
@pytest.mark.parametrize("choice", ["²", "١", "１", "12345678901234567890", "1²", "1", "１" * 64])
def test_a_kept_module_chosen_by_anything_but_its_hash_is_a_400_not_a_500_nor_module_1(client, files, choice, api):
    # str.isdigit() is true for most of these: "²" once made int() fail (a 500), and "١" was read as module 1.
    # A kept module is now picked by its SHA-256 only, in ASCII hex digits.
    module, save = files
    assert post(client, save, module=module, api=True).status_code == 200  # module 1 is kept, no cookie set
    response = post(client, save, kept_module=choice, api=api)
    assert response.status_code == 400
    message = response.get_json()["error"] if api else error_of(response)
    assert message.startswith(f"There is no kept module “{choice}”; choose one listed in the form"), message


@pytest.mark.parametrize(
    ("old", "new", "attribute"),
    [
        ('edgeWidth="0"', 'edgeWidth="1e999"', 'Map\'s edgeWidth="1e999" is not a finite number'),
        ('edgeHeight="0"', 'edgeHeight="nan"', 'Map\'s edgeHeight="nan" is not a finite number'),
        ('width="840"', 'width="inf"', 'Board\'s width="inf" is not a finite number'),
        ('originx="', 'originx="1e999" x="', 'Region\'s originx="1e999" is not a finite number'),
    ],
)
def test_a_module_with_a_number_it_cannot_mean_is_a_400_naming_module_entry_and_attribute(
    client, instance, files, tmp_path, old, new, attribute
):
    module, save = files
    with zipfile.ZipFile(module) as archive:
        build = archive.read("buildFile.xml").decode()
    assert old in build
    broken = _rezipped(module, tmp_path / "broken.vmod", **{"buildFile.xml": build.replace(old, new, 1).encode()})
    response = post(client, save, module=broken, module_name="odd.vmod", api=True)
    assert response.status_code == 400
    message = response.get_json()["error"]
    assert message.startswith("odd.vmod, entry 'buildFile.xml': line "), message
    assert attribute in message and "bug" not in message
    assert uploads(instance) == [] and rows(instance, "vassal_module") == [] and rows(instance, "report") == []


def test_a_defect_while_reading_a_module_is_a_400_that_says_so(client, instance, files, monkeypatch):
    def broken(path, display_name):
        raise KeyError("a defect in the module reader")

    monkeypatch.setattr(kept_modules, "read_facts", broken)
    module, save = files
    response = post(client, save, module=module, module_name="m.vmod", api=True)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(
        "m.vmod: the file could not be read because Referee failed on it; this is a bug and it has been logged. "
        "Please report it with the module file."
    )
    assert uploads(instance) == []


DATE_SUPERSCRIPT = (
    b"<?xml version='1.0' encoding='UTF-8'?><data version='1'><name>x</name><dateSaved>\xc2\xb2</dateSaved></data>"
)


def test_a_module_whose_moduledata_date_is_no_number_is_read(client, instance, files, tmp_path):
    module, save = files
    with zipfile.ZipFile(module) as archive:
        build = archive.read("buildFile.xml").decode()
        moduledata = archive.read("moduledata").decode()
    # Without a version in the buildFile, the moduledata is read for it, date and all.
    unversioned = build.replace(' version="1.0" VassalVersion', " VassalVersion", 1)
    assert unversioned != build
    odd = _rezipped(
        module,
        tmp_path / "odd.vmod",
        **{
            "buildFile.xml": unversioned.encode(),
            "moduledata": moduledata.replace("</data>", "<dateSaved>²</dateSaved></data>").encode(),
        },
    )
    response = post(client, save, module=odd, module_name="odd.vmod", api=True)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["vassal"]["module"]["version"] == "1.0"


def test_a_save_whose_savedata_date_is_no_number_is_checked(client, files, tmp_path):
    module, save = files
    assert post(client, save, module=module, api=True).status_code == 200
    odd = _rezipped(save, tmp_path / "g.vsav", savedata=DATE_SUPERSCRIPT)
    response = post(client, odd, name="g.vsav", kept_module=sha256(module), api=True)
    assert response.status_code == 200, response.get_json()
    assert [item["case"] for item in response.get_json()["violations"]] == ["6.21", "6.21"]


@pytest.mark.parametrize("api", [False, True])
def test_a_save_whose_saved_game_entry_is_empty_is_refused_and_nothing_is_stored(
    client, instance, files, tmp_path, api
):
    module, save = files
    assert post(client, save, module=module, api=True).status_code == 200
    stored = rows(instance, "report")
    empty = _rezipped(save, tmp_path / "empty.vsav", savedGame=b"")
    response = post(client, empty, name="empty.vsav", kept_module=sha256(module), api=api)
    assert response.status_code == 400
    message = response.get_json()["error"] if api else error_of(response)
    assert message == "empty.vsav, entry 'savedGame': the entry is empty, so the file holds no game."
    assert rows(instance, "report") == stored


def test_a_map_file_sent_with_a_vassal_save_is_refused(client, instance, files):
    module, save = files
    response = post(client, save, module=module, map=(io.BytesIO(b"<map/>"), "my-map.xml"))
    assert response.status_code == 400
    assert error_of(response) == (
        "overstacked.vsav: a VASSAL save is read with the map of its game's module mapping, so the map file "
        "my-map.xml would not be used; leave the map field empty."
    )
    assert rows(instance, "report") == [] and uploads(instance) == []

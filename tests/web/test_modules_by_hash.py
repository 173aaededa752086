"""Kept VASSAL modules are identified by the SHA-256 of their bytes (issue 12.3), and a bare build file is a module.

The attack this guards against: anyone may upload a module that gives the
sample module's name and version.  When modules were kept by name and
version, first come, a later honest upload was checked against that fake and
the wrong verdict was stored.  Here the fake is a real zip built by the
sample builders with the honest module's name and version and its regions
shuffled, so that the same save reads as another position.
"""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path

import pytest

from validator.web import create_app

from .conftest import html, report_id_of, text_of
from .test_check_vassal import ROOT, error_of, post, rows, uploads

sys.path.insert(0, str(ROOT / "tests" / "vassal"))

from modules import (  # noqa: E402
    TITO_MODULE_NAME,
    build_file,
    map_element,
    region_grid,
    tito_module,
    tito_region_points,
    tito_save_from_position,
    write_module,
)
from submitting import check_file  # noqa: E402

from sample_modules import REGION_SPACING, TITO_BOARD, TITO_MAIN_MAP, TITO_TURN_MAP  # noqa: E402

EXAMPLES = ROOT / "examples" / "tito"


def sha256(data: bytes | Path) -> str:
    return hashlib.sha256(data.read_bytes() if isinstance(data, Path) else data).hexdigest()


def fake_module(folder: Path) -> Path:
    """A module with the sample's name and version whose regions are laid out in the reverse order."""
    points = tito_region_points()
    shuffled = dict(zip(points, reversed(list(points.values())), strict=True))
    width = 40 + REGION_SPACING * 20
    height = 40 + REGION_SPACING * (len(points) // 20 + 1)
    build = build_file(
        TITO_MODULE_NAME,
        "1.0",
        map_element(TITO_MAIN_MAP, TITO_BOARD, region_grid(shuffled), width, height),
        map_element(TITO_TURN_MAP, "Track", region_grid({"Turn 1": (20, 20)}), 400, 60),
    )
    return write_module(folder / "fake.vmod", build, TITO_MODULE_NAME, "1.0")


@pytest.fixture
def instance(tmp_path) -> Path:
    return tmp_path / "instance"


@pytest.fixture
def client(instance):
    return create_app({"TESTING": True, "INSTANCE": str(instance), "SECRET_KEY": "test-only"}).test_client()


@pytest.fixture
def modules(tmp_path):
    """(honest module, fake module, the overstacked example as a .vsav)."""
    folder = tmp_path / "modules"
    folder.mkdir()
    honest = tito_module(folder)
    fake = fake_module(folder)
    save = tito_save_from_position(EXAMPLES / "overstacked.xml", folder / "overstacked.vsav")
    return honest, fake, save


def verdict(report_json: dict) -> list[tuple[str, str]]:
    return [(item["case"], item["message"]) for item in report_json["violations"]]


def expected_verdict(save: Path, module: Path) -> list[tuple[str, str]]:
    return [(str(violation.case), violation.message) for violation in check_file(save, module, "tito").violations]


def stored_report(client, response) -> dict:
    assert response.status_code == 303, error_of(response)
    return client.get(f"/reports/{report_id_of(response)}.json").get_json()


def test_an_honest_upload_after_a_fake_of_the_same_name_is_checked_against_its_own_bytes(client, instance, modules):
    honest, fake, save = modules
    assert expected_verdict(save, fake) != expected_verdict(save, honest)  # the fake would change the verdict

    faked = stored_report(client, post(client, save, module=fake, module_name="tito-sample.vmod"))
    assert verdict(faked) == expected_verdict(save, fake)

    checked = stored_report(client, post(client, save, module=honest, module_name="tito-sample.vmod"))
    assert verdict(checked) == expected_verdict(save, honest)
    assert checked["checked_with"]["module_sha256"] == checked["vassal"]["module"]["sha256"] == sha256(honest)
    assert faked["checked_with"]["module_sha256"] == sha256(fake)
    note = checked["vassal"]["note"]
    assert f"another kept module gives the same name and version with other bytes (SHA-256 {sha256(fake)[:12]}…)" \
        in note
    assert "checked against the bytes uploaded with it" in note

    kept = rows(instance, "vassal_module")
    assert sorted((row["name"], row["version"], row["sha256"]) for row in kept) == sorted(
        [(TITO_MODULE_NAME, "1.0", sha256(fake)), (TITO_MODULE_NAME, "1.0", sha256(honest))])
    for row in kept:
        assert (instance / "uploads" / row["file"]).read_bytes() == (fake if row["sha256"] == sha256(fake)
                                                                      else honest).read_bytes()
    stored = {row["module_sha256"] for row in rows(instance, "report")}
    assert stored == {sha256(fake), sha256(honest)}


def test_two_modules_of_one_name_and_version_are_listed_apart_by_hash(client, modules):
    honest, fake, save = modules
    for module in (fake, honest):
        assert post(client, save, module=module).status_code == 303

    listed = client.get("/api/modules").get_json()["modules"]
    assert sorted(entry["sha256"] for entry in listed) == sorted([sha256(fake), sha256(honest)])
    assert {(entry["name"], entry["version"], entry["game"]) for entry in listed} == {(TITO_MODULE_NAME, "1.0", "tito")}

    options = html(client.get("/check?game=tito")).xpath("//select[@name='kept_module']//option[@value!='']")
    assert sorted(option.get("value") for option in options) == sorted([sha256(fake), sha256(honest)])
    labels = [text_of(option) for option in options]
    assert len(set(labels)) == 2
    for option, label in zip(options, labels, strict=True):
        assert label.startswith(f"{TITO_MODULE_NAME}, version 1.0, SHA-256 {option.get('value')[:12]}…")


def test_a_check_uses_the_module_picked_by_its_hash(client, modules):
    honest, fake, save = modules
    for module in (fake, honest):
        assert post(client, save, module=module).status_code == 303

    for module in (honest, fake):
        picked = stored_report(client, post(client, save, kept_module=sha256(module)))
        assert verdict(picked) == expected_verdict(save, module)
        assert picked["checked_with"]["module_sha256"] == sha256(module)
    upper = stored_report(client, post(client, save, kept_module=sha256(honest).upper()))
    assert upper["checked_with"]["module_sha256"] == sha256(honest)

    prefix = post(client, save, kept_module=sha256(honest)[:12])
    assert prefix.status_code == 400
    assert error_of(prefix).startswith(f"There is no kept module “{sha256(honest)[:12]}”")
    by_name = post(client, save, kept_module=TITO_MODULE_NAME)
    assert by_name.status_code == 400


def test_a_bare_build_file_is_a_module_as_on_the_command_line(client, instance, modules, tmp_path):
    honest, _, save = modules
    with zipfile.ZipFile(honest) as archive:
        bare = archive.read("buildFile.xml")
    bare_path = tmp_path / "buildFile.xml"
    bare_path.write_bytes(bare)

    checked = stored_report(client, post(client, save, module=bare, module_name="buildFile.xml"))
    assert verdict(checked) == expected_verdict(save, bare_path) == expected_verdict(save, honest)
    assert checked["vassal"]["module"]["sha256"] == checked["vassal"]["module"]["build_file_sha256"] == sha256(bare)
    assert checked["checked_with"]["module_sha256"] == sha256(bare)

    [kept] = rows(instance, "vassal_module")
    assert kept["file"].startswith("module-") and kept["file"].endswith(".buildFile.xml")
    assert (instance / "uploads" / kept["file"]).read_bytes() == bare
    [listed] = client.get("/api/modules").get_json()["modules"]
    assert listed["bare_build_file"] is True and listed["uploaded_as"] == "buildFile.xml"
    option = html(client.get("/check")).xpath("//select[@name='kept_module']//option[@value!='']")[0]
    assert text_of(option).startswith(f"{TITO_MODULE_NAME}, version 1.0, SHA-256 {sha256(bare)[:12]}…, a bare "
                                      "build file, uploaded as “buildFile.xml”")

    again = stored_report(client, post(client, save, kept_module=sha256(bare)))
    assert verdict(again) == verdict(checked)


def test_a_vmod_keeps_its_build_file_hash_beside_its_own(client, instance, modules):
    honest, _, save = modules
    assert post(client, save, module=honest).status_code == 303
    with zipfile.ZipFile(honest) as archive:
        build_hash = sha256(archive.read("buildFile.xml"))
    [kept] = rows(instance, "vassal_module")
    assert (kept["sha256"], kept["build_file_sha256"]) == (sha256(honest), build_hash)
    assert kept["file"].endswith(".vmod")
    [listed] = client.get("/api/modules").get_json()["modules"]
    assert (listed["sha256"], listed["build_file_sha256"], listed["bare_build_file"]) == (
        sha256(honest), build_hash, False)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"this is not a module", "notes.txt: its XML cannot be used at line 1"),
        (b"<?xml version='1.0'?><VASSAL.build.GameModule version='1.0'/>", "notes.txt: the build file gives the "
                                                                          "module no name"),
    ],
)
def test_a_file_that_is_neither_a_vmod_nor_a_build_file_is_a_400_and_keeps_nothing(client, instance, modules,
                                                                                    data, expected):
    _, _, save = modules
    response = post(client, save, module=data, module_name="notes.txt")
    assert response.status_code == 400
    assert error_of(response).startswith(expected), error_of(response)
    assert uploads(instance) == [] and rows(instance, "vassal_module") == [] and rows(instance, "report") == []


def test_a_kept_file_that_no_longer_holds_its_bytes_gives_no_verdict_and_an_upload_of_them_is_checked(
    client, instance, modules
):
    honest, fake, save = modules
    assert post(client, save, module=honest).status_code == 303
    [kept] = rows(instance, "vassal_module")
    (instance / "uploads" / kept["file"]).write_bytes(fake.read_bytes())  # changed on the server's disk
    reports_before = rows(instance, "report")

    response = post(client, save, kept_module=sha256(honest))
    assert response.status_code == 400
    assert error_of(response) == (
        f"The kept module {TITO_MODULE_NAME}, version 1.0 (SHA-256 {sha256(honest)[:12]}…) is no longer the file it "
        "was kept as, so no verdict is given with it; upload the module file with the save instead, and tell the "
        "site's keeper, whose log names the file."
    )
    assert rows(instance, "report") == reports_before

    checked = stored_report(client, post(client, save, module=honest))  # the upload itself is read
    assert verdict(checked) == expected_verdict(save, honest)
    assert checked["checked_with"]["module_sha256"] == sha256(honest)
    assert "this upload was checked and not kept again" in checked["vassal"]["note"]
    assert len(rows(instance, "vassal_module")) == 1
    assert sum(name.startswith("module-") for name in uploads(instance)) == 1

"""A module's prototype holding a list past the ``list_items`` limit is refused with that limit's sentence."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from validator.web import create_app

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "vassal"))
from modules import tito_module, tito_save_from_position  # noqa: E402

PATHS_OF_GLORY = Path("/work/shared/vassal-corpus/paths-of-glory/buildFile.xml")


def prototype_of_images(count: int) -> bytes:
    """A prototype whose layer lists ``count`` images."""
    images = ",".join(f"i{index}.png" for index in range(count))
    text = "+/null/emb2;" + ";".join(["x"] * 15) + ";" + images + ";n;n;n\tpiece;;;img.png;Partisan/"
    return (b"<VASSAL.build.module.PrototypesContainer><VASSAL.build.module.PrototypeDefinition name=\"crowded\">"
            + text.encode() + b"</VASSAL.build.module.PrototypeDefinition></VASSAL.build.module.PrototypesContainer>")


def crowded_build_file(folder: Path, images: int) -> bytes:
    with zipfile.ZipFile(tito_module(folder)) as archive:
        build = archive.read("buildFile.xml")
    closing = b"</VASSAL.build.GameModule>"
    return build.replace(closing, prototype_of_images(images) + closing)


def test_the_command_line_refuses_a_module_list_past_list_items(tmp_path, run_cli):
    path = tmp_path / "buildFile.xml"
    path.write_bytes(crowded_build_file(tmp_path, 5))
    code, out, err = run_cli("vassal", "module", path, "--limit", "list_items=3")
    assert code == 2 and "Traceback" not in err
    assert "the prototype 'crowded'" in err and "more than the list_items limit of 3" in err


def test_a_corpus_module_past_list_items_is_refused(run_cli):
    if not PATHS_OF_GLORY.is_file():
        pytest.skip("the VASSAL corpus is not on this machine")
    code, out, err = run_cli("vassal", "module", PATHS_OF_GLORY, "--limit", "list_items=3")
    assert code == 2 and "more than the list_items limit of 3" in err and "Traceback" not in err


def test_the_web_refuses_a_bare_build_file_of_too_many_images(tmp_path):
    from tests.web.test_check_vassal import error_of, post

    client = create_app({"TESTING": True, "INSTANCE": str(tmp_path / "instance"),
                         "SECRET_KEY": "test-only"}).test_client()
    save = tito_save_from_position(ROOT / "examples" / "tito" / "overstacked.xml", tmp_path / "overstacked.vsav")
    response = post(client, save, module=crowded_build_file(tmp_path, 10_001), module_name="buildFile.xml")
    assert response.status_code == 400
    assert "more than the list_items limit" in error_of(response), error_of(response)

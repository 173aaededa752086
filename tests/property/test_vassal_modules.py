"""VASSAL modules, damaged: a .vmod zip and a bare buildFile are read or refused with an input error.

The zip's bytes are damaged, and so is its buildFile's XML (elements
dropped, repeated, reordered or moved; grid numbers, offsets and sizes
changed to values past their edges), in a good zip and as a bare file.  A
damaged module is also used: its game's sample save is read and translated
with it, so the grids number the pieces' places with the damaged figures.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from validator.intake import Reading, Submission, read_submission
from validator.saves.vassal.module import Module, read_module

from tests.property.mutations import byte_mutations, mutations, xml_mutations
from tests.property.reading import read_or_refuse
from tests.property.vassal_samples import build_file, modules, saves, zipped

FOLDER = Path(tempfile.mkdtemp(prefix="referee-property-modules-"))


def _read(name: str, data: bytes):
    path = FOLDER / name
    path.write_bytes(data)
    return read_or_refuse(read_module, path, expected=Module)


def test_the_sample_modules_are_read():
    assert len(modules()) == 3
    for module in modules():
        assert read_module(module).maps


@given(st.sampled_from(modules()).flatmap(lambda module: byte_mutations(module.read_bytes())))
def test_a_damaged_module_zip_is_read_or_refused(data):
    _read("damaged.vmod", data)


@given(st.sampled_from(modules()).flatmap(lambda module: mutations(build_file(module))))
def test_a_damaged_build_file_is_read_or_refused_in_a_zip_and_bare(data):
    _read("zipped.vmod", zipped({"buildFile.xml": data}))
    _read("buildFile.xml", data)


@given(st.sampled_from(saves()).flatmap(
    lambda sample: st.tuples(st.just(sample), xml_mutations(build_file(sample[2])))))
def test_a_save_read_with_a_damaged_module_is_translated_or_refused(damaged):
    (game, save, _module), data = damaged
    module = FOLDER / f"damaged-{game}.vmod"
    module.write_bytes(zipped({"buildFile.xml": data}))
    submission = Submission(save=save.read_bytes(), name=save.name, game=game, module=module)
    read_or_refuse(read_submission, submission, expected=Reading)

"""The shipped VASSAL samples in examples/vassal/ are what build_samples.py writes today."""

import zipfile
from pathlib import Path

from build_samples import HERE, build

SAMPLE_SUFFIXES = {".vmod", ".vsav", ".vlog"}


def entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_committed_samples_equal_a_fresh_build(tmp_path):
    built = build(tmp_path)
    shipped = sorted(path.name for path in HERE.iterdir() if path.suffix in SAMPLE_SUFFIXES)
    assert shipped == sorted(path.name for path in built), "rebuild with: python examples/vassal/build_samples.py"
    for path in built:
        assert entries(HERE / path.name) == entries(path), (
            f"examples/vassal/{path.name} is stale; rebuild with: python examples/vassal/build_samples.py"
        )


def test_building_twice_gives_the_same_bytes(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    assert [path.read_bytes() for path in build(first)] == [path.read_bytes() for path in build(second)]

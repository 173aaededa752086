"""Where Referee's shipped files live, installed or in a source checkout.

``templates/`` and ``schemas/`` sit at the top of the source tree; setup.cfg
maps them into the data packages ``referee_templates`` and
``referee_schemas`` so that a plain ``pip install .`` carries them.  This is
the one place that knows both layouts.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _data_dir(package: str, folder: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return _SOURCE_ROOT / folder


def templates_dir() -> Path:
    return _data_dir("referee_templates", "templates")


def schemas_dir() -> Path:
    return _data_dir("referee_schemas", "schemas")


def static_dir() -> Path:
    return Path(__file__).resolve().parent / "web" / "static"

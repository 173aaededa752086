"""The limits a check of an upload is read under: the site's own, smaller than the command line's.

They are ``[web.limits]`` of the instance's settings file over
:data:`validator.limits.WEB_LIMITS` (docs/limits.md), read again when the
file changes.  A refusal that names one of them says it is the site's limit
(:func:`validator.limits.with_site_note`), never how to raise it on the
command line: a visitor cannot, and the sentence is all they see.
"""

from __future__ import annotations

from pathlib import Path

from flask import current_app

from validator import settings
from validator.limits import Limits


def in_force() -> Limits:
    """The web limits of the instance this app serves."""
    return settings.load(Path(current_app.instance_path)).limits(web=True)

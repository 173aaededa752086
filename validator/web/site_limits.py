"""The limits a check of an upload is read under: the site's own, smaller than the command line's.

They are ``[web.limits]`` of the instance's settings file over
:data:`validator.limits.WEB_LIMITS` (docs/limits.md), read again when the
file changes.  A refusal that names one of them says it is the site's limit
(:func:`validator.limits.with_site_note`), never how to raise it on the
command line: a visitor cannot, and the sentence is all they see.
"""

from __future__ import annotations

from pathlib import Path

from flask import abort, current_app

from validator import settings
from validator.limits import Limits

SETTINGS_BROKEN = ("This site cannot check files just now, as its settings need repair; try again later. "
                   "(The site's keeper finds the reason in its log.)")


def in_force() -> Limits:
    """The web limits of the instance this app serves; a settings file broken since start-up is a 503.

    The reason names a file on the server, so it goes to the log, never to
    the visitor.
    """
    try:
        return settings.load(Path(current_app.instance_path)).limits(web=True)
    except settings.SettingsError as error:
        current_app.logger.error("Checks are refused until the settings file is repaired: %s", error)
        abort(503, description=SETTINGS_BROKEN)

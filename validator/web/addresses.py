"""Permanent addresses: a report's address is built from the site's own name, never from what a request claims.

A report page shows, and the API returns, the report's absolute address,
which users keep and share.  Built from the request's ``Host`` header, it
would point wherever a forged request says.  So the ``[web]`` table of the
settings file says what the site is called:

- ``base_url``: the public address of the site (``"https://referee.example.org"``,
  with its path when the app is served below one); when set, every absolute
  address starts with it, whatever the request says;
- ``trusted_hosts``: the host names the app answers to (a leading dot admits
  every subdomain: ``".example.org"``); a request for any other host is a 400
  before any page is built.  When it is not set, the app answers only to the
  local names (``localhost``, ``127.0.0.1``) and the host of
  ``base_url``: a site on the network must name itself.

Flask checks the ``Host`` header against its ``TRUSTED_HOSTS`` setting,
which this module fills.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, request, url_for
from werkzeug.exceptions import SecurityError

from validator import settings
from validator.web import errors

LOCAL_HOSTS = ("localhost", "127.0.0.1")  # Werkzeug cannot match a bracketed IPv6 host (docs/deploying.md)
UNTRUSTED_HOST = (
    "This site does not answer to the host name the request gave; use the site's own address. (A site's keeper "
    "lists the names it answers to in [web] trusted_hosts of its settings file.)"
)


def init_app(app: Flask, web: Mapping[str, object], source: object) -> None:
    """Fill ``BASE_URL`` and ``TRUSTED_HOSTS`` from the ``[web]`` table (``source``: the settings file)."""
    base_url = _checked_base_url(web.get("base_url"), source)
    hosts = list(web.get("trusted_hosts", LOCAL_HOSTS))
    if base_url:
        hosts.append(urlsplit(base_url).hostname)
    app.config.setdefault("BASE_URL", base_url)
    if app.config.get("TRUSTED_HOSTS") is None:  # Flask's default, None, trusts every host
        app.config["TRUSTED_HOSTS"] = hosts
    app.register_error_handler(SecurityError, untrusted_host)
    app.jinja_env.globals["permanent_url"] = permanent_url


def permanent_url(endpoint: str, **values: object) -> str:
    """The absolute address of a page: under ``BASE_URL`` when one is set, else under the (trusted) host asked."""
    base_url = current_app.config.get("BASE_URL")
    if not base_url:
        return url_for(endpoint, _external=True, **values)
    return base_url + url_for(endpoint, **values).removeprefix(request.script_root)


def site_root() -> str:
    """The site's absolute address without a trailing slash, for turning a page's path into a permanent address."""
    return current_app.config.get("BASE_URL") or request.url_root.rstrip("/")


def untrusted_host(_error: SecurityError):
    """A 400 for a host the site does not answer to; plain, since no address can be built for this request."""
    if errors.wants_json():
        return jsonify(error=UNTRUSTED_HOST), 400
    return UNTRUSTED_HOST + "\n", 400, {"Content-Type": "text/plain; charset=utf-8"}


def _checked_base_url(value: object, source: object) -> str | None:
    if not value:
        return None
    parts = urlsplit(str(value))
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise settings.SettingsError(
            source, f"[web] base_url must be the site's address, such as \"https://referee.example.org\" (http or "
                    f"https, a host, a path if the site is served below one, no query), not {value!r}")
    return str(value).rstrip("/")

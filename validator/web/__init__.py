"""The Flask companion app: rulebooks as hyperlinked reference pages, and position checks.

``create_app`` follows Flask's tutorial factory.  Each module joins the app
through ``init_app(app)``; the pages live in blueprints.  ``flask --app
validator.web run`` finds the factory by its name.
"""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from flask import Flask
from markupsafe import Markup
from werkzeug.middleware.proxy_fix import ProxyFix

from validator import instance, paths, privacy, settings, storage
from validator.errors import InputError
from validator.wording import plural, verb_for

SECRET_KEY_VARIABLE = instance.SECRET_KEY_VARIABLE

# The whole request: a save (at most 32 MB, the reader's own cap) with either its map (at
# most 32 MB) or, for a VASSAL save, its module (at most 64 MB, validator.web.kept_modules),
# plus 1 MB for the other fields.  Each part is capped again on its own as it is read.
MAX_UPLOAD_BYTES = (32 + 64 + 1) * 1024 * 1024

# Pages need nothing but our own stylesheet: no scripts, no frames, no inline styles.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; ``test_config`` may name its own INSTANCE folder or DATABASE file."""
    config = dict(test_config or {})
    instance_path = _instance_path(config)
    app = Flask(
        __name__,
        instance_path=str(instance_path),
        template_folder=str(paths.templates_dir()),
        static_folder=str(paths.static_dir()),
    )
    app.config.from_mapping(
        DATABASE=str(instance.database_target(instance_path)),
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        # The session holds the CSRF token (validator.web.csrf) and a signed-in arbiter's name
        # (validator.web.arbiters, which also marks it Secure on requests made over HTTPS).
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    app.config.update(config)
    site_settings = settings.load(instance_path)
    app.config.setdefault("STORAGE", storage.StorageSettings(**site_settings.table(storage.TABLE)))
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance.given_secret_key() or instance.secret_key(instance_path)

    # Block tags leave no blank lines behind, so pages stay compact to read and send.
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.finalize = _shown

    from validator.web import (
        addresses,
        arbiters,
        arbitration,
        case_file_records,
        checking,
        csrf,
        database,
        errors,
        home,
        house_rules,
        library,
        markup,
        reports,
        rules,
        search,
        uploads,
    )

    addresses.init_app(app, site_settings.table("web"), site_settings.path)
    _trust_proxies(app, site_settings.table("web").get("proxy_count", 0))
    database.init_app(app)
    library.init_app(app)
    markup.init_app(app)
    errors.init_app(app)
    csrf.init_app(app)
    arbiters.init_app(app)
    arbitration.init_app(app)
    app.register_blueprint(arbiters.blueprint)
    app.register_blueprint(arbitration.blueprint)
    app.register_blueprint(home.blueprint)
    app.register_blueprint(house_rules.blueprint)
    app.register_blueprint(case_file_records.blueprint)
    app.register_blueprint(checking.blueprint)
    app.register_blueprint(reports.blueprint)
    app.register_blueprint(rules.blueprint)
    app.register_blueprint(search.blueprint)
    app.before_request(uploads.refuse_past_storage_caps)
    app.after_request(_add_security_headers)
    if app.config["STORAGE"].clean_on_start:
        _remove_orphans(app)
    return app


def _instance_path(config: dict) -> Path:
    """The instance folder: given, next to a given SQLite file, or the user's own (also for a database URL)."""
    if config.get("INSTANCE"):
        path = Path(config["INSTANCE"]).resolve()
        instance.make_private_folders(path)
        return path
    if config.get("DATABASE") and "://" not in str(config["DATABASE"]):
        return Path(config["DATABASE"]).resolve().parent
    return instance.folder().resolve()


def _shown(value: object) -> object:
    """Every text a page prints, with any e-mail address withheld, as the JSON withholds it (validator.privacy).

    Jinja calls this on each ``{{ ... }}`` value before escaping it, so a
    player's comment, an upload's file name or anything else typed by someone
    is shown without their address on every page, whatever template prints
    it.  Markup (HTML the app built itself: rulebook text, pictures) is left
    as it is.
    """
    if isinstance(value, str) and not isinstance(value, Markup):
        return privacy.without_addresses(value)
    return value


def _trust_proxies(app: Flask, proxy_count: int) -> None:
    """Behind ``[web] proxy_count`` proxies, take the client's address and scheme from their X-Forwarded headers.

    Each proxy appends the address it was reached from to ``X-Forwarded-For``;
    only the last ``proxy_count`` entries were written by proxies of the site,
    so the client is the one they name, and anything a client wrote before them
    is ignored.  With no proxy (0, the default) the headers are ignored whole:
    anyone could send them.  The per-client limits (validator.web.arbiters'
    ``client_address``) and the session cookie's ``Secure`` mark
    (``request.is_secure``) depend on it.  The host is not taken from the
    headers: the proxy passes ``Host`` on, and validator.web.addresses checks it.
    """
    if proxy_count:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxy_count, x_proto=proxy_count, x_host=0, x_port=0,
                                x_prefix=0)
    if (app.config.get("BASE_URL") or "").startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True  # a site served over HTTPS never sends its session in the clear


def _remove_orphans(app: Flask) -> None:
    """At start-up (``[storage] clean_on_start``): remove the upload files no row names, past the grace period."""
    from validator import maintenance, store

    folder = Path(app.instance_path) / instance.UPLOADS_NAME
    try:
        with closing(store.connect(app.config["DATABASE"])) as connection:
            cleaning = maintenance.clean(connection, folder, app.config["STORAGE"].orphan_grace_seconds)
    except InputError as error:
        app.logger.warning("Cleaning the uploads folder at start-up was skipped: %s", error)
        return
    if cleaning.orphans:
        removed = len(cleaning.orphans)
        app.logger.warning("At start-up, %s no database row names %s removed from %s (%s bytes).",
                           plural(removed, "file"), verb_for(removed, "was", "were"), folder,
                           f"{cleaning.freed_bytes:,}")


def _add_security_headers(response):
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    return response

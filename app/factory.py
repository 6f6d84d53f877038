"""Builds the Flask app (called lazily by app.create_app so the CLI never imports Flask)."""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.middleware.proxy_fix import ProxyFix

from app import commands, db, security, user_commands
from app.accounts import account_pages as account
from app.accounts import auth, login_pages, prefs
from app.accounts import user_pages as users
from app.api import analysis as api_analysis
from app.api import calls as api_calls
from app.api import events as api_events
from app.api import v1
from app.config import load_config
from app.events import pages as events
from app.games.entry import hand_pages as hands
from app.games.entry import offline_pages as offline
from app.games.referee import hand_pages as hand_record
from app.games.referee import trick_pages as referee
from app.games.sheet import fast_poll, live, share
from app.games.sheet import pages as games
from app.games.table import call_pages as calls
from app.games.table import pages as table
from app.i18n import init_babel
from app.players import pages as players
from app.printing import views as printing
from app.rulebook import pages as rules
from app.stats import rating_backlog
from app.stats import season_pages as seasons
from app.web import errors, site
from app.web.messages import init_messages
from app.web.referee_words import init_referee_words
from app.web.words import init_words


def build_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask("app", instance_relative_config=True,
                template_folder="../templates", static_folder="../static")
    load_config(app.config, app.instance_path, test_config)
    proxies = int(app.config.get("PROXY_COUNT") or 0)
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,  # type: ignore[method-assign]
                                x_host=proxies)
    security.init_app(app)

    CSRFProtect(app)       # app.extensions['csrf']: the API checks session writes with it
    init_babel(app)
    init_words(app)
    init_referee_words(app)
    init_messages(app)
    db.init_app(app)
    errors.init_app(app)
    commands.init_app(app)
    user_commands.init_app(app)

    auth.init_app(app)

    for module in (login_pages, games, hands, offline, live, players, prefs, referee, hand_record, seasons,
                   site, rules, share, table, users, account, events, calls):
        app.register_blueprint(module.bp)

    printing.init_app(app, build_app)   # a bulk export's render processes build their apps with it

    v1.init_app(app)    # token requests need no CSRF; session ones do (v1._csrf_for_sessions)
    api_events.init_app(app)
    api_analysis.init_app(app)
    api_calls.init_app(app)
    fast_poll.init_app(app)     # outermost: "nothing changed" before Flask is entered
    _resume_ratings(app)
    return app


def _resume_ratings(app: Flask) -> None:
    """Ratings left behind by a stopped process are brought up to date (issue 41)."""
    try:
        rating_backlog.resume(db.get_db(app).engine)
    except SQLAlchemyError as e:        # a database away or not migrated: the next save resumes it
        app.logger.warning("ratings: could not look for a backlog at start-up: %s", e.__class__.__name__)

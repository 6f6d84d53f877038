"""``flask --app app user create|passwd|list|token|revoke``: the club's accounts from the command line.

Passwords are read from standard input (without echo when it is a terminal), never from
the command line, where other users of the machine and the shell history would see them.
A new API token is the only thing ``user token`` writes to standard output (so it can be
piped into a file or a secret store); what it says about it goes to standard error.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from flask_babel import force_locale

from app.accounts import accounts, tokens
from app.db import get_session
from app.errors import BadInput
from app.models import Role

user_cli = AppGroup("user", help="Accounts: create users, change a password, list them, "
                                  "make an API token.")


#: At most this much of standard input is read for a password (a longer line is refused
#: by the password's own rule; a 50 MB line is never held in memory).
LINE_MAX = 1024


def _read_password(prompt: str) -> str:
    if sys.stdin.isatty():
        first = click.prompt(prompt, hide_input=True, default="", show_default=False)
        again = click.prompt("Again", hide_input=True, default="", show_default=False)
        if first != again:
            raise click.ClickException("the two passwords differ")
        return str(first)
    line = sys.stdin.readline(LINE_MAX + 1)
    if len(line.rstrip("\r\n")) > LINE_MAX:
        raise click.ClickException(f"the password line is longer than {LINE_MAX} characters")
    return line.rstrip("\r\n")


@contextmanager
def _english() -> Iterator[None]:
    """The services' messages (translated for the pages) in English on the command line."""
    with current_app.test_request_context(), force_locale("en"):
        yield


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


@user_cli.command("create")
@click.argument("name")
@click.option("--role", type=click.Choice([r.value for r in Role]), required=True,
              help="director (every game, corrections, users), scorer (their games), "
                   "player (reads, confirms)")
@click.option("--player", default=None, help="the roster player this user is (confirms that seat)")
def create(name: str, role: str, player: str | None) -> None:
    """Create user NAME; the password is read from standard input."""
    password = _read_password("Password")
    try:
        with _english():
            user = accounts.create_user(get_session(), name, password, role, player=player)
    except BadInput as e:
        _fail(f"{e.field}: {e.message}")
    else:
        click.echo(f"created {user.username} ({user.role.value})")


@user_cli.command("passwd")
@click.argument("name")
def passwd(name: str) -> None:
    """Change the password of user NAME (read from standard input)."""
    password = _read_password("New password")
    try:
        with _english():
            accounts.set_password(get_session(), name, password)
    except BadInput as e:
        _fail(f"{e.field}: {e.message}")
    else:
        click.echo(f"password of {name} changed")


@user_cli.command("list")
def list_users() -> None:
    """Every user: name, role, linked player."""
    for user in accounts.list_users(get_session()):
        linked = f"  player: {user.player.name}" if user.player else ""
        click.echo(f"{user.username}\t{user.role.value}{linked}")


@user_cli.command("token")
@click.argument("name")
@click.option("--label", default=None,
              help="what the token is for, to tell it apart later (default: API)")
def token(name: str, label: str | None) -> None:
    """A new API token of user NAME, printed once (only the token, on standard output)."""
    session = get_session()
    user = accounts.find_user(session, name)
    if user is None:
        _fail(f"There is no user {name}.")
    try:
        made, secret = tokens.create_token(session, user, label)
    except BadInput as e:
        _fail(f"{e.field}: {e.message}")
    else:
        click.echo(f"token {made.label!r} of {user.username} ({user.role.value}), {made.prefix}…: "
                   "shown only once, it cannot be read again. Send it as "
                   "'Authorization: Bearer <token>'.", err=True)
        click.echo(secret)


@user_cli.command("revoke")
@click.argument("name")
def revoke(name: str) -> None:
    """Revokes every API token of user NAME (the API refuses them from then on)."""
    session = get_session()
    user = accounts.find_user(session, name)
    if user is None:
        _fail(f"There is no user {name}.")
    n = tokens.revoke_all(session, user.id)
    session.commit()
    click.echo(f"{n} API token(s) of {user.username} revoked.")


def init_app(app: Flask) -> None:
    app.cli.add_command(user_cli)

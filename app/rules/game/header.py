"""Reading a record's top level (RECORD.md): format, profile, options, players, first seat."""
from __future__ import annotations

from typing import Any

from app.rules.errors import InputError
from app.rules.game.record import FORMAT, TOP_KEYS, check_keys, need_list, need_seat, need_str, type_name
from app.rules.limits import check_name, check_value
from app.rules.profiles import Options, Profile, get_profile


def read_header(data: object) -> tuple[Profile, Options, list[str], int, dict[str, Any]]:
    """The record's top level read and checked: profile, options, players, first seat and
    the canonical header (the hands left empty)."""
    if not isinstance(data, dict):
        raise InputError.of("record", "type", "must be a JSON object, not %(got)s",
                            got=type_name(data))
    check_value(data)
    top = data
    _check_format(top)
    if "profile" not in top:
        raise InputError.of("profile", "missing-key", "missing (ru32, fiestas, subastas or rifki)")
    profile = get_profile(top["profile"])
    check_keys(top, TOP_KEYS + (profile.seat_key,), "")
    options = profile.parse_options(top.get("options"))
    players = _players(top)
    first = _first_seat(top, profile.seat_key)
    if "hands" not in top:
        raise InputError.of("hands", "missing-key", "missing (an empty list for a new game)")
    need_list(top["hands"], "hands")
    canonical: dict[str, Any] = {}
    for key in top:
        if key == "hands":
            canonical[key] = []
        elif key == "players":
            canonical[key] = list(players)
        elif key == "options":
            canonical[key] = dict(top[key])
        else:
            canonical[key] = top[key]
    return profile, options, players, first, canonical


def _check_format(top: dict[str, Any]) -> None:
    if "format" not in top:
        raise InputError.of("format", "missing-key",
                            'missing; a record starts with "format": "%(format)s"', format=FORMAT)
    if top["format"] != FORMAT:
        raise InputError.of("format", "format",
                            '%(value)r is not a supported format (expected "%(format)s")',
                            value=top["format"], format=FORMAT)


def _players(top: dict[str, Any]) -> list[str]:
    """Four distinct names, in normal form C."""
    if "players" not in top:
        raise InputError.of("players", "missing-key", "missing: four names in seat order")
    players_raw = need_list(top["players"], "players", "names")
    if len(players_raw) != 4:
        raise InputError.of("players", "players", "a game has four players, not %(n)s",
                            n=len(players_raw))
    players: list[str] = []
    for k, name in enumerate(players_raw):
        name = check_name(need_str(name, f"players[{k}]", nonempty=True), f"players[{k}]")
        if name in players:
            raise InputError.of(f"players[{k}]", "players", '"%(name)s" is already seat %(seat)s',
                                name=name, seat=players.index(name))
        players.append(name)
    return players


def _first_seat(top: dict[str, Any], seat_key: str) -> int:
    if seat_key not in top:
        if seat_key == "first_chooser":
            raise InputError.of(seat_key, "missing-key", "missing: the seat holding the 2♦ (0-3)")
        raise InputError.of(seat_key, "missing-key", "missing: the first dealer (0-3)")
    return need_seat(top[seat_key], seat_key)


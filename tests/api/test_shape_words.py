"""A request of the wrong shape is refused naming its field in the request's language
(issue 41): marshmallow's own English messages are said through the catalogs, their
numbers and choices kept."""
from __future__ import annotations

from typing import Any

import pytest
from marshmallow import Schema, ValidationError, fields, validate

from app.api.shapes import shape_words


class Every(Schema):
    n = fields.Integer(required=True, validate=validate.Range(min=1, max=100))
    lo = fields.Integer(validate=validate.Range(min=1))
    hi = fields.Integer(validate=validate.Range(max=9))
    name = fields.String(validate=validate.Length(min=1, max=60))
    short = fields.String(validate=validate.Length(max=3))
    long = fields.String(validate=validate.Length(min=5))
    four = fields.List(fields.String(), validate=validate.Length(equal=4))
    kind = fields.String(validate=validate.OneOf(["a", "b"]))
    pin = fields.String(validate=validate.Regexp(r"^\d{4}$"))
    flag = fields.Boolean()
    nothing = fields.String(allow_none=False)


BAD = {"n": "x", "lo": 0, "hi": 10, "name": "", "short": "abcd", "long": "ab", "four": ["a"],
       "kind": "c", "pin": "12", "flag": "maybe", "nothing": None, "extra": 1}
SPANISH = {"n": "No es un número entero.", "lo": "Debe ser como mínimo 1.", "hi": "Debe ser como máximo 9.",
           "name": "La longitud debe estar entre 1 y 60.", "short": "Como mucho 3 de longitud.",
           "long": "Como mínimo 5 de longitud.", "four": "La longitud debe ser 4.",
           "kind": "Debe ser uno de: a, b.", "pin": "No tiene la forma esperada.",
           "flag": "No es el tipo de valor esperado.", "nothing": "No puede estar vacío (null).",
           "extra": "Campo desconocido."}


def messages() -> dict[str, str]:
    with pytest.raises(ValidationError) as caught:
        Every().load(BAD)
    out = {k: v[0] for k, v in caught.value.messages.items()}
    with pytest.raises(ValidationError) as missing:
        Every().load({})
    out["missing"] = missing.value.messages["n"][0]
    return out


def test_every_message_of_marshmallow_the_api_meets_is_said_in_spanish(app: Any) -> None:
    english = messages()
    with app.test_request_context(headers={"Accept-Language": "es"}):
        said = {k: shape_words(v) for k, v in english.items()}
    assert said == {**SPANISH, "missing": "Falta: este campo es obligatorio."}
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert shape_words(english["name"]) == "Length must be from 1 to 60."
        assert shape_words("Something marshmallow never said.") == "Something marshmallow never said."


def test_the_api_names_the_field_in_the_requests_language(app: Any) -> None:
    from app.accounts.tokens import create_token
    from app.db import get_session
    from app.models import User
    from tests.conftest import ensure_user

    uid = ensure_user(app)
    with app.app_context():
        session = get_session()
        _token, secret = create_token(session, session.get(User, uid), "t")
    client = app.test_client(user=None)
    answer = client.get("/api/v1/games?limit=abc", headers={"Authorization": f"Bearer {secret}",
                                                            "Accept-Language": "es"})
    assert answer.status_code == 422
    assert answer.get_json()["error"] == {"code": "shape", "field": "limit",
                                          "message": "No es un número entero."}

"""The API's test client: no session, the director's token alone."""
from __future__ import annotations

from typing import Any

import pytest

from tests.api.test_api import token_for


@pytest.fixture
def api(app: Any) -> Any:
    client = app.test_client(user=None)          # no session: the token alone
    client.token = token_for(app, "directora")
    return client

"""A schemathesis run over the web app's OpenAPI document (issue #16):
every operation is called with generated requests (valid and invalid ones,
with the seat tokens of a real table where an operation takes one), and no
answer is a server error.

The run is bounded (a few examples per operation, no shrinking deadline) so
that it fits the CI; ``HEFEN_SCHEMATHESIS_EXAMPLES`` asks for more by hand.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402

from hefen.web import create_app  # noqa: E402

EXAMPLES = int(os.environ.get("HEFEN_SCHEMATHESIS_EXAMPLES", "8"))

APP = create_app(database_url="sqlite://", rate_limit=False)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


def _table() -> tuple[str, str]:
    """A real table, so that generated requests also reach past the code lookup."""
    from fastapi.testclient import TestClient

    made = TestClient(APP).post("/api/tables", json={"ruleset": "mcr"}).json()
    return made["code"], made["host_token"]


CODE, TOKEN = _table()


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_operation_answers_a_server_error(case: Any) -> None:
    if case.path_parameters and "code" in case.path_parameters:
        # half the calls on the real table, half on whatever was generated
        if hash(str(case.body)) % 2 == 0:
            case.path_parameters["code"] = CODE
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {TOKEN}"}
    response = case.call()
    assert response.status_code < 500, (
        case.method,
        case.formatted_path,
        case.body,
        response.status_code,
        response.text[:300],
    )

"""Every store test runs on a real SQLite file and on a real PostgreSQL server (a fresh
database per test) when FLUTURAS_TEST_PG_URL names one (`.ci/postgres.sh` starts one)."""
from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

PG_URL = os.environ.get("FLUTURAS_TEST_PG_URL")
PG_SKIP = "FLUTURAS_TEST_PG_URL is unset: run `.ci/postgres.sh python -m pytest tests/arbiter` to test on PostgreSQL"


def pytest_report_header(config):
    return f"arbiter store backends: sqlite, {'postgresql at ' + PG_URL if PG_URL else 'postgresql SKIPPED (' + PG_SKIP + ')'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    if not PG_URL:
        pytest.skip(PG_SKIP)
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def store(store_url):
    from arbiter.store.store import open_store

    s = open_store(store_url)
    yield s
    s.close()

"""Alembic environment: the store passes its open connection in `config.attributes`; run from
the `alembic` command line, the URL comes from `FLUTURAS_DB` or alembic.ini."""
from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from arbiter.store.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    url = os.environ.get("FLUTURAS_DB") or config.get_main_option("sqlalchemy.url")
    with create_engine(url).connect() as conn:
        _run(conn)

"""Opening the tournament store: a SQLite file by default, any PostgreSQL by URL (so several
arbiters' laptops, or several venues of a national simultaneous game, share one database).
Opening upgrades the schema to the newest Alembic revision, under a lock, so two arbiters
starting at once never migrate twice."""
from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from .errors import ConcurrentChange, StoreError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
DEFAULT_DB = "fluturas.db"  # the store the commands open when neither --db nor $FLUTURAS_DB says
DEFAULT_URL = f"sqlite:///{DEFAULT_DB}"
_PG_MIGRATION_LOCK = 0x666C7574  # "flut": one advisory lock id for schema upgrades


def resolve_url(url_or_path: str | os.PathLike[str] | None) -> str:
    """A URL as given, or a plain file path turned into a SQLite URL; None → $FLUTURAS_DB or default."""
    value = str(url_or_path) if url_or_path is not None else os.environ.get("FLUTURAS_DB", DEFAULT_URL)
    if "://" not in value:
        return f"sqlite:///{Path(value).resolve()}"
    if value.startswith("postgresql://"):  # psycopg 3 is the driver installed with the project
        value = "postgresql+psycopg://" + value[len("postgresql://"):]
    return value


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the arbiter who writes
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a crash loses no committed row
    cursor.close()


@dataclass
class Store:
    url: str
    engine: Engine
    _factory: sessionmaker[Session]

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        with self._factory() as session:
            try:
                yield session
                session.commit()
            except StaleDataError as exc:  # a `version` column moved under us: no lost update
                session.rollback()
                raise ConcurrentChange(f"another arbiter changed the same record meanwhile ({exc}); "
                                       f"nothing of this command was stored, run it again") from exc
            except BaseException:
                session.rollback()
                raise

    def close(self) -> None:
        self.engine.dispose()

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name


def _current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextmanager
def _file_lock(url: str) -> Iterator[None]:
    database = make_url(url).database
    if not database or database == ":memory:":
        yield
        return
    with open(f"{database}.migrate-lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def upgrade(engine: Engine) -> None:
    """Bring the schema to head; a no-op when it is there already."""
    head = head_revision()
    if _current_revision(engine) == head:
        return
    config = _alembic_config()
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
        return
    with _file_lock(str(engine.url)), engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")


def open_store(url_or_path: str | os.PathLike[str] | None = None, *, migrate: bool = True) -> Store:
    """Open (and create, for SQLite) the store and upgrade it to the newest schema."""
    url = resolve_url(url_or_path)
    try:
        engine = create_engine(url, future=True)
    except (ArgumentError, ImportError) as exc:
        raise StoreError(f"database URL {url!r}: {exc}") from exc
    if engine.dialect.name == "sqlite":
        database = make_url(url).database
        if database and database != ":memory:" and not Path(database).parent.is_dir():
            raise StoreError(f"database {database}: folder {Path(database).parent} does not exist")
        event.listen(engine, "connect", _sqlite_pragmas)
    try:
        if migrate:
            upgrade(engine)
    except OperationalError as exc:
        engine.dispose()
        raise StoreError(f"database {engine.url.render_as_string(hide_password=True)}: {exc.orig}") from exc
    return Store(url, engine, sessionmaker(engine, expire_on_commit=False))

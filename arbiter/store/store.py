"""Opening the tournament store: a SQLite file by default, any PostgreSQL by URL (so several
arbiters' laptops, or several venues of a national simultaneous game, share one database).
Opening upgrades the schema to the newest Alembic revision, under a lock, so two arbiters
starting at once never migrate twice."""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from .. import DEFAULT_DB
from ..errors import ConcurrentChange, FileAccess, StoreError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
DEFAULT_URL = f"sqlite:///{DEFAULT_DB}"
_PG_MIGRATION_LOCK = 0x666C7574  # "flut": one advisory lock id for schema upgrades
POOL_WAIT_SECONDS = 10.0  # a server's request that finds every connection busy this long is told "busy"


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
            except IntegrityError:  # the callers that race on a unique key retry on it
                session.rollback()
                raise
            except DatabaseError as exc:  # locked, read-only, full: one line the arbiter can act on
                session.rollback()
                raise store_failure(describe(self.url), exc) from exc
            except BaseException:
                session.rollback()
                raise

    def close(self) -> None:
        self.engine.dispose()

    def sized(self, connections: int, wait: float = POOL_WAIT_SECONDS) -> Store:
        """The same store with a pool of `connections` (as many threads as a server runs, and as
        many again for a moment's need), each request waiting at most `wait` seconds for a
        free one: a server under load then answers "busy" instead of failing (sqlalchemy's
        TimeoutError), and never opens more connections than the database is asked to hold."""
        engine = _new_engine(self.url, connections, wait)
        self.engine.dispose()
        return Store(self.url, engine, sessionmaker(engine, expire_on_commit=False))

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name


def _current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextmanager
def _file_lock(url: str) -> Iterator[None]:
    database = _sqlite_file(url)
    if not database or database == ":memory:":
        yield
        return
    from filelock import FileLock  # the same lock on Windows, macOS and Linux

    with FileLock(f"{database}.migrate-lock"):
        yield


def _sqlite_file(url: str) -> str | None:
    """The SQLite file of a URL, also when given as a URI (`sqlite:///file:PATH?mode=ro&uri=true`)."""
    parsed = make_url(url)
    database = parsed.database
    if database and parsed.query.get("uri") == "true" and database.startswith("file:"):
        database = database[len("file:"):]
    return database


def describe(url: str) -> str:
    """The store as the arbiter knows it: the SQLite file's path, or the URL without its password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_file(url) or ":memory:"
    return parsed.render_as_string(hide_password=True)


def error_log(url: str | None) -> Path:
    """Where an unexpected failure's traceback goes: beside the SQLite file, else the current folder."""
    if url:
        database = _sqlite_file(url) if make_url(url).get_backend_name() == "sqlite" else None
        if database and database != ":memory:":
            return Path(database).parent / "fluturas-errors.log"
    return Path("fluturas-errors.log").resolve()


def upgrade(engine: Engine) -> None:
    """Bring the schema to head; a no-op when it is there already. A store written by a newer
    fluturas (a revision this one does not know) is refused, never downgraded or guessed at."""
    head = head_revision()
    current = _current_revision(engine)
    if current == head:
        return
    known = {rev.revision for rev in ScriptDirectory.from_config(_alembic_config()).walk_revisions()}
    if current is not None and current not in known:
        raise StoreError(f"database {describe(str(engine.url))}: schema revision {current} is newer than this "
                         f"fluturas knows ({head}); update fluturas")
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


def open_store(url_or_path: str | os.PathLike[str] | None = None, *, migrate: bool = True,
               create: bool = True) -> Store:
    """Open the store and upgrade it to the newest schema. A SQLite file that does not exist is
    created only with `create` (`game new`); every other command refuses it, so no empty store
    is made silently in the wrong folder."""
    url = resolve_url(url_or_path)
    try:
        engine = _new_engine(url)
    except (ArgumentError, ImportError, ValueError) as exc:
        raise StoreError(f"database URL {url!r}: {exc}") from exc
    if engine.dialect.name == "sqlite":
        database = _sqlite_file(url)
        if database and database != ":memory:":
            path = Path(database)
            if not path.parent.is_dir():
                raise StoreError(f"database {database}: folder {path.parent} does not exist")
            if path.is_dir():
                raise StoreError(f"database {database}: is a folder, not a store file")
            if not path.exists() and not create:
                raise StoreError(f"database {database}: no such store; `fluturas game new` creates one "
                                 f"(or pass --db / set FLUTURAS_DB to the right file)")
            if path.exists():
                _refuse_foreign(database, _sqlite_tables(database), create)
    elif migrate:
        try:
            with engine.connect() as conn:
                names = set(inspect(conn).get_table_names())
                if "alembic_version" in names:
                    names.add("alembic_version=" + str(conn.scalar(text("SELECT version_num FROM alembic_version"))))
        except DatabaseError as exc:
            engine.dispose()
            raise store_failure(describe(url), exc) from exc
        try:
            _refuse_foreign(describe(url), names, create=True)
        except StoreError:
            engine.dispose()
            raise
    try:
        if migrate:
            upgrade(engine)
    except DatabaseError as exc:
        engine.dispose()
        raise store_failure(describe(url), exc) from exc
    except OSError as exc:
        engine.dispose()
        raise FileAccess(f"database {describe(url)}: {exc.strerror or exc}") from exc
    return Store(url, engine, sessionmaker(engine, expire_on_commit=False))


def _sqlite_tables(database: str) -> set[str]:
    """The tables of a SQLite file (and its Alembic revision as `alembic_version=REV`), read on a
    plain connection that writes nothing: no journal mode set, no table made."""
    try:
        conn = sqlite3.connect(database)
    except sqlite3.Error as exc:
        raise StoreError(f"database {database}: cannot be opened ({exc})") from exc
    try:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                "AND name NOT LIKE 'sqlite_%'")}
        if "alembic_version" in names:
            for (revision,) in conn.execute("SELECT version_num FROM alembic_version"):
                names.add(f"alembic_version={revision}")
        return names
    except sqlite3.Error as exc:  # not a database at all
        raise StoreError(f"database {database}: not a fluturas store ({exc}); nothing was changed") from exc
    finally:
        conn.close()


def _refuse_foreign(where: str, names: set[str], create: bool) -> None:
    """A database holding another program's tables is never upgraded into a store (Alembic would
    add its tables beside them): refused before anything is written. An empty one becomes a
    store only through `game new`."""
    known = {rev.revision for rev in ScriptDirectory.from_config(_alembic_config()).walk_revisions()}
    revisions = {n.split("=", 1)[1] for n in names if n.startswith("alembic_version=")}
    tables = sorted(n for n in names if "=" not in n)
    ours = "alembic_version" in names and (revisions & known or "game" in names)
    if tables and not ours:
        shown = ", ".join(tables[:5]) + (f" and {len(tables) - 5} more" if len(tables) > 5 else "")
        raise StoreError(f"database {where}: not a fluturas store (it holds the tables {shown}); "
                         f"nothing was changed — pass --db with the tournament's store")
    if not tables and not create:
        raise StoreError(f"database {where}: an empty database, not a fluturas store; `fluturas game new` "
                         f"creates one (or pass --db with the tournament's store)")


def _new_engine(url: str, connections: int | None = None, wait: float = POOL_WAIT_SECONDS) -> Engine:
    """The engine of a store URL: SQLite with its pragmas on every connection (a 30 s busy
    timeout: a writer waits for another, it does not fail); with `connections`, a bounded pool."""
    options: dict[str, object] = {}
    in_memory = url.startswith("sqlite") and _sqlite_file(url) in (None, "", ":memory:")  # one shared connection
    if connections is not None and not in_memory:
        options = {"pool_size": connections, "max_overflow": connections, "pool_timeout": wait}
    engine = create_engine(url, future=True, **options)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def store_failure(where: str, exc: DatabaseError) -> StoreError | FileAccess | ConcurrentChange:
    """A database error as the arbiter can act on it, told apart by SQLite's result code (or
    PostgreSQL's SQLSTATE class): another command holds the lock, the disk is read-only or full,
    or the file is not a fluturas store."""
    orig = getattr(exc, "orig", exc)
    text = str(orig)
    code = (getattr(orig, "sqlite_errorcode", None) or 0) & 0xFF  # the primary result code
    sqlstate = str(getattr(orig, "sqlstate", "") or "")
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or sqlstate in ("40001", "40P01", "55P03"):
        return ConcurrentChange(f"database {where}: another command is writing ({text}); nothing was stored, "
                                f"run it again")
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN,
                sqlite3.SQLITE_PERM) or sqlstate.startswith("53"):
        return FileAccess(f"database {where}: {text}")
    return StoreError(f"database {where}: {text} (is it a fluturas store?)")

"""What every command shares: the store options, opening the store, JSON output, field=value parsing."""
from __future__ import annotations

import json

import click

from arbiter import DEFAULT_DB


# What the store can hold (a PostgreSQL INTEGER): a larger number is refused as a usage error
# naming the option, never an overflow deep in the database driver.
NUMBER = click.IntRange(-(2**31), 2**31 - 1)


def emit_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))



def store_options(func):
    """--db, --game and --arbiter on every workflow command (also from $FLUTURAS_DB, $FLUTURAS_ARBITER)."""
    import getpass

    func = click.option("--arbiter", "actor", envvar="FLUTURAS_ARBITER", default=getpass.getuser(), show_default=True,
                        help="Who makes the change (kept in the audit log).")(func)
    func = click.option("--game", "game_id", type=NUMBER, default=None, help="Game id (default: the newest game).")(func)
    func = click.option("--db", envvar="FLUTURAS_DB", default=DEFAULT_DB, show_default=True,
                        help="SQLite file or database URL (postgresql://user@host/db).")(func)
    return func


def open_db(db: str, create: bool = False):
    """Open the store and say which one (stderr), so an arbiter in the wrong folder sees it at
    once; only `game new` creates a store, any other command refuses a file that is not there."""
    from arbiter.store.store import describe, open_store

    global _LAST_URL
    from arbiter.store.store import resolve_url

    _LAST_URL = resolve_url(db)
    store = open_store(db, create=create)
    click.echo(f"store: {describe(store.url)}", err=True)
    return store


_LAST_URL: str | None = None


def last_store_url() -> str | None:
    """The store the command opened (or tried to): the error log goes beside it."""
    return _LAST_URL


def now():
    from datetime import datetime

    return datetime.now().astimezone()


def parse_fields(items) -> dict:
    out: dict = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r}: expected field=value")
        key = key.strip().lower()
        if key == "jokers":
            out[key] = [int(v) for v in value.split(",") if v.strip()]
        elif key in ("table", "round", "score", "total", "cancel_round"):
            out[key] = int(value) if value.strip() else None
        elif key == "verify":
            out[key] = value.strip().lower() in ("1", "true", "da", "yes")
        elif key in ("moves", "verify_words"):  # an anticipation slip: JSON, quoted
            try:
                out[key] = json.loads(value)
            except json.JSONDecodeError as exc:
                raise click.BadParameter(f"{item!r}: {key} takes JSON, e.g. "
                                         f"'moves=[{{\"position\": \"H8\", \"word\": \"AS\", \"score\": 4}}]'") from exc
        else:
            out[key] = value.strip() or None
    return out


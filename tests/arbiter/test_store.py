"""The store: migrations to head on open, models and migrations agree, the audit log cannot
be rewritten, every change leaves an audit entry."""
from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from arbiter.store.audit import entries
from arbiter.errors import StoreError
from arbiter.store.models import Base, Player
from arbiter.store.store import head_revision, open_store

from .helpers import make_game


def test_open_upgrades_to_head_and_reopen_is_a_no_op(store, store_url):
    with store.engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == head_revision()
    again = open_store(store_url)
    with again.engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == head_revision()
    again.close()


def test_migrations_create_exactly_the_models_schema(store):
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_audit_log_refuses_update_and_delete(store, tmp_path):
    make_game(store, tmp_path)
    with store.engine.connect() as conn:
        count = conn.execute(text("SELECT count(*) FROM audit_log")).scalar_one()
        with pytest.raises(DBAPIError, match="append-only"):
            conn.execute(text("UPDATE audit_log SET actor = 'someone else'"))
        conn.rollback()
        with pytest.raises(DBAPIError, match="append-only"):
            conn.execute(text("DELETE FROM audit_log"))
        conn.rollback()
        assert conn.execute(text("SELECT count(*) FROM audit_log")).scalar_one() == count


def test_every_setup_change_is_audited(store, tmp_path):
    game_id = make_game(store, tmp_path)
    with store.session() as s:
        actions = [e.action for e in entries(s, game_id)]
        assert actions.count("player.seat") == 3
        assert actions[:1] == ["game.new"] and "round.rack" in actions and "round.continuation" in actions
        assert all(e.actor == "arbitru-test" and e.at is not None for e in entries(s, game_id))


def test_one_player_per_table_is_held_by_the_database(store, tmp_path):
    game_id = make_game(store, tmp_path)
    with pytest.raises(IntegrityError):
        with store.session() as s:
            s.add(Player(game_id=game_id, table_no=1, name="Intrus"))
    with store.session() as s:
        assert [p.name for p in s.scalars(select(Player).where(Player.table_no == 1))] == ["Jucător 1"]


def test_unreachable_database_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        open_store(tmp_path / "missing" / "x.db")
    with pytest.raises(StoreError, match="127.0.0.1"):
        open_store("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2")


def test_concurrent_edit_of_a_round_is_refused_not_lost(store, tmp_path):
    from arbiter.errors import ConcurrentChange
    from arbiter.store.models import Round

    make_game(store, tmp_path)
    with pytest.raises(ConcurrentChange, match="run it again"):
        with store.session() as first:
            mine = first.scalar(select(Round))
            mine.rack = "AELMODS"
            with store.session() as second:  # another arbiter, committing first
                second.scalar(select(Round)).rack = "AELMODT"
    with store.session() as s:
        (rnd,) = s.scalars(select(Round)).all()
        assert rnd.rack == "AELMODT"


def test_an_older_store_is_upgraded_on_open_with_its_data(store_url):
    from alembic import command
    from sqlalchemy import create_engine

    from arbiter.store.store import _alembic_config, resolve_url

    engine = create_engine(resolve_url(store_url))
    config = _alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO tournament (id, name, created_at) VALUES (1, 'Cupa', CURRENT_TIMESTAMP)"))
        conn.execute(text("INSERT INTO game (id, tournament_id, name, kind, variant, category, rules, status, "
                          "created_at, version) VALUES (1, 1, 'Veche', 'duplicate', 'classic', 'senior', 'ro', "
                          "'running', CURRENT_TIMESTAMP, 1)"))
    engine.dispose()
    upgraded = open_store(store_url)
    with upgraded.engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == head_revision() == "0009"
        assert conn.execute(text("SELECT name, draw_seed FROM game")).one() == ("Veche", None)
        # 0003: an old game stays a duplicate game, with no anticipation groups
        assert conn.execute(text("SELECT kind, groups, group_order FROM game")).one() == ("duplicate", None, None)
        # 0004: review items may hold the decoder's candidates
        assert conn.execute(text("SELECT count(candidates) FROM review_item")).scalar() == 0
        # 0006: seats hold no blind groups
        assert conn.execute(text("SELECT count(*) FROM player WHERE groups IS NOT NULL")).scalar() == 0
    upgraded.close()

"""The tournament store's tables (SQLAlchemy 2.0 declarative). The schema itself is created and
changed only by the Alembic migrations in `arbiter/store/migrations/`; a test checks that the two agree.

Rows that several arbiters edit at once (game, round, decision, review item) carry a `version`
column used for optimistic locking: a stale write fails instead of silently overwriting."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Tournament(Base):
    __tablename__ = "tournament"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    venue: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    games: Mapped[list["Game"]] = relationship(back_populates="tournament")


class Game(Base):
    """One game, duplicate or anticipation (`kind`): its rule pack, variant, category and word list
    (label + sha256). An anticipation game also holds its 15 groups and the round→group order
    (RULES.md §7, A 5.2–5.3); a duplicate game leaves them empty."""

    __tablename__ = "game"
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"))
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20), default="duplicate")
    variant: Mapped[str] = mapped_column(String(20), default="classic")
    category: Mapped[str] = mapped_column(String(10), default="senior")
    rules: Mapped[str] = mapped_column(String(100), default="ro")
    rules_sha256: Mapped[str | None] = mapped_column(String(64))  # the merged pack at `game new` (0009)
    wordlist_label: Mapped[str | None] = mapped_column(String(200))
    wordlist_sha256: Mapped[str | None] = mapped_column(String(64))
    wordlist_path: Mapped[str | None] = mapped_column(Text)
    draw_seed: Mapped[int | None] = mapped_column(Integer)  # `round draw` replays the game master from it
    groups: Mapped[list[Any] | None] = mapped_column(JSON)  # anticipation: group 1 first, letters as text
    group_order: Mapped[list[Any] | None] = mapped_column(JSON)  # anticipation: 7-letter group of round r at r-1
    status: Mapped[str] = mapped_column(String(20), default="running")
    appeal_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    top_total: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    version: Mapped[int] = mapped_column(Integer, default=1)
    __mapper_args__ = {"version_id_col": version}

    tournament: Mapped[Tournament] = relationship(back_populates="games")
    players: Mapped[list["Player"]] = relationship(back_populates="game", order_by="Player.table_no")
    rounds: Mapped[list["Round"]] = relationship(back_populates="game", order_by="Round.number")


class Player(Base):
    """A seat: one player per table number (RULES.md §2: the table goes on every slip)."""

    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "table_no", name="uq_player_table"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    table_no: Mapped[int] = mapped_column("table_no", Integer)
    name: Mapped[str] = mapped_column(String(200))
    club: Mapped[str | None] = mapped_column(String(200))
    category: Mapped[str | None] = mapped_column(String(20))
    groups: Mapped[list[Any] | None] = mapped_column(JSON)  # blind anticipation (A 8.4): this player's 15 groups
    game: Mapped[Game] = relationship(back_populates="players")


class Round(Base):
    """A round: the group (drawn or entered), the continuation move, the top and equal tops."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_round_number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    number: Mapped[int] = mapped_column(Integer)
    rack: Mapped[str] = mapped_column(String(40))
    rack_source: Mapped[str] = mapped_column(String(10), default="manual")
    continuation: Mapped[str | None] = mapped_column(String(60))
    top_score: Mapped[int | None] = mapped_column(Integer)
    equal_tops: Mapped[list[Any]] = mapped_column(JSON, default=list)
    notices: Mapped[list[Any]] = mapped_column(JSON, default=list)
    status: Mapped[str] = mapped_column(String(20), default="open")
    # what the last correction judged, table → slip (arbiter.round.consistency); None: never corrected
    judged: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    __mapper_args__ = {"version_id_col": version}
    game: Mapped[Game] = relationship(back_populates="rounds")


class Slip(Base):
    """One scanned slip. `sha256` + `slip_index` identify it (the same image twice is one slip);
    at most one slip per (round, table) is `filed`, the others stay as `superseded`."""

    __tablename__ = "slip"
    __table_args__ = (
        UniqueConstraint("game_id", "sha256", "slip_index", name="uq_slip_content"),
        Index("uq_slip_filed", "round_id", "table_no", unique=True,
              sqlite_where=text("state = 'filed'"), postgresql_where=text("state = 'filed'")),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"))
    table_no: Mapped[int | None] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    slip_index: Mapped[int] = mapped_column(Integer, default=0)
    source: Mapped[str] = mapped_column(Text)
    reading: Mapped[dict[str, Any]] = mapped_column(JSON)
    content: Mapped[dict[str, Any]] = mapped_column(JSON)
    confidence: Mapped[float | None] = mapped_column(Float)
    state: Mapped[str] = mapped_column(String(20), default="filed")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ink_print: Mapped[str | None] = mapped_column(Text)  # the ink of its written boxes (arbiter.slips.paper)
    pile: Mapped[int | None] = mapped_column(Integer)  # the scan that filed it (its audit entry's id)


class Decision(Base):
    """The judge's decision for one table in one round, as its output gives it."""

    __tablename__ = "decision"
    __table_args__ = (UniqueConstraint("round_id", "table_no", name="uq_decision"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"))
    table_no: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20))
    score: Mapped[int] = mapped_column(Integer, default=0)
    credited: Mapped[int] = mapped_column(Integer, default=0)
    warning: Mapped[str | None] = mapped_column(String(40))
    penalty: Mapped[str | None] = mapped_column(String(40))
    articles: Mapped[list[Any]] = mapped_column(JSON, default=list)
    explanation: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    flags: Mapped[list[Any]] = mapped_column(JSON, default=list)
    solo: Mapped[bool] = mapped_column(Boolean, default=False)
    on_appeal: Mapped[bool] = mapped_column(Boolean, default=False)
    moves: Mapped[list[Any] | None] = mapped_column(JSON)  # anticipation: each move's ruling (one or two)
    version: Mapped[int] = mapped_column(Integer, default=1)
    __mapper_args__ = {"version_id_col": version}


class Standing(Base):
    """Per table whole-game figures as the judge gives them (RULES.md §4)."""

    __tablename__ = "standing"
    __table_args__ = (UniqueConstraint("game_id", "table_no", name="uq_standing"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    table_no: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer, default=0)
    warnings: Mapped[int] = mapped_column(Integer, default=0)
    penalties: Mapped[int] = mapped_column(Integer, default=0)
    solos: Mapped[int] = mapped_column(Integer, default=0)
    disciplinary: Mapped[int] = mapped_column(Integer, default=0)
    eliminated: Mapped[bool] = mapped_column(Boolean, default=False)
    rank: Mapped[int | None] = mapped_column(Integer)
    percent_of_top: Mapped[float | None] = mapped_column(Float)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # anticipation: points of moves, penalties, warnings


class Sanction(Base):
    """A disciplinary warning or an elimination (D 6.4, D 7.1.3), entered by the arbiter."""

    __tablename__ = "sanction"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    table_no: Mapped[int] = mapped_column(Integer)
    round_no: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(Text)
    actor: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    status: Mapped[str] = mapped_column(String(20), default="active", server_default="active")  # or "withdrawn"


class Appeal(Base):
    """A contestation (D 6.5): what is asked, why, and how it was settled."""

    __tablename__ = "appeal"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    table_no: Mapped[int] = mapped_column(Integer)
    round_no: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(Text)
    change: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(20), default="upheld")
    actor: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ReviewItem(Base):
    """A slip whose reading is unsure or whose decision needs an arbiter."""

    __tablename__ = "review_item"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"))
    slip_id: Mapped[int | None] = mapped_column(ForeignKey("slip.id"))
    table_no: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(20), default="open")
    resolution: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # the decoder's competing readings, most likely first (arbiter/slips/decoding.py, issue 15)
    candidates: Mapped[list[Any] | None] = mapped_column(JSON)
    resolved_by: Mapped[str | None] = mapped_column(String(100))
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = mapped_column(Integer, default=1)
    claimed_by: Mapped[str | None] = mapped_column(String(100))  # arbiter with the item open (arbiter.review.claims)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AuditEntry(Base):
    """Append-only (database triggers refuse UPDATE and DELETE): who, when, what, why."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_game", "game_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    actor: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(60))
    game_id: Mapped[int | None] = mapped_column(Integer)
    entity: Mapped[str] = mapped_column(String(40))
    entity_id: Mapped[str | None] = mapped_column(String(60))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    reason: Mapped[str | None] = mapped_column(Text)

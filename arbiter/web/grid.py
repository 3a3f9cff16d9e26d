"""The round as an editable grid, one row a table (as Eliot's arbitration mode keeps it): the
player, what the slip says, the judge's decision and the points. The arbiter gives a player the
top or a listed legal move (a review correction of the slip, `review.resolve`; a table without a
slip gets a typed one, as `round scan` files a typed reading), a disciplinary warning
(`results.add_sanction`, D 6.4), or the slip's warning or technical penalty cancelled (an appeal
of kind `warning` / `penalty`, `results.add_appeal`, D 6.5, as `fluturas appeal` files it); each
is audited and undone from the same row (`undo_sanction`, `withdraw_appeal`, as `fluturas undo`).
Solos, and warnings and penalties themselves, are the judge's, from what the slip says (RULES.md
§3–4): after each change the round is judged again (`correction.correct_round`)."""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from datetime import datetime

from flask import Flask, flash, g, redirect, render_template, request, url_for
from sqlalchemy import select

from exitcodes import FluturasError

from ..review import claims
from ..round import judging
from ..store.audit import entries
from ..round.correction import correct_round, recorrect
from ..errors import WorkflowError
from ..store.games import get_round, players
from ..slips.ingest import file_reading
from ..store.models import Appeal, AuditEntry, Decision, Game, ReviewItem, Round, Sanction, Slip
from ..slips.readings import parse_reading
from ..results.results import add_appeal, add_sanction, undo_sanction, withdraw_appeal
from ..review.review import discard_slip, flag_decision, resolve
from ..store.store import Store
from ..store.validation import blockers, require_seated
from .desk import Desk, actor, refused, said
from .i18n import text
from .round_pages import MoveRow, legal_moves

GRID_ACTIONS = ("slip.correct", "slip.file")  # what a row's undo takes back (its newest one)
CANCELLABLE = ("warning", "penalty")  # a slip's ruling the arbiter cancels on the grid (appeal kinds, D 6.5)


@dataclass(frozen=True)
class Undoable:
    entry_id: int
    what: str  # the change as the row shows it ("H4 MODEL 26")


@dataclass(frozen=True)
class GridRow:
    table: int
    name: str
    club: str | None
    slip: Slip | None
    open_item: ReviewItem | None
    decision: Decision | None
    sanctions: tuple[Sanction, ...]
    last_change: Undoable | None
    appeals: tuple[Appeal, ...] = ()  # the slip's warning or penalty cancelled (D 6.5)


def _content_text(content: dict | None) -> str:
    if not content:
        return "—"
    return f"{content.get('position') or '?'} {content.get('word') or '?'} {content.get('score') if content.get('score') is not None else '?'}"


def grid_rows(session, game: Game, rnd: Round) -> list[GridRow]:
    slips = {s.table_no: s for s in session.scalars(select(Slip).where(Slip.round_id == rnd.id, Slip.state == "filed"))
             if s.table_no is not None}
    items = {i.table_no: i for i in session.scalars(select(ReviewItem).where(ReviewItem.round_id == rnd.id,
                                                                             ReviewItem.state == "open"))}
    decisions = {d.table_no: d for d in session.scalars(select(Decision).where(Decision.round_id == rnd.id))}
    active = list(session.scalars(select(Sanction).where(Sanction.game_id == game.id, Sanction.status == "active",
                                                         Sanction.round_no == rnd.number)))
    cancelled = list(session.scalars(select(Appeal).where(Appeal.game_id == game.id, Appeal.round_no == rnd.number,
                                                          Appeal.status == "upheld",
                                                          Appeal.kind.in_(CANCELLABLE)).order_by(Appeal.id)))
    changes: dict[int, Undoable] = {}
    by_slip = {s.id: t for t, s in slips.items()}
    grid_changes = sorted((e for action in GRID_ACTIONS for e in entries(session, game.id, action)), key=lambda e: e.id)
    for entry in grid_changes:
        slip_id = int(entry.entity_id) if (entry.entity_id or "").isdigit() else None
        if entry.action in GRID_ACTIONS and slip_id in by_slip and _by_grid(entry):
            after = entry.after or {}
            changes[by_slip[slip_id]] = Undoable(entry.id, _content_text(after.get("content", after)))
    return [GridRow(p.table_no, p.name, p.club, slips.get(p.table_no), items.get(p.table_no),
                    decisions.get(p.table_no), tuple(x for x in active if x.table_no == p.table_no),
                    changes.get(p.table_no), tuple(a for a in cancelled if a.table_no == p.table_no))
            for p in players(session, game)]


GRID_REASON = "given on the round grid"
TYPED_SOURCE = "tastat pe grila rundei de"  # a typed slip's source: it has no image


def _by_grid(entry) -> bool:
    """A change the grid made (its reason or typed source says so): a row's undo never takes back a scan."""
    if entry.action == "slip.file":
        return str((entry.after or {}).get("source", "")).startswith(TYPED_SOURCE)
    return GRID_REASON in (entry.reason or "")


def slip_fields(move: MoveRow, table: int, number: int) -> dict[str, object]:
    """A listed move as the slip's fields: the word in capitals, its jokers (lowercase in the
    generator's notation, RULES.md §2) as indices."""
    return {"table": table, "round": number, "position": move.position, "word": move.word.upper(),
            "jokers": [i for i, ch in enumerate(move.word) if ch.islower()], "score": move.score}


def give_move(store: Store, game_id: int, number: int, table: int, fields: dict[str, object], who: str,
              why: str) -> None:
    """The slip of `table` says `fields`: its open review item resolved with them, or a decided
    slip corrected through a review item of its own, or (no slip) a typed slip filed."""
    reason = f"{why} ({GRID_REASON})"
    with store.session() as s:
        game = s.get(Game, game_id)
        rnd = get_round(s, game, number)
        slip = s.scalar(select(Slip).where(Slip.round_id == rnd.id, Slip.table_no == table, Slip.state == "filed"))
        if slip is None:
            loose = [x for x in s.scalars(select(Slip).where(Slip.round_id == rnd.id, Slip.table_no.is_(None),
                                                                  Slip.state == "filed"))
                     if (x.content or {}).get("table") == table]
            if loose:  # its own slip waits in the queue under no table: that one is the player's
                raise WorkflowError(f"table {table}: a slip that reads table {table} waits in the review queue "
                                    f"({loose[0].source}); clear it there first")
            record = {"source": f"{TYPED_SOURCE} {who}", "slip_index": 0, "template_id": "duplicat",
                      "fields": {"round": {"text": str(number), "confidence": 1.0},
                                 "table": {"text": str(table), "confidence": 1.0},
                                 "score": {"text": str(fields["score"]), "confidence": 1.0},
                                 "position": {"text": fields["position"], "confidence": 1.0},
                                 "word": {"text": fields["word"], "confidence": 1.0, "jokers": fields["jokers"]}},
                      }
            record["sha256"] = hashlib.sha256(json.dumps([game_id, number, table, fields, time.time_ns()],
                                                         sort_keys=True).encode()).hexdigest()  # no image: its own id
            slip_id = None
        else:
            slip_id = slip.id
            item = s.scalar(select(ReviewItem).where(ReviewItem.slip_id == slip.id, ReviewItem.state == "open"))
            if item is None:
                flag_decision(s, rnd, table, slip.id, f"{reason} at {time.time_ns()}")  # an item of its own each time
                s.flush()
                item = s.scalar(select(ReviewItem).where(ReviewItem.slip_id == slip.id, ReviewItem.state == "open"))
            item_id, version = item.id, item.version
    if slip_id is None:
        filed = file_reading(store, game_id, number, parse_reading(record, "grid", 0.5), who, lambda old, new: "new")
        if filed.review:
            raise WorkflowError("; ".join(filed.review))
        return
    correction = {k: fields[k] for k in ("position", "word", "jokers", "score")}
    claims.claim(store, item_id, who)  # an item another arbiter has open in the queue is theirs
    try:
        resolve(store, item_id, version, who, correction, reason)
    finally:
        claims.release(store, item_id, who)


def undo_change(store: Store, game_id: int, entry_id: int, who: str) -> None:
    """Take back the grid's change: a corrected slip says again what it said before (another
    audited correction), a typed slip is discarded."""
    with store.session() as s:
        game = s.get(Game, game_id)
        entry = s.get(AuditEntry, entry_id)
        if entry is None or entry.game_id != game_id or entry.action not in GRID_ACTIONS or not _by_grid(entry):
            raise WorkflowError(f"change {entry_id}: not a change of the round grid")
        slip = s.get(Slip, int(entry.entity_id))
        rnd = s.get(Round, slip.round_id)
        if entry.action == "slip.file":
            discard_slip(s, game, slip.id, "not-a-slip", who, f"undo of change {entry_id} ({GRID_REASON})")
            return
        before = {k: (entry.before or {}).get(k) for k in ("position", "word", "jokers", "score")}
        number, table = rnd.number, slip.table_no
    give_move(store, game_id, number, table, before, who, f"undo of change {entry_id}")


def rejudge(store: Store, game_id: int, number: int, who: str) -> str | None:
    """Judge the round again when nothing waits in review; else say what waits."""
    with store.session() as s:
        game = s.get(Game, game_id)
        waiting = blockers(s, game, through=number, readings_only=True)
    if waiting:
        return waiting[0]
    correct_round(store, game_id, number, who)
    return None


def register(app: Flask, desk: Desk) -> None:
    store = desk.store

    def number_of(s, game) -> int:
        return get_round(s, game, request.values.get("round", type=int)).number

    @app.get("/grid")
    def grid_page():
        with store.session() as s:
            game = desk.game(s)
            rnd = get_round(s, game, request.args.get("round", type=int))
            try:
                moves = legal_moves(s, game, rnd) if game.kind == "duplicate" and game.variant != "tactic" else ()
            except FluturasError as exc:
                refused(exc)
                moves = ()
            loose = len(s.scalars(select(Slip.id).where(Slip.round_id == rnd.id, Slip.table_no.is_(None),
                                                        Slip.state == "filed")).all())
            return render_template("grid.html", game=game, rnd=rnd, rows=grid_rows(s, game, rnd), moves=moves,
                                   selected=request.args.get("table", type=int), loose=loose)

    def after(number: int, tables: list[int], message: str):
        flash(message, "ok")
        first = tables[0] if tables else None
        return redirect(url_for("grid_page", round=number, table=first))

    @app.post("/grid/give")
    def grid_give():
        who = actor()
        tables = [int(t) for t in request.form.get("tables", "").split(",") if t.strip().isdigit()]
        wanted = request.form.get("move", "").strip()
        with store.session() as s:
            game = desk.game(s)
            rnd = get_round(s, game, request.form.get("round", type=int))
            number, game_id = rnd.number, game.id
            try:
                for table in tables:  # every table checked before anything is given
                    require_seated(s, game, table)
            except FluturasError as exc:
                refused(exc)
                return redirect(url_for("grid_page", round=number))
            moves = legal_moves(s, game, rnd)
            if wanted == "top":
                wanted = rnd.continuation or (f"{moves[0].position} {moves[0].word}" if moves else "")
        move = next((m for m in moves if m.text == wanted), None)
        if move is None or not tables:
            refused(f"{text('no_such_move', g.lang)}: {wanted or '—'}")
            return redirect(url_for("grid_page", round=number))
        try:
            for table in tables:
                give_move(store, game_id, number, table, slip_fields(move, table, number), who,
                          f"the arbiter gives {move.text} {move.score}")
            waits = rejudge(store, game_id, number, who)
        except FluturasError as exc:
            refused(exc)
            return redirect(url_for("grid_page", round=number, table=tables[0]))
        note = f" — {text('judged_after_queue', g.lang)}: {said(WorkflowError(waits))}" if waits else ""
        return after(number, tables, f"{text('given', g.lang)}: {move.text} {move.score} → "
                                     f"{text('table', g.lang)} {', '.join(map(str, tables))}{note}")

    @app.post("/grid/warn")
    def grid_warn():
        who = actor()
        table = request.form.get("table", type=int)
        try:
            with store.session() as s:
                game = desk.game(s)
                number = number_of(s, game)
                add_sanction(s, game, table, "disciplinary", request.form.get("reason", ""), who, number)
                # the totals follow in the same transaction, as `fluturas sanction` does: a warning
                # the judge refuses is not stored either
                judging.rejudge(s, game, who, "sanction")
        except FluturasError as exc:
            refused(exc)
            return redirect(url_for("grid_page", round=request.form.get("round", type=int), table=table))
        return after(number, [table], f"{text('table', g.lang)} {table}: {text('disciplinary_given', g.lang)}")

    @app.post("/grid/cancel")
    def grid_cancel():
        """The slip's warning or technical penalty cancelled: an appeal of that kind, judged in the
        same transaction as `fluturas appeal` and the results page file it."""
        who = actor()
        table = request.form.get("table", type=int)
        kind = request.form.get("kind", "")
        try:
            if kind not in CANCELLABLE:
                raise WorkflowError(f"--kind {kind!r}: expected one of {', '.join(CANCELLABLE)}")
            with store.session() as s:
                game = desk.game(s)
                number = number_of(s, game)
                add_appeal(s, game, table, number, kind, request.form.get("reason", ""), who,
                           datetime.now().astimezone())
                judging.rejudge(s, game, who, "appeal")
        except FluturasError as exc:
            refused(exc)
            return redirect(url_for("grid_page", round=request.form.get("round", type=int), table=table))
        return after(number, [table], f"{text('table', g.lang)} {table}: {text('cancelled_' + kind, g.lang)}")

    @app.post("/grid/undo")
    def grid_undo():
        who = actor()
        table = request.form.get("table", type=int)
        try:
            with store.session() as s:
                game = desk.game(s)
                number, game_id = number_of(s, game), game.id
                sanction = request.form.get("sanction", type=int)
                appeal = request.form.get("appeal", type=int)
                if sanction is not None:
                    undo_sanction(s, game, sanction, who, request.form.get("reason") or "withdrawn on the round grid")
                elif appeal is not None:
                    withdraw_appeal(s, game, appeal, who, request.form.get("reason") or "withdrawn on the round grid")
            if sanction is not None or appeal is not None:
                recorrect(store, game_id, who)
            else:
                undo_change(store, game_id, request.form.get("change", type=int) or 0, who)
                rejudge(store, game_id, number, who)
        except FluturasError as exc:
            refused(exc)
            return redirect(url_for("grid_page", round=request.form.get("round", type=int), table=table))
        return after(number, [table] if table else [], text("undone", g.lang))

"""`round correct` for an anticipation game: the store's game as the anticipation input
(docs/anticipation.md), corrected by `corrector.anticipation.correct_anticipation_game`, and the
result kept as one `Decision` per player per round and one `Standing` per player.

This module owns no rule of RULES.md §7: every move's score, revision, penalty (A 6.3 cap),
warning (A 6.2) and the totals and places (A 6.4, A 6.6) are the corrector's. The input is built
in memory and handed to the same `load_game` that `fluturas judge` uses, so the arbiter's
correction and `fluturas judge FILE` of the same game cannot differ.

Re-correcting is idempotent and whole-game: a cancellation written in round 5 revises rounds
before it, so every round is stored again, each changed row with its audit entry, in one
transaction."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrector.anticipation import correct_anticipation_game
from corrector.anticipation.correction import AnticipationResult
from corrector.anticipation.judge import load_game
from corrector.anticipation.outcome import PlayerResult, RoundRuling

from ..audit import Change, record
from ..errors import WorkflowError
from ..games import get_game, get_round, players, require_kind, rounds, verify_wordlist
from ..judging import _held, upsert_fields
from ..models import Appeal, Decision, Game, Sanction, Slip, Standing
from ..store import Store

SOURCE = "corrector.anticipation"
DECISION_FIELDS = ("status", "score", "credited", "warning", "penalty", "articles", "explanation", "flags", "moves")
STANDING_FIELDS = ("total", "warnings", "penalties", "disciplinary", "eliminated", "rank", "detail")


def build_input(session: Session, game: Game, through_round: int | None = None) -> tuple[dict[str, Any], int]:
    """The game in the anticipation input form, and how many slips wait in the review queue
    (held back: they count as missing until an arbiter has looked, as in duplicate)."""
    require_kind(game, "anticipation", "round correct")
    if not game.wordlist_path:
        raise WorkflowError(f"game {game.id} has no word list: give one with `game new --words FILE`")
    if not game.groups or not game.group_order:
        raise WorkflowError(f"game {game.id}: set the groups and the order first (`round groups`, `round order`)")
    if session.scalar(select(Appeal.id).where(Appeal.game_id == game.id, Appeal.status == "upheld")) is not None:
        raise WorkflowError(f"game {game.id}: appeals on anticipation games are not applied yet; "
                            f"correct the slip's reading instead (`fluturas review` or a new typed slip)")
    order = list(game.group_order)[:through_round] if through_round is not None else list(game.group_order)
    slips, held = [], 0
    for rnd in rounds(session, game):
        if rnd.number > len(order):
            break
        waiting = _held(session, rnd)
        for s in session.scalars(select(Slip).where(Slip.round_id == rnd.id, Slip.state == "filed",
                                                    Slip.table_no.is_not(None)).order_by(Slip.table_no)):
            if s.id in waiting:
                held += 1
                continue
            slips.append({**s.content, "table": s.table_no, "round": rnd.number})  # filed where the arbiter put it
    sanctions = session.scalars(select(Sanction).where(Sanction.game_id == game.id, Sanction.status == "active")
                           .order_by(Sanction.id))
    disciplinary = []
    for s in sanctions:
        if s.kind != "disciplinary":
            raise WorkflowError(f"game {game.id}: table {s.table_no}: an elimination (D 7.1.3) is not applied "
                                f"to anticipation games yet; A 6.4's second disciplinary warning eliminates")
        if s.round_no is None or s.round_no <= len(order):
            disciplinary.append({"table": s.table_no, "round": min(s.round_no or len(order), len(order)),
                                 "reason": s.reason})
    case = {"type": "anticipation", "rules": game.rules, "variant": game.variant,
            "words": {"file": verify_wordlist(game)}, "groups": list(game.groups), "order": order,
            "players": [{"table": p.table_no, "name": p.name} for p in players(session, game)],
            "slips": slips, "disciplinary": disciplinary}
    return case, held


def _as_written(slip: dict[str, Any] | None) -> list[str]:
    """The moves as the slip writes them ("H6 CA"): an incorrect move has no placement to print."""
    if slip is None:
        return []
    moves = slip.get("moves") or [slip]
    return [" ".join(str(m.get(k)) for k in ("position", "word") if m.get(k)) for m in moves]


def _round_fields(ruling: RoundRuling, slip: dict[str, Any] | None) -> dict[str, Any]:
    """One round of one player as a `Decision` row: `score` is what the slip declares (the round
    total when written, else the moves' scores), `credited` the round's points after revisions."""
    written = _as_written(slip)
    moves = [{**m.to_json(), "as_written": written[i] if i < len(written) else None}
             for i, m in enumerate(ruling.moves)]
    declared = ruling.declared_total
    if declared is None:
        written = [m.decision.score for m in ruling.moves]
        declared = sum(written)
    penalties = sorted({m.decision.penalty.name for m in ruling.moves if m.decision.penalty})
    articles = sorted({w.article for w in ruling.warnings} | {r["article"] for m in moves for r in m["revisions"]})
    en = [f"{m.decision.explain('en')}" for m in ruling.moves] or [ruling.status.value]
    ro = [f"{m.decision.explain('ro')}" for m in ruling.moves] or [ruling.status.value]
    if ruling.cancellation is not None:
        c = ruling.cancellation
        en.append(f"cancels round {c.cancelled_round}: {'applied' if c.applied else 'refused'} {c.note}".rstrip())
        ro.append(f"Anulez turul {c.cancelled_round}: {'aplicat' if c.applied else 'refuzat'} {c.note}".rstrip())
    if ruling.verification is not None:
        words = ", ".join(f"{c.word} {'DA' if c.valid else 'NU'}" for c in ruling.verification.checks)
        en.append(f"verification: {words}")
        ro.append(f"Verificare: {words}")
    return {"status": ruling.status.value, "score": int(declared), "credited": ruling.score,
            "warning": ",".join(w.name for w in ruling.warnings) or None,
            "penalty": ",".join(penalties) or None, "articles": articles,
            "explanation": {"en": "; ".join(en), "ro": "; ".join(ro)},
            "flags": sorted({f for m in moves for f in m["flags"]}), "moves": moves}


def _standing_fields(player: PlayerResult) -> dict[str, Any]:
    data = player.to_json()
    return {"total": player.total, "warnings": len(player.warning_charges),
            "penalties": sum(1 for m in player.moves if m.penalty_points), "disciplinary": data["disciplinary_deduction"],
            "eliminated": player.eliminated, "rank": player.rank,
            "detail": {k: data[k] for k in ("moves_total", "penalty_total", "warning_cost", "disciplinary_deduction",
                                            "eliminated_in", "dropped_out_in", "ranking_points")}}


def store_result(session: Session, game: Game, result: AnticipationResult, actor: str,
                 slips: list[dict[str, Any]]) -> dict[str, int]:
    """Upsert every round ruling and standing of `result` (`slips`: the input's, for the moves
    as written); audit each change. Counts (changed, unchanged)."""
    by_slip = {(s["table"], s["round"]): s for s in slips}
    by_number = {r.number: r for r in rounds(session, game)}
    counts = {"changed": 0, "unchanged": 0, "flagged": 0}
    for player in result.players:
        for ruling in player.rounds:
            rnd = by_number.get(ruling.round)
            if rnd is None:
                raise WorkflowError(f"round {ruling.round} is not laid out (`round order`)")
            row = session.scalar(select(Decision).where(Decision.round_id == rnd.id, Decision.table_no == player.table))
            if row is None:
                row = Decision(round_id=rnd.id, table_no=player.table)
                session.add(row)
            new = _round_fields(ruling, by_slip.get((player.table, ruling.round)))
            before = upsert_fields(row, new, DECISION_FIELDS)
            if before is None:
                counts["unchanged"] += 1
                continue
            counts["changed"] += 1
            record(session, actor, Change("decision.set", "decision", f"{ruling.round}/{player.table}",
                                          before=before or None, after=new, reason=f"corrected by {SOURCE}"), game.id)
        row = session.scalar(select(Standing).where(Standing.game_id == game.id, Standing.table_no == player.table))
        if row is None:
            row = Standing(game_id=game.id, table_no=player.table)
            session.add(row)
        new = _standing_fields(player)
        before = upsert_fields(row, new, STANDING_FIELDS)
        if before is not None:
            record(session, actor, Change("standing.set", "standing", player.table, before=before or None, after=new,
                                          reason=f"corrected by {SOURCE}"), game.id)
    return counts


def correct_anticipation(store: Store, game_id: int, number: int | None, actor: str) -> tuple[int, dict[str, int], int]:
    """Correct the game up to round `number` (default: the newest laid-out round) and store it."""
    with store.session() as s:
        game = get_game(s, game_id)
        rnd = get_round(s, game, number)
        case, held = build_input(s, game, rnd.number)
        number = rnd.number
    result = correct_anticipation_game(load_game(case, source=f"game {game_id}"))  # outside any transaction
    with store.session() as s:
        game = get_game(s, game_id)
        counts = store_result(s, game, result, actor, case["slips"])
        rnd = get_round(s, game, number)
        if rnd.status == "open":
            rnd.status = "corrected"
    return number, counts, held

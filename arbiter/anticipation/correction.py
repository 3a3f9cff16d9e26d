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

from ..errors import WorkflowError
from ..round.rows import held_slips, upsert_fields
from ..store.audit import Change, record
from ..store.games import get_game, get_round, players, require_kind, rounds, verify_wordlist
from ..store.models import Appeal, Decision, Game, Sanction, Slip, Standing
from ..store.store import Store
from .letters import BLIND, blind_groups

SOURCE = "corrector.anticipation"
# A 6.5 appeals an anticipation game takes: a slip misread (the slip as really written replaces
# the reading, and the player's board is replayed from it), a technical warning or penalty lifted.
ANTICIPATION_APPEAL_KINDS = ("reading", "warning", "penalty")
APPEAL_ACTIONS = {"warning": "cancel_warning", "penalty": "cancel_penalty"}  # the corrector's names
SLIP_FIELDS = ("position", "word", "jokers", "score", "moves", "total", "cancel_round", "verify", "verify_words")
DECISION_FIELDS = ("status", "score", "credited", "warning", "penalty", "articles", "explanation", "flags", "moves")
STANDING_FIELDS = ("total", "warnings", "penalties", "disciplinary", "eliminated", "rank", "detail", "percent_of_top")


def build_input(session: Session, game: Game, through_round: int | None = None) -> tuple[dict[str, Any], int]:
    """The game in the anticipation input form, and how many slips wait in the review queue
    (held back: they count as missing until an arbiter has looked, as in duplicate)."""
    require_kind(game, "anticipation", "round correct")
    if not game.wordlist_path:
        raise WorkflowError(f"game {game.id} has no word list: give one with `game new --words FILE`")
    blind = game.variant == BLIND
    if not game.groups or not game.group_order:
        raise WorkflowError(f"game {game.id}: set the groups and the order first (`round groups`, `round order`)")
    order = list(game.group_order)[:through_round] if through_round is not None else list(game.group_order)
    slips, held = [], 0
    for rnd in rounds(session, game):
        if rnd.number > len(order):
            break
        waiting = held_slips(session, rnd)
        for s in session.scalars(select(Slip).where(Slip.round_id == rnd.id, Slip.state == "filed",
                                                    Slip.table_no.is_not(None)).order_by(Slip.table_no)):
            if s.id in waiting:
                held += 1
                continue
            slips.append({**s.content, "table": s.table_no, "round": rnd.number})  # filed where the arbiter put it
    slips = _appealed(session, game, slips, len(order))
    sanctions = session.scalars(select(Sanction).where(Sanction.game_id == game.id, Sanction.status == "active")
                           .order_by(Sanction.id))
    disciplinary = []
    for s in sanctions:  # an elimination (D 7.1.3) stops the correction after its round, as A 6.4's second warning
        if s.round_no is None or s.round_no <= len(order):
            disciplinary.append({"table": s.table_no, "round": min(s.round_no or len(order), len(order)),
                                 "reason": s.reason, "cheating": s.kind == "elimination"})
    own = blind_groups(session, game) if blind else {}
    case = {"type": "anticipation", "rules": game.rules, "variant": game.variant,
            "words": {"file": verify_wordlist(game)}, "groups": None if blind else list(game.groups), "order": order,
            "players": [{"table": p.table_no, "name": p.name, **({"groups": own[p.table_no]} if blind else {})}
                        for p in players(session, game)],
            "slips": slips, "disciplinary": disciplinary,
            "appeals": [{"table": a.table_no, "round": a.round_no, "action": APPEAL_ACTIONS[a.kind], "reason": a.reason,
                         "by": a.actor, "at": a.created_at.strftime("%Y-%m-%d %H:%M")}
                        for a in session.scalars(select(Appeal).where(Appeal.game_id == game.id,
                                                                      Appeal.status == "upheld").order_by(Appeal.id))
                        if a.kind in APPEAL_ACTIONS and a.round_no is not None and a.round_no <= len(order)]}
    return case, held


def _appealed(session: Session, game: Game, slips: list[dict[str, Any]], rounds_laid: int) -> list[dict[str, Any]]:
    """Upheld reading appeals (D 6.5): the slip as the appeal says it is written replaces the
    reading (the stored slip stays as read; the appeal and its audit entry say why). An appeal on
    a round with no slip filed gives the slip the appeal describes."""
    by_key = {(s["table"], s["round"]): s for s in slips}
    for a in session.scalars(select(Appeal).where(Appeal.game_id == game.id, Appeal.status == "upheld")
                             .order_by(Appeal.id)):
        if a.kind not in ANTICIPATION_APPEAL_KINDS:
            raise WorkflowError(f"appeal {a.id}: kind {a.kind} is not taken in an anticipation game "
                                f"(only {', '.join(ANTICIPATION_APPEAL_KINDS)})")
        if a.kind != "reading" or a.round_no is None or a.round_no > rounds_laid:
            continue
        written = by_key.get((a.table_no, a.round_no), {"table": a.table_no, "round": a.round_no})
        fields = {k: v for k, v in a.change.items() if k in SLIP_FIELDS}
        if "moves" in fields:  # a slip is one move or a list of moves, never both
            written = {k: v for k, v in written.items() if k not in ("position", "word", "jokers", "score")}
        by_key[(a.table_no, a.round_no)] = {**written, **fields, "table": a.table_no, "round": a.round_no}
    return [by_key[k] for k in sorted(by_key, key=lambda k: (k[1], k[0]))]


def appealed_rounds(session: Session, game: Game) -> set[tuple[int, int]]:
    """(round, table) of every upheld appeal: their decisions are marked `on_appeal`."""
    return {(a.round_no, a.table_no) for a in session.scalars(
        select(Appeal).where(Appeal.game_id == game.id, Appeal.status == "upheld"))}


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


def anticipation_top(result: AnticipationResult) -> int | None:
    """The "top" an anticipation result is measured against: the best total of a ranked player.
    **Decision:** RULES.md §4's "% of the game's top total" is the sum of a shared board's tops;
    an anticipation game has no shared board (each player builds an own, RULES.md §7) and A 6.6
    ranks by total, so the results show each total as a share of the best total."""
    totals = [p.total for p in result.players if not p.eliminated]
    return max(totals) if totals else None


def percent_of(total: int, top: int | None) -> float | None:
    return round(100.0 * total / top, 2) if top else None


def _standing_fields(player: PlayerResult, top: int | None) -> dict[str, Any]:
    data = player.to_json()
    return {"total": player.total, "percent_of_top": None if player.eliminated else percent_of(player.total, top), "warnings": len(player.warning_charges),
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
    appealed = appealed_rounds(session, game)
    top = anticipation_top(result)
    if game.top_total != top:
        record(session, actor, Change("game.top_total", "game", game.id, before={"top_total": game.top_total},
                                      after={"top_total": top}, reason="the best total (anticipation)"), game.id)
        game.top_total = top
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
            new["on_appeal"] = (ruling.round, player.table) in appealed
            before = upsert_fields(row, new, DECISION_FIELDS + ("on_appeal",))
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
        new = _standing_fields(player, top)
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

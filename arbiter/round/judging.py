"""The link to the judge (issue 4): the store's game as a CASE, and the judge's output stored as
decisions and standings. The judge is called in process through the library's one entry,
`corrector.judgment.judge` (the same as `fluturas judge`), so this module owns no rule of RULES.md
§3–4: every score, warning, total and rank in the store is the judge's.

Re-correcting is idempotent: the whole game up to the round is judged again (warnings count in
round order and solos depend on every player, RULES.md §4) and stored in ONE transaction, so a
crash leaves the previous correction intact and the re-run stores each decision once."""
from __future__ import annotations

import json
import math
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrector.judging.rulings import Status
from corrector.errors import NotationError
from corrector.judgment import judge
from corrector.rulepack import RulePack, load_pack

from ..errors import ReadingError, WorkflowError
from ..review.review import flag_decision
from ..store.audit import Change, record
from ..store.games import players, rounds, verify_wordlist
from ..store.models import Appeal, Decision, Game, ReviewItem, Round, Sanction, Slip, Standing
from ..store.validation import LARGEST, game_ceiling, round_ceiling, total_floor
from .rows import held_slips, upsert_fields

DECISION_FIELDS = ("status", "score", "credited", "warning", "penalty", "articles", "explanation", "flags")
STANDING_FIELDS = ("total", "warnings", "penalties", "solos", "disciplinary", "eliminated", "rank", "percent_of_top")


APPEAL_ACTIONS = {"warning": "cancel_warning", "penalty": "cancel_penalty", "incorrect": "set_score",
                  "total": "set_score", "repeated": "repeat_average", "reading": "reread"}
NOT_FOR_REVIEW = ("APPEAL_APPLIED",)


def _slip(slip: Slip) -> dict[str, Any]:
    c = slip.content
    if "moves" in c:  # a tactic slip (D 8.6): two moves and the round total
        out = {"table": c.get("table"), "round": c.get("round"), "total": c.get("total"),
               "moves": [{k: m.get(k) for k in ("position", "word", "score")} | {"jokers": list(m.get("jokers") or [])}
                         for m in c["moves"]]}
    else:
        out = {"table": c.get("table"), "round": c.get("round"), "score": c.get("score"),
               "position": c.get("position"), "word": c.get("word"), "jokers": list(c.get("jokers") or [])}
    if c.get("table") != slip.table_no:  # a table written wrong or not at all: whose slip it is
        out["player_table"] = slip.table_no
    return out


def _appeal(a: Appeal, slips: dict[tuple[int, int], dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"table": a.table_no, "round": a.round_no, "action": APPEAL_ACTIONS[a.kind],
                           "reason": a.reason, "by": a.actor, "at": a.created_at.strftime("%Y-%m-%d %H:%M")}
    if a.kind in ("incorrect", "total"):
        out["score"] = a.change["score"]
    elif a.kind == "repeated" and a.change.get("cap") is not None:
        out["cap"] = a.change["cap"]
    elif a.kind == "reading":
        written = slips.get((a.round_no, a.table_no)) or {"table": a.table_no, "round": a.round_no}
        fields = {k: v for k, v in a.change.items() if k in ("table", "round", "score", "position", "word", "jokers")}
        out["slip"] = {**written, **fields}
    return out


def build_case(session: Session, game: Game, through_round: int | None = None) -> tuple[dict[str, Any], int]:
    """The game in the judge's CASE.json form (docs/judge.md), and how many slips are held
    back because their reading waits in the review queue."""
    if not game.wordlist_path:
        raise WorkflowError(f"game {game.id} has no word list: give one with `game new --words FILE`")
    case_rounds, held, written = [], 0, {}
    for rnd in rounds(session, game):
        if through_round is not None and rnd.number > through_round:
            break
        waiting = held_slips(session, rnd)
        slips = []
        for s in session.scalars(select(Slip).where(Slip.round_id == rnd.id, Slip.state == "filed",
                                                    Slip.table_no.is_not(None)).order_by(Slip.table_no)):
            if s.id in waiting:
                held += 1
                continue
            slips.append(_slip(s))
            written[(rnd.number, s.table_no)] = slips[-1]
        tactic = game.variant == "tactic"  # D 8.6: two groups, two continuation moves
        case_rounds.append({"round": rnd.number, "rack": rnd.rack.split("/") if tactic else rnd.rack,
                            "continuation": ([m.strip() for m in rnd.continuation.split(";")] if tactic else
                                             rnd.continuation) if rnd.continuation else "top",
                            "slips": slips})
    last = case_rounds[-1]["round"] if case_rounds else 1
    sanctions = session.scalars(select(Sanction).where(Sanction.game_id == game.id, Sanction.status == "active")
                           .order_by(Sanction.id))
    appeals = session.scalars(select(Appeal).where(Appeal.game_id == game.id, Appeal.status == "upheld")
                              .order_by(Appeal.id))
    case = {
        "rules": game.rules, "category": game.category, "variant": game.variant,
        "words": {"file": verify_wordlist(game)},
        "players": [{"table": p.table_no, "name": p.name} for p in players(session, game)],
        "rounds": case_rounds,
        "disciplinary": [{"table": s.table_no, "round": min(s.round_no or last, last), "reason": s.reason,
                          "cheating": s.kind == "elimination"} for s in sanctions if (s.round_no or last) <= last],
        "appeals": [_appeal(a, written) for a in appeals if a.round_no is None or a.round_no <= last],
    }
    return case, held


def has_decisions(session: Session, game_id: int) -> bool:
    """Whether any round of the game has been corrected (a sanction or an appeal then re-judges)."""
    return session.scalar(select(Decision.id).join(Round, Round.id == Decision.round_id)
                          .where(Round.game_id == game_id).limit(1)) is not None


def rejudge(session: Session, game: Game, actor: str, what: str) -> dict[str, int] | None:
    """Judge the whole game again inside the caller's transaction, so a change that the judge
    cannot apply (an appeal naming a slip it cannot find, a total the store cannot hold) is
    refused with the change itself and nothing is stored. None, and nothing judged, while no
    round is corrected yet or a reading waits in review (as `correction.recorrect`)."""
    from exitcodes import FluturasError
    from sqlalchemy.exc import DataError

    from ..store.validation import blockers

    session.flush()
    if not has_decisions(session, game.id) or blockers(session, game, readings_only=True):
        return None
    try:
        if game.kind == "anticipation":  # its own corrector (RULES.md §7), the same steps as `round correct`
            from corrector.anticipation import correct_anticipation_game
            from corrector.anticipation.judge import load_game

            from ..anticipation.correction import build_input, store_result

            case, _held = build_input(session, game, max(r.number for r in rounds(session, game)))
            result = correct_anticipation_game(load_game(case, source=f"game {game.id}"))
            counts = store_result(session, game, result, actor, case["slips"])
        else:
            case, _held = build_case(session, game)
            counts = store_judgement(session, game, run_judge(case), actor, "fluturas judge")
        session.flush()
    except DataError as exc:
        raise WorkflowError(f"{what} refused: the totals it gives cannot be stored ({exc.orig}); "
                            f"nothing was stored") from exc
    except FluturasError as exc:
        raise WorkflowError(f"{what} refused: the judge cannot apply it ({exc}); nothing was stored") from exc
    newest = max(rounds(session, game), key=lambda r: r.number)
    if newest.status == "open":
        newest.status = "corrected"
    return counts


def run_judge(case: dict[str, Any], source: str = "the stored game") -> dict[str, Any]:
    """The judge's output for the stored game, in process (`corrector.judgment.judge`), in its JSON
    form: the form stored and compared with what is already stored."""
    return json.loads(json.dumps(judge(case, source).to_json(), ensure_ascii=False))


def _keyed(items: Any, key: str) -> dict[int, dict[str, Any]]:
    """A list of objects carrying `key`, or an object keyed by the number as text → {number: object}."""
    if isinstance(items, dict):
        return {int(k): v for k, v in items.items()}
    return {int(item[key]): item for item in items or []}


def decisions_of(output: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    """(round, table) → decision, from the judge's output (a list of rounds each with its
    `slips`, as docs/judge.md gives it, or objects keyed by round and table number)."""
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for number, rnd in _keyed(output.get("rounds"), "round").items():
        per_table = rnd.get("slips", rnd.get("decisions", rnd)) if isinstance(rnd, dict) else rnd
        if isinstance(per_table, dict):
            per_table = {k: v for k, v in per_table.items() if str(k).isdigit()}
        for table, decision in _keyed(per_table, "table").items():
            out[(number, table)] = decision
    return out


def store_judgement(session: Session, game: Game, output: dict[str, Any], actor: str, source: str) -> dict[str, int]:
    """Upsert every decision and standing of `output`; audit each one that changes; queue the
    decisions the judge flagged. Returns counts (changed, unchanged, flagged)."""
    check_judge_output(output, source, game)
    by_number = {r.number: r for r in rounds(session, game)}
    seated = {p.table_no for p in players(session, game)}
    counts = {"changed": 0, "unchanged": 0, "flagged": 0}
    appealed = {(a.round_no, a.table_no) for a in session.scalars(
        select(Appeal).where(Appeal.game_id == game.id, Appeal.status == "upheld"))}
    for (number, table), data in sorted(decisions_of(output).items()):
        rnd: Round | None = by_number.get(number)
        if rnd is None or table not in seated:
            raise WorkflowError(f"{source}: round {number}, table {table}: not in game {game.id}")
        row = session.scalar(select(Decision).where(Decision.round_id == rnd.id, Decision.table_no == table))
        new = {f: data.get(f) for f in DECISION_FIELDS}
        new["articles"], new["flags"] = list(new["articles"] or []), list(new["flags"] or [])
        new["explanation"] = new["explanation"] if isinstance(new["explanation"], dict) else \
            ({"en": new["explanation"]} if new["explanation"] else {})
        new["score"], new["credited"] = int(new["score"] or 0), int(new["credited"] or 0)
        new["solo"] = bool(data.get("solo")) or "solo" in new["flags"]
        new["on_appeal"] = (number, table) in appealed or bool(data.get("appeals")) or "APPEAL_APPLIED" in new["flags"]
        row = row or Decision(round_id=rnd.id, table_no=table)
        before = upsert_fields(row, new, tuple(new))
        if before is None:
            counts["unchanged"] += 1
            continue
        session.add(row)
        counts["changed"] += 1
        record(session, actor, Change("decision.set", "decision", f"{number}/{table}", before=before or None,
                                      after=new, reason=f"judged from {source}"), game.id)
        if _queue_foreign_letters(session, game, rnd, table):
            counts["flagged"] += 1
        to_review = [str(f) for f in new["flags"] if f not in NOT_FOR_REVIEW and f != "solo"]
        if to_review and not new["on_appeal"]:
            slip_id = session.scalar(select(Slip.id).where(Slip.round_id == rnd.id, Slip.table_no == table,
                                                           Slip.state == "filed"))
            if flag_decision(session, rnd, table, slip_id, "judge flagged: " + ", ".join(to_review)):
                counts["flagged"] += 1
    _store_standings(session, game, output, actor, source)
    return counts


def letters_outside(pack: RulePack, content: dict[str, Any]) -> list[str]:
    """The words of a slip that hold a character no tile of the set carries (RULES.md §1): a
    reading gone wrong rather than a move, since no player can write a tile the bag lacks."""
    moves = content.get("moves") if isinstance(content.get("moves"), list) else [content]
    out = []
    for move in moves:
        word = move.get("word") if isinstance(move, dict) else None
        if word:
            try:
                pack.tiles.parse_word(str(word))
            except (NotationError, ValueError):
                out.append(str(word))
    return out


def _queue_foreign_letters(session: Session, game: Game, rnd: Round, table: int) -> bool:
    """A filed slip whose word holds letters outside the set goes to review as a reading (the
    judge ruled it incorrect, 0 points; an arbiter reads the slip before that stands): once."""
    slip = session.scalar(select(Slip).where(Slip.round_id == rnd.id, Slip.table_no == table, Slip.state == "filed"))
    if slip is None:
        return False
    words = letters_outside(load_pack(game.rules), slip.content)
    if not words:
        return False
    reason = f"the word {words[0]} holds letters that are not in the set: read the slip again"
    if session.scalar(select(ReviewItem.id).where(ReviewItem.slip_id == slip.id, ReviewItem.reason == reason)):
        return False
    session.add(ReviewItem(game_id=game.id, round_id=rnd.id, slip_id=slip.id, table_no=table, kind="reading",
                           reason=reason))
    return True


def _store_standings(session: Session, game: Game, output: dict[str, Any], actor: str, source: str) -> None:
    for table, data in _keyed(output.get("tables"), "table").items():
        row = session.scalar(select(Standing).where(Standing.game_id == game.id, Standing.table_no == table))
        new = {f: data.get(f) for f in STANDING_FIELDS}
        for f in ("total", "warnings", "penalties", "solos", "disciplinary"):
            new[f] = int(new[f] or 0)
        new["eliminated"] = bool(new["eliminated"])
        row = row or Standing(game_id=game.id, table_no=table)
        before = upsert_fields(row, new, STANDING_FIELDS)
        if before is None:
            continue
        session.add(row)
        record(session, actor, Change("standing.set", "standing", table, before=before or None, after=new,
                                      reason=f"judged from {source}"), game.id)
    top = output.get("top_total")
    if top is not None and top != game.top_total:
        record(session, actor, Change("game.top_total", "game", game.id, before={"top_total": game.top_total},
                                      after={"top_total": top}), game.id)
        game.top_total = top


def _whole_or_none(value: Any, least: int = -LARGEST, most: int = LARGEST) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and least <= value <= most)


STATUSES = frozenset(s.name for s in Status)


def _named(value: Any, names: frozenset[str]) -> bool:
    """A ruling's name as the judge writes it (`VALID`; `valid` is the same)."""
    return isinstance(value, str) and value.upper() in names


def check_judge_output(output: Any, where: str, game: Game | None = None) -> None:
    """A judge output given as a file (`round correct --judge-output`) in the shape docs/judge.md
    gives, checked before anything is stored: one line naming the round, table and field at fault.
    Statuses are the judge's names; counts are ≥ 0, ranks ≥ 1; with the
    game, points lie within what a round (`validation.round_ceiling`) or the game can give."""
    if not isinstance(output, dict):
        raise ReadingError(f"{where}: a judge output is a JSON object, found {type(output).__name__}")
    try:
        decisions = decisions_of(output)
        tables = _keyed(output.get("tables"), "table")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReadingError(f"{where}: rounds or tables not in the judge's form (docs/judge.md): {exc!r}") from exc
    points = round_ceiling(game) if game is not None else LARGEST
    totals = game_ceiling(game) if game is not None else LARGEST
    floor = total_floor(game) if game is not None else -LARGEST
    for key in list(decisions) + [(1, t) for t in tables]:
        if not all(_whole_or_none(k, 1) for k in key):
            raise ReadingError(f"{where}: round or table {key}: out of range")
    for (number, table), data in decisions.items():
        at = f"{where}: round {number}, table {table}"
        if not isinstance(data, dict):
            raise ReadingError(f"{at}: a decision is an object")
        for name in ("score", "credited"):
            if not _whole_or_none(data.get(name), 0, points):
                raise ReadingError(f"{at}: field {name}: expected a whole number of points 0–{points}, "
                                   f"found {data.get(name)!r}")
        for name in ("flags", "articles"):
            if not isinstance(data.get(name) or [], list):
                raise ReadingError(f"{at}: field {name}: expected a list")
        if not _named(data.get("status"), STATUSES):
            raise ReadingError(f"{at}: field status: {data.get('status')!r} is not a ruling "
                               f"({', '.join(sorted(STATUSES))})")
        for name in ("warning", "penalty"):
            if not isinstance(data.get(name), (str, type(None))):
                raise ReadingError(f"{at}: field {name}: expected text")
    for table, data in tables.items():
        at = f"{where}: tables, table {table}"
        if not isinstance(data, dict):
            raise ReadingError(f"{at}: a standing is an object")
        if not _whole_or_none(data.get("total"), floor, totals):
            raise ReadingError(f"{at}: field total: expected a whole number from {floor} to {totals}, "
                               f"found {data.get('total')!r}")
        for name in ("warnings", "penalties", "solos", "disciplinary"):
            if not _whole_or_none(data.get(name), 0):
                raise ReadingError(f"{at}: field {name}: expected a whole number ≥ 0, found {data.get(name)!r}")
        if not _whole_or_none(data.get("rank"), 1):
            raise ReadingError(f"{at}: field rank: expected a place ≥ 1, found {data.get('rank')!r}")
        pct = data.get("percent_of_top")
        if pct is not None and (isinstance(pct, bool) or not isinstance(pct, (int, float)) or not math.isfinite(pct)):
            raise ReadingError(f"{at}: field percent_of_top: expected a percentage, found {pct!r}")
    if not _whole_or_none(output.get("top_total"), floor, totals):
        raise ReadingError(f"{where}: field top_total: expected a whole number from {floor} to {totals}")

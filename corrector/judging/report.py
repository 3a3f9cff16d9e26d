"""The judge output as plain data (documented in docs/judge.md): enum names, sorted lists, no
timestamps, so the same input always gives byte-identical JSON."""
from __future__ import annotations

from typing import Any

from corrector.judging.decision import Decision
from corrector.judging.result import GameResult


def _names(items) -> list[str]:
    return [item.name for item in items]


def decision_json(decision: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {
        "status": decision.status.name,
        "score": decision.score,
        "credited": decision.credited,
        "move": str(decision.move) if decision.move else None,
        "written": decision.written or None,
        "warning": decision.warning.name if decision.warning else None,
        "penalty": decision.penalty.name if decision.penalty else None,
        "violation": decision.violation.reason.name if decision.violation else None,
        "articles": decision.articles(),
        "explanation": {"ro": decision.explain("ro"), "en": decision.explain("en")},
        "flags": _names(decision.flags),
        "waived": _names(decision.waived),
    }
    if decision.more_warnings:
        out["more_warnings"] = _names(decision.more_warnings)
    if decision.parts:
        out["parts"] = [decision_json(p) for p in decision.parts]
        out["penalties"] = _names(decision.all_penalties())
    return out


def result_json(result: GameResult) -> dict[str, Any]:
    charges = {t: {w.round: w for w in s.warnings} for t, s in result.tables.items()}
    rounds = []
    for rnd in result.rounds:
        slips = []
        for table, decision in sorted(rnd.decisions.items()):
            row = {"table": table, **decision_json(decision)}
            charge = charges[table].get(rnd.number)
            row["warning_cost"] = sum(w.cost for w in result.tables[table].warnings if w.round == rnd.number)
            row["warning_ordinal"] = charge.ordinal if charge else None
            row["solo"] = rnd.solo == table
            row["appeals"] = [{"action": a.action, "reason": a.reason, "by": a.by, "at": a.at}
                              for a in rnd.appeals.get(table, [])]
            slips.append(row)
        rounds.append({"round": rnd.number, "rack": list(rnd.racks), "top": rnd.top,
                       "continuation": list(rnd.continuation), "solo": rnd.solo, "slips": slips})
    tables = []
    for table, s in sorted(result.tables.items()):
        row: dict[str, Any] = {
            "table": table, "name": s.name, "total": s.total, "moves": s.moves,
            "warnings": len(s.warnings), "warning_cost": s.warning_cost, "penalties": s.penalties,
            "solos": len(s.solos), "solo_rounds": list(s.solos),
            "disciplinary": len(s.disciplinary.rounds), "disciplinary_deduction": s.disciplinary.deduction,
            "eliminated": s.eliminated, "eliminated_in": s.disciplinary.eliminated_in,
            "rank": s.rank, "percent_of_top": s.percent_of_top,
        }
        if s.top is not None:
            row.update({"tops": s.top.tops, "tops_found": s.top.found, "finders_sum": s.top.finders_sum,
                        "top_points": s.top.top_points})
        tables.append(row)
    case = result.case
    return {"rules": case.pack.name, "variant": case.variant, "category": "youth" if case.youth else "senior",
            "top_total": result.top_total, "rounds": rounds, "tables": tables,
            "ranking": [t["table"] for t in sorted(tables, key=lambda t: (t["rank"] is None, t["rank"] or 0, t["table"]))]}

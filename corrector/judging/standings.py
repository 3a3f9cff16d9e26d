"""Totals and ranking of a whole game (RULES.md §4, §6; D 5.3.8, 6.2–6.4, 6.6, 8.4)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from corrector.judging.solo import find_solo
from corrector.judging.ranking import TopRecord, percent_of_top, rank_tops, rank_totals
from corrector.judging.sanctions import charge_warnings, disciplinary, top_deduction
from corrector.judging.result import RoundResult, Standing

if TYPE_CHECKING:
    from corrector.judging.case import Case


def _solo_basis(decision, policy: str) -> int:
    return decision.credited if policy == "credited" else decision.score


def assign_solos(case: "Case", rounds: list["RoundResult"]) -> None:
    """D 5.3.8 with the solo_basis Decision: judged among legal moves."""
    policy = case.pack.policies.solo_basis
    for rnd in rounds:
        scores = {t: _solo_basis(d, policy) for t, d in rnd.decisions.items() if d.legal}
        rnd.solo = find_solo(scores, len(case.players), case.pack.sanctions)


def _top_records(case: "Case", rounds: list["RoundResult"]) -> dict[int, TopRecord]:
    """D 8.4: the room's best legal score each round is its top; deductions count only in the
    player's top rounds, disciplinary warnings at any time."""
    found: dict[int, list[int]] = {t: [] for t in case.players}
    finders: dict[int, int] = {}
    best: dict[int, int] = {}
    for rnd in rounds:
        legal = {t: d.score for t, d in rnd.decisions.items() if d.legal}
        best[rnd.number] = max(legal.values(), default=0)
        tops = [t for t, s in legal.items() if s == best[rnd.number] and s > 0]
        finders[rnd.number] = len(tops)
        for t in tops:
            found[t].append(rnd.number)
    records = {}
    by_round = {rnd.number: rnd for rnd in rounds}
    for table, top_rounds in found.items():
        decisions = [by_round[r].decisions[table] for r in top_rounds]
        warnings = sum(len(d.all_warnings()) for d in decisions)
        penalties = sum(len(d.all_penalties()) for d in decisions)
        discipline = len(case.disciplinary.get(table, ()))
        tops = len(top_rounds) - top_deduction(warnings, penalties, discipline)
        records[table] = TopRecord(tops, len(top_rounds), sum(finders[r] for r in top_rounds),
                                   sum(best[r] for r in top_rounds))
    return records


def standings(case: "Case", rounds: list["RoundResult"]) -> dict[int, Standing]:
    assign_solos(case, rounds)
    sanctions = case.pack.sanctions
    top_total = sum(r.top for r in rounds)
    rows = {}
    for table, name in sorted(case.players.items()):
        decisions = [(rnd.number, rnd.decisions[table]) for rnd in rounds]
        warnings = tuple(charge_warnings([(n, w) for n, d in decisions for w in d.all_warnings()], sanctions))
        penalties = sum(len(d.all_penalties()) for _, d in decisions)
        solos = tuple(rnd.number for rnd in rounds if rnd.solo == table)
        discipline = disciplinary(case.disciplinary.get(table, ()), sanctions, case.cheating.get(table))
        moves = sum(d.credited for _, d in decisions)
        total = moves - sum(w.cost for w in warnings) - discipline.deduction + sanctions.solo_bonus * len(solos)
        rows[table] = (name, moves, warnings, penalties, solos, discipline, total)
    ranked = {t: row[6] for t, row in rows.items() if row[5].eliminated_in is None}
    tops = _top_records(case, rounds) if case.variant == "top" else {}
    if case.variant == "top":
        places = rank_tops({t: tops[t] for t in ranked})
    else:
        places = rank_totals(ranked)
    return {
        t: Standing(t, name, moves, warnings, penalties, solos, discipline, total, places.get(t),
                    percent_of_top(total, top_total) if t in ranked else None, tops.get(t))
        for t, (name, moves, warnings, penalties, solos, discipline, total) in rows.items()
    }

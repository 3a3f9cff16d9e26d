"""`fluturas judge`: a whole game corrected from a judge input, duplicate or anticipation."""
from __future__ import annotations

from pathlib import Path

import click

from arbiter.commands.common import emit_json


# --- correction -------------------------------------------------------------------------------

@click.command()
@click.argument("case", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (sorted keys, byte-stable).")
def judge(case: Path, as_json: bool) -> None:
    """Correct a whole duplicate game from a judge input (docs/judge.md): one decision per slip,
    sanctions, solos, totals and ranking (RULES.md §3, §4, §6). A file with "type": "anticipation"
    is an anticipation game (docs/anticipation.md, RULES.md §7)."""
    from corrector.judgment import judge_file

    judged = judge_file(case)
    if judged.kind == "anticipation":  # RULES.md §7: docs/anticipation.md
        _print_anticipation(judged.result, as_json)
        return
    data = judged.to_json()
    if as_json:
        emit_json(data)
        return
    for rnd in data["rounds"]:
        click.echo(f"round {rnd['round']}  {' / '.join(rnd['rack'])}  top {rnd['top']}  {' + '.join(rnd['continuation'])}")
        for slip in rnd["slips"]:
            flags = f"  [{', '.join(slip['flags'])}]" if slip["flags"] else ""
            click.echo(f"  table {slip['table']:>3}  {slip['status']:<13} {slip['credited']:>4}  {slip['explanation']['en']}{flags}")
    click.echo(f"top of the game: {data['top_total']}")
    click.echo(f"{'rank':>4}  {'table':>5}  {'name':<20} {'total':>6} {'%top':>7}  warnings penalties solos disciplinary")
    by_table = {t["table"]: t for t in data["tables"]}
    for table in data["ranking"]:
        t = by_table[table]
        rank = "-" if t["rank"] is None else str(t["rank"])
        pct = "-" if t["percent_of_top"] is None else f"{t['percent_of_top']:.2f}"
        extra = "  eliminated" if t["eliminated"] else ""
        if "tops" in t:  # duplicate top (D 8.4): ranked by tops
            extra = f"  tops {t['tops']} (found {t['tops_found']}, finders {t['finders_sum']}, points {t['top_points']})" + extra
        click.echo(f"{rank:>4}  {table:>5}  {t['name'][:20]:<20} {t['total']:>6} {pct:>7}  "
                   f"{t['warnings']:>8} {t['penalties']:>9} {t['solos']:>5} {t['disciplinary']:>12}{extra}")


# --- duplicate game master ----------------------------------------------------------------------


def _print_anticipation(result, as_json: bool) -> None:
    """Verification answers first (A 5.5.h), then every player's rounds and totals, by place."""
    if as_json:
        emit_json(result.to_json())
        return
    for answer in result.verifications:
        words = ", ".join(f"{c.word} {'DA' if c.valid else 'NU'}" for c in answer.checks)
        click.echo(f"Verificare  round {answer.round:>2}  table {answer.table:>3}: {words}")
    for player in result.standings():
        click.echo(f"\ntable {player.table} {player.name}")
        for rnd in player.rounds:
            for move in rnd.moves:
                revised = "; ".join(f"round {r.at_round}: {r.outcome.name} {r.old_score}→{r.new_score}"
                                    for r in move.revisions)
                click.echo(f"  {rnd.round:>2}.{move.slot} g{move.group:<2} {move.score:>4}  {move.decision.explain('en')}"
                           + (f"  [{revised}]" if revised else ""))
            if rnd.status.value != "played":
                click.echo(f"  {rnd.round:>2}   {rnd.status.value}")
            if rnd.warnings:
                click.echo(f"  {rnd.round:>2}   warning: {', '.join(w.name for w in rnd.warnings)}")
        click.echo(f"  moves {player.moves_total}, penalties −{player.penalty_total}, warnings −{player.warning_cost}"
                   f", total {player.total}, place {player.rank if player.rank is not None else '-'}")


COMMANDS = [judge]

"""The one entry point: `fluturas`. Only this module prints to the terminal and maps errors
to exit codes (exit 2: bad input, named by file and field; exit 1: a check found a problem)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from corrector.errors import FluturasError


class _Group(click.Group):
    """Turns the project's typed errors into one clear line and their exit code."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except FluturasError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except Exception as exc:  # errors of other packages that carry their own exit code
            code = getattr(exc, "exit_code", None)
            if not isinstance(code, int):
                raise
            click.echo(f"error: {exc}", err=True)
            ctx.exit(code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Correction system for Romanian Scrabble Federation duplicate and anticipation games."""


def _emit_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))


# --- engine -----------------------------------------------------------------------------------

@main.command()
@click.argument("record", type=click.Path(path_type=Path))
@click.option("--rules", "rules_name", default="ro", show_default=True, help="Rule pack (ro, pl, ca, en, fr) or pack.toml path.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def replay(record: Path, rules_name: str, as_json: bool) -> None:
    """Replay a GCG file or FRS duplicate game log and check every recorded placement score.

    Exit status 1 if any computed score differs from the recorded one.
    """
    from corrector.records import read_record
    from corrector.replay import replay as run_replay
    from corrector.rulepack import load_pack

    result = run_replay(read_record(record), load_pack(rules_name))
    if as_json:
        _emit_json(result.to_json())
    else:
        click.echo(f"{'line':>5}  {'player':<12} {'pos':<4} {'word':<17} {'recorded':>8} {'computed':>8}  agrees")
        for row in result.rows:
            computed = "-" if row.computed is None else str(row.computed)
            mark = "yes" if row.agrees else f"NO {row.problem}".rstrip()
            click.echo(f"{row.line:>5}  {row.player[:12]:<12} {row.position:<4} {row.word:<17} "
                       f"{row.recorded if row.recorded is not None else '-':>8} {computed:>8}  {mark}")
        skipped = ", ".join(f"{k} {v}" for k, v in sorted(result.skipped.items())) or "none"
        click.echo(f"{len(result.rows)} placements, {len(result.rows) - result.disagreements} agree, "
                   f"{result.disagreements} differ; skipped: {skipped}")
    if result.disagreements:
        sys.exit(1)


# --- correction -------------------------------------------------------------------------------

@main.command()
@click.argument("case", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (sorted keys, byte-stable).")
def judge(case: Path, as_json: bool) -> None:
    """Correct a whole duplicate game from a judge input (docs/judge.md): one decision per slip,
    sanctions, solos, totals and ranking (RULES.md §3, §4, §6). A file with "type": "anticipation"
    is an anticipation game (docs/anticipation.md, RULES.md §7)."""
    if _is_anticipation_file(case):  # RULES.md §7: docs/anticipation.md
        _judge_anticipation(case, as_json)
        return
    from corrector.case import load_case
    from corrector.judge import judge_case
    from corrector.report import result_json

    data = result_json(judge_case(load_case(case)))
    if as_json:
        _emit_json(data)
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


def _is_anticipation_file(case: Path) -> bool:
    from corrector.anticipation.judge import is_anticipation
    from corrector.errors import FluturasError

    try:
        return is_anticipation(json.loads(case.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FluturasError(f"{case}: cannot read the game file: {exc}") from exc


def _judge_anticipation(case: Path, as_json: bool) -> None:
    """Verification answers first (A 5.5.h), then every player's rounds and totals, by place."""
    from corrector.anticipation.judge import judge_file

    result = judge_file(case)
    if as_json:
        _emit_json(result.to_json())
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


if __name__ == "__main__":  # pragma: no cover
    main()

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
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def judge(case: Path, as_json: bool) -> None:
    """Correct a game file. A file with "type": "anticipation" is an anticipation game
    (docs/anticipation.md): the "Verificare" answers come first, then every player's rounds
    and totals, then the ranking."""
    from corrector.anticipation.judge import is_anticipation, judge_file
    from corrector.errors import FluturasError

    try:
        data = json.loads(case.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FluturasError(f"{case}: cannot read the game file: {exc}") from exc
    if not is_anticipation(data):
        raise FluturasError(f"{case}: duplicate games are corrected by the duplicate judge (issue 4), "
                            "not part of this build; anticipation files carry \"type\": \"anticipation\"")
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

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


# --- duplicate game master ----------------------------------------------------------------------

DEMO_WORDS = Path(__file__).resolve().parent / "samples" / "wordlists" / "ro-demo-hunspell.txt.gz"


def _load_words(words: Path | None, pack) -> tuple[object, str]:
    """The word list and how to name it: the bundled Romanian demo list unless --words is given."""
    from corrector.lexicon import load_lexicon

    if words is not None:
        return load_lexicon(words, pack), str(words)
    if pack.name != "ro":
        raise click.UsageError(f"no bundled word list for the {pack.name!r} rules: give --words FILE")
    return load_lexicon(DEMO_WORDS, pack), "demo list, not LOC"


def _candidate_json(candidate, flags=()) -> dict:
    placement = candidate.placement
    return {
        "position": placement.move.position.frs(),
        "word": placement.move.word,
        "score": placement.score,
        "tiles_used": "".join(str(t) for _, _, t in placement.new_tiles),
        "from_stock": "".join(candidate.use.from_stock),
        "leave": "".join(candidate.use.leave),
        "words": [w.text for w in placement.words],
        "bingo": placement.bingo,
    }


@main.command()
@click.option("--board", "board_path", required=True, type=click.Path(path_type=Path),
              help="Board file: 15 lines of 15 squares, '.' empty, uppercase tile, lowercase joker.")
@click.option("--rack", required=True, help="The group of letters, '?' for a joker.")
@click.option("--rules", "rules_name", default="ro", show_default=True, help="Rule pack name or pack.toml path.")
@click.option("--words", type=click.Path(path_type=Path), help="Word list (default: the bundled demo list, not LOC).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def top(board_path: Path, rack: str, rules_name: str, words: Path | None, as_json: bool) -> None:
    """Every move reaching the top score, the continuation first (D 5.3.7), with the flags the
    arbiter announces. The stock for the tie-breaks is every tile not on the board."""
    from collections import Counter

    from corrector.announcement import top_flags
    from corrector.bag import Bag
    from corrector.board import Board
    from corrector.continuation import find_tops, rank_tops
    from corrector.gamemaster import default_top_function
    from corrector.rulepack import load_pack
    from corrector.tiles import JOKER
    from corrector.variants import load_duplicate_rules

    pack = load_pack(rules_name)
    board = Board.load(board_path, pack)
    letters = pack.tiles.parse_rack(rack)
    lexicon, label = _load_words(words, pack)
    rules = load_duplicate_rules(pack)
    on_board = Counter(JOKER if t.joker else t.letter for _, _, t in board.tiles())
    stock = Bag.full(pack.tiles).counts() - on_board
    found = find_tops(board, letters, {}, rules.variant("classic"), pack, lexicon, default_top_function())
    ranked = rank_tops(found, stock, pack, rules.continuation, rules.end)
    flags = [a.text for a in top_flags(ranked[0], ranked, rules.letter_names)] if ranked else []
    if as_json:
        _emit_json({"word_list": label, "rack": "".join(letters), "top_score": ranked[0].score if ranked else None,
                    "flags": flags, "tops": [_candidate_json(c) for c in ranked]})
        return
    click.echo(f"word list: {label}")
    if not ranked:
        click.echo(f"no legal move with {''.join(letters)}")
        return
    click.echo(f"top {ranked[0].score} with {''.join(letters)}: {len(ranked)} move(s), the continuation first")
    for i, c in enumerate(ranked):
        data = _candidate_json(c)
        mark = "*" if i == 0 else " "
        click.echo(f"{mark} {data['position']:<4} {data['word']:<15} {data['score']:>4}  "
                   f"tiles {data['tiles_used']:<8} leave {data['leave'] or '-':<7} words {' '.join(data['words'])}")
    for text in flags:
        click.echo(text)


@main.command()
@click.option("--seed", required=True, type=int, help="Seed of the draws; the same seed gives the same game.")
@click.option("--variant", default="classic", show_default=True,
              help="classic, top, completiv, eliptic, super_joker, metagrama (D 8).")
@click.option("--rules", "rules_name", default="ro", show_default=True, help="Rule pack name or pack.toml path.")
@click.option("--words", type=click.Path(path_type=Path), help="Word list (default: the bundled demo list, not LOC).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def simulate(seed: int, variant: str, rules_name: str, words: Path | None, as_json: bool) -> None:
    """Play a whole duplicate game by tops (RULES.md §5-6) and print the game log."""
    import random

    from corrector.gamemaster import GameMaster
    from corrector.rulepack import load_pack

    pack = load_pack(rules_name)
    lexicon, label = _load_words(words, pack)
    game = GameMaster(pack, lexicon, variant, random.Random(seed), seed=seed).run()
    if as_json:
        _emit_json({**game.to_json(), "lexicon": label})
        return
    click.echo(f"variant {game.variant}, rules {game.rules}, seed {seed}, word list: {label}")
    click.echo(f"{'round':>5}  {'group':<17} {'pos':<4} {'top':<15} {'score':>5} {'total':>6}  flags")
    for r in game.rounds:
        group = r.group + (f" ({r.from_stock})" if r.from_stock else "")
        click.echo(f"{r.round:>5}  {group:<17} {r.position:<4} {r.word:<15} {r.score:>5} {r.cumulative:>6}  "
                   + "; ".join(r.flags))
        for rejected in r.rejected:
            click.echo(f"{'':>5}  given up: {rejected}")
    click.echo(f"partida s-a încheiat; topul partidei este de {game.total} puncte "
               f"(end: {game.end_reason}; stock left: {game.stock_left or '-'}; "
               f"tiles conserved: {'yes' if game.tiles_conserved else 'NO'})")
    for r in game.rounds:
        if r.equal_tops:
            click.echo(f"round {r.round} equal tops: {', '.join(r.equal_tops)}")


def _is_anticipation_file(case: Path) -> bool:
    """Dispatch on the file's "type" key; an unreadable file is left to the duplicate loader,
    which names what is wrong with it."""
    from corrector.anticipation.judge import is_anticipation

    try:
        return is_anticipation(json.loads(case.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False


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

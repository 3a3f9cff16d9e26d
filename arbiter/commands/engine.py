"""Engine commands: replay a game record, the tops of a position, a simulated game."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from exitcodes import ExitCode

from arbiter.commands.common import emit_json


@click.command()
@click.argument("record", type=click.Path(path_type=Path))
@click.option("--rules", "rules_name", default="ro", show_default=True, help="Rule pack (ro, pl, ca, en, fr) or pack.toml path.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def replay(record: Path, rules_name: str, as_json: bool) -> None:
    """Replay a GCG file or FRS duplicate game log and check every recorded placement score.

    Exit status 1 if any computed score differs from the recorded one.
    """
    from corrector.gamelogs.records import read_record
    from corrector.gamelogs.replay import replay as run_replay
    from corrector.rulepack import load_pack

    result = run_replay(read_record(record), load_pack(rules_name))
    if as_json:
        emit_json(result.to_json())
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
        sys.exit(ExitCode.CHECK_FAILED)


# --- arbiter workflow (issue 7) -----------------------------------------------------------------



def _load_words(words: Path | None, pack) -> tuple[object, str]:
    """The word list and how to name it: the bundled Romanian demo list unless --words is given."""
    from corrector.words.lexicon import load_lexicon
    from samples import DEMO_WORDS

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


def _check_rack(letters: list[str], stock, most: int) -> None:
    """The group a round can hold (RULES.md §5, D 8): no more letters than the largest group of
    the pack's variants, and only tiles still in the stock beside the board (RULES.md §1). A longer
    rack is no group at all, and the search over it would run for minutes."""
    from collections import Counter

    from corrector.tiles import JOKER

    if not letters:
        raise click.BadParameter("the group is empty", param_hint="'--rack'")
    if len(letters) > most:
        raise click.BadParameter(f"{len(letters)} letters; a group holds at most {most}", param_hint="'--rack'")
    for letter, count in sorted(Counter(letters).items()):
        if count > stock.get(letter, 0):
            name = "jokers ('?')" if letter == JOKER else f"tiles {letter}"
            raise click.BadParameter(f"{count} {name}, but only {stock.get(letter, 0)} left beside the board",
                                     param_hint="'--rack'")


@click.command()
@click.option("--board", "board_path", required=True, type=click.Path(path_type=Path),
              help="Board file: 15 lines of 15 squares, '.' empty, uppercase tile, lowercase joker.")
@click.option("--rack", required=True, help="The group of letters, '?' for a joker.")
@click.option("--rules", "rules_name", default="ro", show_default=True, help="Rule pack name or pack.toml path.")
@click.option("--words", type=click.Path(path_type=Path), help="Word list (default: the bundled demo list, not LOC).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def top(board_path: Path, rack: str, rules_name: str, words: Path | None, as_json: bool) -> None:
    """Every move reaching the top score, the continuation first (D 5.3.7), with the flags the
    arbiter announces. The stock for the tie-breaks is every tile not on the board."""
    from corrector.game.announcement import top_flags
    from corrector.game.bag import stock_beside
    from corrector.board import Board
    from corrector.game.continuation import find_tops, rank_tops
    from corrector.game.gamemaster import default_top_function
    from corrector.rulepack import load_pack
    from corrector.game.variants import load_duplicate_rules

    pack = load_pack(rules_name)
    board = Board.load(board_path, pack)
    letters = pack.tiles.parse_rack(rack)
    rules = load_duplicate_rules(pack)
    stock = stock_beside(board, pack.tiles)
    _check_rack(letters, stock, max(v.rack_size for v in rules.variants.values()))
    lexicon, label = _load_words(words, pack)
    found = find_tops(board, letters, {}, rules.variant("classic"), pack, lexicon, default_top_function())
    ranked = rank_tops(found, stock, pack, rules.continuation, rules.end)
    flags = [a.text for a in top_flags(ranked[0], ranked, rules.letter_names)] if ranked else []
    if as_json:
        emit_json({"word_list": label, "rack": "".join(letters), "top_score": ranked[0].score if ranked else None,
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


@click.command()
@click.option("--seed", required=True, type=int, help="Seed of the draws; the same seed gives the same game.")
@click.option("--variant", default="classic", show_default=True,
              help="classic, top, completiv, eliptic, super_joker, metagrama, tactic (D 8).")
@click.option("--rules", "rules_name", default="ro", show_default=True, help="Rule pack name or pack.toml path.")
@click.option("--words", type=click.Path(path_type=Path), help="Word list (default: the bundled demo list, not LOC).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def simulate(seed: int, variant: str, rules_name: str, words: Path | None, as_json: bool) -> None:
    """Play a whole duplicate game by tops (RULES.md §5-6) and print the game log."""
    import random

    from corrector.game.tacticmaster import master_for
    from corrector.rulepack import load_pack

    pack = load_pack(rules_name)
    lexicon, label = _load_words(words, pack)
    game = master_for(pack, lexicon, variant, random.Random(seed), seed=seed).run()
    if as_json:
        emit_json({**game.to_json(), "lexicon": label})
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

# --- scanner -------------------------------------------------------------------------------------


COMMANDS = [replay, top, simulate]

"""The round loop: draw or enter the group, the top, scan, correct, close."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from exitcodes import ExitCode, FluturasError

from arbiter.commands.common import NUMBER, open_db, store_options


@click.group("round")
def round_() -> None:
    """The round loop: set-rack (or draw), set-top, scan, correct, close."""


@round_.command("draw")
@store_options
def round_draw(db, game_id, actor) -> None:
    """Draw the next group by RULES.md §5 (the game master, from the game's seed)."""
    from arbiter.round.draw import draw_round
    from arbiter.store.games import get_game, require_kind

    with open_db(db).session() as s:
        g = get_game(s, game_id)
        require_kind(g, "duplicate", "round draw")
        rnd, lines = draw_round(s, g, actor)
        click.echo(f"round {rnd.number}: group {rnd.rack}")
    for line in lines:
        click.echo(f"  {line}")


@round_.command("set-rack")
@click.argument("letters")
@click.option("--round", "number", type=NUMBER, help="Round number (default: the next round).")
@click.option("--reason", help="Why the group changes (when correcting an entered group).")
@store_options
def round_set_rack(letters, number, reason, db, game_id, actor) -> None:
    """Enter the group drawn from a physical bag ('?' is a joker)."""
    from arbiter.store.games import get_game, require_kind
    from arbiter.round.rack import set_rack

    with open_db(db).session() as s:
        g = get_game(s, game_id)
        require_kind(g, "duplicate", "round set-rack")
        rnd = set_rack(s, g, letters, actor, number, reason=reason)
        click.echo(f"round {rnd.number}: group {rnd.rack}")


@round_.command("set-top")
@click.argument("move", default="top")
@click.option("--round", "number", type=NUMBER, help="Round number (default: the newest round).")
@store_options
def round_set_top(move, number, db, game_id, actor) -> None:
    """Record the continuation: the game master's choice among the tops (default), or the
    arbiter's move ("H4 MODEL", jokers lowercase). Lists every equal top and the flags."""
    from arbiter.store.games import get_game, get_round, require_kind
    from arbiter.round.tops import retain_continuation

    with open_db(db).session() as s:
        g = get_game(s, game_id)
        require_kind(g, "duplicate", "round set-top")
        rnd = get_round(s, g, number)
        score, found = retain_continuation(s, g, rnd, move, actor)
        click.echo(f"round {rnd.number}: continuation {rnd.continuation} = {score} points "
                   f"({len(found.tops)} top{'s' if len(found.tops) != 1 else ''} of {rnd.top_score})")
        for other in found.equal_tops:
            click.echo(f"  equal top: {other}")
        for flag in found.flags:
            click.echo(f"  {flag}")


@round_.command("groups")
@click.option("--draw", "draw", is_flag=True, help="Draw the 15 groups from the game's seed (A 5.2.d–e).")
@click.option("--set", "entered", help="The arbiter's 15 groups, comma-separated, group 1 first ('?' = joker).")
@click.option("--table", type=int, help="Blind variant (A 8.4): the groups this table's player composed (with --set).")
@click.option("--reason", help="Why (kept in the audit log).")
@store_options
def round_groups(draw, entered, table, reason, db, game_id, actor) -> None:
    """Anticipation: set the game's 15 groups, drawn or entered (RULES.md §7, A 5.2); in a blind
    game, each player's own (A 8.4)."""
    from arbiter.anticipation.letters import set_groups, set_player_groups
    from arbiter.errors import WorkflowError
    from arbiter.store.games import get_game

    if draw == (entered is not None) or (table is not None and draw):
        raise WorkflowError("choose --draw or --set GROUPS (--table N takes --set)")
    texts = None if draw else [t.strip() for t in entered.split(",")]
    with open_db(db).session() as s:
        g = get_game(s, game_id)
        if table is not None:
            done = set_player_groups(s, g, table, texts, actor, reason)
        else:
            done = set_groups(s, g, actor, texts, reason)
    for number, letters in enumerate(done.groups, start=1):
        click.echo(f"group {number:>2}: {letters}")
    for note in done.notes:
        click.echo(f"  {note}")


@round_.command("order")
@click.option("--draw", "draw", is_flag=True, help="Draw the round→group order by lot from the game's seed (A 5.3).")
@click.option("--through", type=NUMBER, help="With --draw: lay out only the first N rounds (the same the full draw gives).")
@click.option("--set", "entered", help="The 7-letter group of each round so far, e.g. '7,3,12' (extend it as lots come out).")
@click.option("--reason", help="Why (kept in the audit log).")
@store_options
def round_order(draw, through, entered, reason, db, game_id, actor) -> None:
    """Anticipation: the group each round plays (round 1 also plays group 1); lays out the rounds."""
    from arbiter.anticipation.letters import round_letters, set_order
    from arbiter.errors import WorkflowError
    from arbiter.store.games import get_game

    if draw == (entered is not None):
        raise WorkflowError("choose --draw or --set ORDER")
    try:
        numbers = None if draw else [int(t) for t in entered.split(",") if t.strip()]
    except ValueError as exc:
        raise click.BadParameter(f"{entered!r}: expected group numbers separated by commas") from exc
    with open_db(db).session() as s:
        g = get_game(s, game_id)
        order = set_order(s, g, actor, numbers, through, reason)
        lines = [f"round {n:>2}: group {'1 + ' if n == 1 else ''}{group}  {round_letters(g, n)}"
                 for n, group in enumerate(order, start=1)]
    for line in lines:  # printed once stored: a closed pipe cannot undo the order
        click.echo(line)


@round_.command("scan")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--round", "number", type=NUMBER, help="Round the pile belongs to (default: the newest round).")
@click.option("--threshold", type=float, default=None,
              help="Fields read with less confidence go to review, 0–1 (default: the reader's calibrated "
                   "threshold for images, 0.95 for readings files).")
@click.option("--keep", type=click.Choice(["ask", "old", "new"]), default="ask", show_default=True,
              help="A second slip for a table already filed: ask, keep the old one, or the new one "
                   "(the other is set aside, in review).")
@click.option("--round-mismatch", "mismatch", type=click.Choice(["file", "move"]), default=None,
              help="When most slips name another round (the wrong pile?): file them in this round anyway "
                   "(each in review) or move the pile to the round they name. Without it: asked at a "
                   "terminal, else refused.")
@click.option("--reader", default="cnn", show_default=True, help="Handwriting reader for images (cnn, tesseract).")
@store_options
def round_scan(paths, number, threshold, keep, mismatch, reader, db, game_id, actor) -> None:
    """File the slips of a round from images or the scanner's readings (.jsonl). Re-running is
    safe: a slip already filed (same image, or the same paper in other bytes) is recognised."""
    from arbiter.store.games import get_game, get_round
    from arbiter.slips.roundscan import refuse_wrong_pile, scan_round
    from arbiter.slips.scanchecks import Problems
    from arbiter.store.validation import check_threshold, require_not_final

    if threshold is not None:
        check_threshold(threshold)
    store = open_db(db)
    with store.session() as s:
        g = get_game(s, game_id)
        require_not_final(g, "filing slips")
        if g.kind == "anticipation":
            gid = g.id
        else:
            rnd = get_round(s, g, number)
            gid, rno = g.id, rnd.number
    if g.kind == "anticipation":
        problems = Problems()
        _scan_anticipation(store, gid, paths, number, threshold, keep, reader, actor, problems)
        _report(problems)
        return
    filed_so_far = [0]

    def choose(old, new):
        if keep != "ask":
            return keep
        click.echo(f"\ntable {old.table_no}, round {rno} already has a slip: {old.source} "
                   f"({old.content.get('position')} {old.content.get('word')} {old.content.get('score')})")
        click.echo(f"new slip: {new.source} ({new.values.get('position')} {new.values.get('word')} {new.values.get('score')})")
        return _ask("keep which", ["old", "new"], "--keep old or --keep new", filed_so_far[0])

    def wrong(found):
        if mismatch is not None:
            return mismatch
        if not sys.stdin.isatty():
            return refuse_wrong_pile(found)
        click.echo(found.question())
        answer = click.prompt(f"file it in round {found.named} (move), in round {found.scanned} (file), or stop",
                              type=click.Choice(["move", "file", "stop"]))
        return refuse_wrong_pile(found) if answer == "stop" else answer

    def track(pile):
        with click.progressbar(list(pile), label=f"round {rno}: filing slips", file=sys.stderr) as bar:
            for one in bar:
                yield one
                filed_so_far[0] += 1

    parse = None
    if g.variant == "tactic":  # D 8.6: the two-move slip
        from arbiter.anticipation.slips import parse_tactic_record as parse
    done = scan_round(store, gid, rno, paths, threshold, reader, actor, choose, parse, track, on_wrong_pile=wrong)
    rno = done.round
    click.echo(f"round {rno}: " + ", ".join(f"{v} {k}" for k, v in sorted(done.counts.items()))
               + f" ({done.readings} readings)")
    if done.decoder is not None:
        again = done.counts.get("duplicate", 0) + done.counts.get("refused", 0)
        plain = done.readings - done.decided - len(done.queued) - again
        click.echo(f"round {rno}: {done.decided} of {done.readings} slips decided against the round, "
                   f"{len(done.queued)} to review" + (f", {plain} filed as read" if plain else "")
                   + (f", {again} already filed or refused" if again else ""))
    for line in done.rescans:
        click.echo(f"  scanned again: {line} (`fluturas undo review ITEM` files it)")
    for line in done.queued:
        click.echo(f"  review: {line}")
    for line in done.others:
        click.echo(f"  review (filed before): {line}")
    if done.missing:
        click.echo(f"no slip yet for tables: {', '.join(map(str, done.missing))}")
    if done.flagged:
        click.echo(f"  review: tables {', '.join(map(str, done.flagged))} have no slip while slips wait set aside or "
                   f"without a table: one may be theirs (named on those items, `fluturas review`)")
    if done.pile is not None:
        click.echo(f"pile {done.pile}: `fluturas slip discard --pile {done.pile} --as wrong-pile` takes it all back")
    _report(done.problems)


def _ask(question: str, choices: list[str], options: str, stored: int) -> str:
    """A question at the terminal; with none to answer (stdin closed or not a terminal), a refusal
    naming the options that answer it beforehand."""
    try:
        return click.prompt(question, type=click.Choice(choices))
    except click.Abort as exc:
        raise NoTerminal(f"no terminal to ask {question!r}: run the command again with {options} "
                         f"(the {stored} slips handled before this one stay as filed and are recognised)") from exc


class NoTerminal(FluturasError):
    """A question with nobody to answer it; the slips before it are filed (CHECK_FAILED)."""

    exit_code = ExitCode.CHECK_FAILED


def _report(problems) -> None:
    """Each file or page of the pile that was not filed, then CHECK_FAILED (the rest is filed)."""
    from arbiter.slips.scanchecks import ScanProblems

    if problems.lines:
        for line in problems.lines:
            click.echo(f"  not filed: {line}", err=True)
        raise ScanProblems(f"{len(problems.lines)} files or pages not filed (listed above); the rest is filed")


def _scan_anticipation(store, gid: int, paths, number: int | None, threshold: float | None, keep: str, reader: str,
                       actor: str, problems) -> None:
    """Anticipation slips, scanned or typed (arbiter/anticipation/slips.py): each filed in its own round."""
    from arbiter.anticipation.slips import file_anticipation_slips, parse_anticipation_record
    from arbiter.slips.ingest import missing_tables
    from arbiter.slips.ingest import collect_batch

    def choose(old, new):
        if keep != "ask":
            return keep
        click.echo(f"\ntable {old.table_no} already has a slip this round: {json.dumps(old.content, ensure_ascii=False)}")
        click.echo(f"new slip: {json.dumps(new.content(), ensure_ascii=False)}")
        return _ask("keep which", ["old", "new"], "--keep old or --keep new", 0)

    readings = collect_batch(paths, threshold, reader, problems, parse=parse_anticipation_record)
    filed = file_anticipation_slips(store, gid, readings, actor, choose, number)
    counts: dict[str, int] = {}
    for f in filed:
        counts[f.outcome] = counts.get(f.outcome, 0) + 1
        if f.review:
            click.echo(f"  review: {f.source} — {'; '.join(f.review)}")
    click.echo(", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + f" ({len(readings)} slips)")
    for rno in sorted({r.round for r in readings if r.round is not None} if number is None else {number}):
        missing = missing_tables(store, gid, rno)
        if missing:
            click.echo(f"round {rno}: no slip yet for tables: {', '.join(map(str, missing))}")


@round_.command("correct")
@click.option("--round", "number", type=NUMBER, help="Correct up to this round (default: the newest).")
@click.option("--judge-output", type=click.Path(path_type=Path), help="Store this `fluturas judge --json` output instead of running the judge.")
@store_options
def round_correct(number, judge_output, db, game_id, actor) -> None:
    """Judge every filed slip up to the round and store the decisions and totals (idempotent)."""
    from arbiter.store.games import get_game

    store = open_db(db)
    with store.session() as s:
        gid = get_game(s, game_id).id
    from arbiter.round.correction import correct_round, load_judge_output

    output = load_judge_output(judge_output) if judge_output is not None else None
    done = correct_round(store, gid, number, actor, output, str(judge_output) if output else "fluturas judge")
    rno, counts, held = done.round, done.counts, done.held
    click.echo(f"round {rno} corrected: {counts['changed']} decisions changed, {counts['unchanged']} unchanged, "
               f"{counts['flagged']} sent to review")
    if held:
        click.echo(f"{held} slips wait in the review queue and count as missing until reviewed (`fluturas review`, "
                   f"then `fluturas round correct` again)")


@round_.command("close")
@click.option("--round", "number", type=NUMBER, help="Round to close (default: the newest).")
@store_options
def round_close(number, db, game_id, actor) -> None:
    """Close the round and print the announcements of D 5.3.7."""
    from arbiter.round.correction import close_round
    from arbiter.store.games import get_game, get_round

    from arbiter.store.validation import blockers

    with open_db(db).session() as s:
        g = get_game(s, game_id)
        rnd = get_round(s, g, number)
        waiting = blockers(s, g, round_id=rnd.id)
        a = close_round(s, g, rnd, actor)
        for line in waiting:
            click.echo(f"warning: round {rnd.number} closed while {line}; its results may change", err=True)
        if a.withheld:
            click.echo(f"(not announced: round {a.zero_round} tables {', '.join(map(str, a.withheld))} "
                       f"score 0 but wait in the review queue)", err=True)
    for line in a.lines:
        click.echo(line)


@click.command("status")
@click.option("--round", "number", type=int, help="Round (default: the newest).")
@store_options
def status(number, db, game_id, actor) -> None:
    """Where the game stands: the round, its group and top, the slips filed / decided / in review /
    without a table / missing, and the board as text."""
    from arbiter.store.games import get_game
    from arbiter.round.status import game_status

    with open_db(db).session() as s:
        lines = game_status(s, get_game(s, game_id), number).lines()
    for line in lines:
        click.echo(line)


COMMANDS = [round_, status]

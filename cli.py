"""The one entry point: `fluturas`. Only this module prints to the terminal and maps errors
to exit codes (exit 2: bad input, named by file and field; exit 1: a check found a problem)."""
from __future__ import annotations

import functools
import json
import shlex
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
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise  # --help of a subgroup, Ctrl-C, usage errors: click reports them itself
        except Exception as exc:  # errors of other packages that carry their own exit code
            code = getattr(exc, "exit_code", None)
            if not isinstance(code, int):
                raise
            click.echo(f"error: {exc}", err=True)
            ctx.exit(code)



def _fails_cleanly(func):
    """Turn the scanner's typed errors into one message on stderr and the error's exit code."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from scanner.errors import ScannerError

        try:
            return func(*args, **kwargs)
        except (ScannerError, FluturasError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)

    return wrapper


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
    from corrector.gamelogs.records import read_record
    from corrector.gamelogs.replay import replay as run_replay
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


# --- arbiter workflow (issue 7) -----------------------------------------------------------------
# The logic lives in `arbiter/`; these commands parse options, call it, and print.

def _store_options(func):
    """--db, --game and --arbiter on every workflow command (also from $FLUTURAS_DB, $FLUTURAS_ARBITER)."""
    import getpass

    func = click.option("--arbiter", "actor", envvar="FLUTURAS_ARBITER", default=getpass.getuser(), show_default=True,
                        help="Who makes the change (kept in the audit log).")(func)
    func = click.option("--game", "game_id", type=int, default=None, help="Game id (default: the newest game).")(func)
    func = click.option("--db", envvar="FLUTURAS_DB", default="fluturas.db", show_default=True,
                        help="SQLite file or database URL (postgresql://user@host/db).")(func)
    return func


def _open(db: str):
    from arbiter.store import open_store

    return open_store(db)


def _now():
    from datetime import datetime

    return datetime.now().astimezone()


@main.group()
def game() -> None:
    """Create and list games."""


@game.command("new")
@click.option("--tournament", required=True, help="Tournament name (created if new).")
@click.option("--name", required=True, help="Game name, e.g. 'Runda 1'.")
@click.option("--variant", default="classic", show_default=True, help="classic, completiv, eliptic, superjoker, metagrama, tactic, top.")
@click.option("--category", type=click.Choice(["senior", "youth"]), default="senior", show_default=True)
@click.option("--rules", default="ro", show_default=True, help="Rule pack.")
@click.option("--words", type=click.Path(path_type=Path), help="Word list file (its sha256 is stored).")
@click.option("--venue", help="Venue, for a simultaneous game.")
@click.option("--seed", type=int, help="Seed of `round draw` / `round groups --draw` (default: a random one, stored).")
@click.option("--type", "kind", type=click.Choice(["duplicate", "anticipation"]), default="duplicate", show_default=True,
              help="Duplicate (one shared board) or anticipation (RULES.md §7: each player's own board).")
@_store_options
def game_new(tournament, name, variant, category, rules, words, venue, seed, kind, db, game_id, actor) -> None:
    """Start a game: tournament, type, variant, category, rule pack and word list."""
    from arbiter.games import GameSpec, new_game

    store = _open(db)
    with store.session() as s:
        g = new_game(s, GameSpec(tournament, name, variant, category, rules, words, venue, seed, kind), actor)
        click.echo(f"game {g.id}: {tournament} — {name} ({kind}, {variant}, {category}, rules {rules}"
                   f"{', words ' + g.wordlist_label + ' sha256 ' + g.wordlist_sha256[:12] if g.wordlist_sha256 else ''})")


@game.command("list")
@_store_options
def game_list(db, game_id, actor) -> None:
    """The games in the store."""
    from sqlalchemy import select

    from arbiter.models import Game

    with _open(db).session() as s:
        for g in s.scalars(select(Game).order_by(Game.id)):
            click.echo(f"{g.id:>4}  {g.name:<24} {g.kind:<12} {g.variant:<10} {g.category:<7} {g.status:<12} rounds {len(g.rounds)}")


@main.group()
def players() -> None:
    """The seating list."""


@players.command("import")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--encoding", help="Encoding of a CSV that is not UTF-8 (e.g. cp1250, latin-1).")
@click.option("--replace", is_flag=True, help="Replace seats already stored for the same tables.")
@_store_options
def players_import(path, encoding, replace, db, game_id, actor) -> None:
    """Import a seating list (CSV or XLSX; columns masa, nume[, prenume, club, categorie])."""
    from arbiter.games import get_game, seat_players
    from arbiter.seating import read_seating

    seats = read_seating(path, encoding)
    with _open(db).session() as s:
        count = seat_players(s, get_game(s, game_id), seats, actor, str(path), replace)
    click.echo(f"{count} players seated from {path}")


@main.group("round")
def round_() -> None:
    """The round loop: set-rack (or draw), set-top, scan, correct, close."""


@round_.command("draw")
@_store_options
def round_draw(db, game_id, actor) -> None:
    """Draw the next group by RULES.md §5 (the game master, from the game's seed)."""
    from arbiter.draw import draw_round
    from arbiter.games import get_game, require_kind

    with _open(db).session() as s:
        g = get_game(s, game_id)
        require_kind(g, "duplicate", "round draw")
        rnd, lines = draw_round(s, g, actor)
        click.echo(f"round {rnd.number}: group {rnd.rack}")
    for line in lines:
        click.echo(f"  {line}")


@round_.command("set-rack")
@click.argument("letters")
@click.option("--round", "number", type=int, help="Round number (default: the next round).")
@click.option("--reason", help="Why the group changes (when correcting an entered group).")
@_store_options
def round_set_rack(letters, number, reason, db, game_id, actor) -> None:
    """Enter the group drawn from a physical bag ('?' is a joker)."""
    from arbiter.games import get_game, require_kind, set_rack

    with _open(db).session() as s:
        g = get_game(s, game_id)
        require_kind(g, "duplicate", "round set-rack")
        rnd = set_rack(s, g, letters, actor, number, reason=reason)
        click.echo(f"round {rnd.number}: group {rnd.rack}")


@round_.command("set-top")
@click.argument("move", default="top")
@click.option("--round", "number", type=int, help="Round number (default: the newest round).")
@_store_options
def round_set_top(move, number, db, game_id, actor) -> None:
    """Record the continuation: the game master's choice among the tops (default), or the
    arbiter's move ("H4 MODEL", jokers lowercase). Lists every equal top and the flags."""
    from arbiter.games import get_game, get_round, require_kind
    from arbiter.tops import retain_continuation

    with _open(db).session() as s:
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
@click.option("--reason", help="Why (kept in the audit log).")
@_store_options
def round_groups(draw, entered, reason, db, game_id, actor) -> None:
    """Anticipation: set the game's 15 groups, drawn or entered (RULES.md §7, A 5.2)."""
    from arbiter.anticipation.letters import set_groups
    from arbiter.errors import WorkflowError
    from arbiter.games import get_game

    if draw == (entered is not None):
        raise WorkflowError("choose --draw or --set GROUPS")
    texts = None if draw else [t.strip() for t in entered.split(",")]
    with _open(db).session() as s:
        done = set_groups(s, get_game(s, game_id), actor, texts, reason)
    for number, letters in enumerate(done.groups, start=1):
        click.echo(f"group {number:>2}: {letters}")
    for note in done.notes:
        click.echo(f"  {note}")


@round_.command("order")
@click.option("--draw", "draw", is_flag=True, help="Draw the round→group order by lot from the game's seed (A 5.3).")
@click.option("--through", type=int, help="With --draw: lay out only the first N rounds (the same the full draw gives).")
@click.option("--set", "entered", help="The 7-letter group of each round so far, e.g. '7,3,12' (extend it as lots come out).")
@click.option("--reason", help="Why (kept in the audit log).")
@_store_options
def round_order(draw, through, entered, reason, db, game_id, actor) -> None:
    """Anticipation: the group each round plays (round 1 also plays group 1); lays out the rounds."""
    from arbiter.anticipation.letters import round_letters, set_order
    from arbiter.errors import WorkflowError
    from arbiter.games import get_game

    if draw == (entered is not None):
        raise WorkflowError("choose --draw or --set ORDER")
    try:
        numbers = None if draw else [int(t) for t in entered.split(",") if t.strip()]
    except ValueError as exc:
        raise click.BadParameter(f"{entered!r}: expected group numbers separated by commas") from exc
    with _open(db).session() as s:
        g = get_game(s, game_id)
        order = set_order(s, g, actor, numbers, through, reason)
        lines = [f"round {n:>2}: group {'1 + ' if n == 1 else ''}{group}  {round_letters(g, n)}"
                 for n, group in enumerate(order, start=1)]
    for line in lines:  # printed once stored: a closed pipe cannot undo the order
        click.echo(line)


@round_.command("scan")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--round", "number", type=int, help="Round the pile belongs to (default: the newest round).")
@click.option("--threshold", type=float, default=0.95, show_default=True, help="Fields read with less confidence go to review.")
@click.option("--keep", type=click.Choice(["ask", "old", "new"]), default="ask", show_default=True,
              help="A second slip for a table already filed: ask, keep the old one, or the new one.")
@click.option("--reader", default="cnn", show_default=True, help="Handwriting reader for images (cnn, tesseract).")
@_store_options
def round_scan(paths, number, threshold, keep, reader, db, game_id, actor) -> None:
    """File the slips of a round from images or the scanner's readings (.jsonl). Re-running is
    safe: a slip already filed (same image) is recognised and skipped."""
    from arbiter.games import get_game, get_round
    from arbiter.ingest import collect_readings, file_reading, missing_tables

    store = _open(db)
    with store.session() as s:
        g = get_game(s, game_id)
        if g.kind == "anticipation":
            gid = g.id
        else:
            rnd = get_round(s, g, number)
            gid, rno = g.id, rnd.number
    if g.kind == "anticipation":
        _scan_anticipation(store, gid, paths, number, threshold, keep, reader, actor)
        return

    def choose(old, new):
        if keep != "ask":
            return keep
        click.echo(f"\ntable {old.table_no}, round {rno} already has a slip: {old.source} "
                   f"({old.content.get('position')} {old.content.get('word')} {old.content.get('score')})")
        click.echo(f"new slip: {new.source} ({new.values.get('position')} {new.values.get('word')} {new.values.get('score')})")
        return click.prompt("keep which", type=click.Choice(["old", "new"]))

    readings = list(collect_readings(paths, threshold, reader))
    counts: dict[str, int] = {}
    queued = []
    with click.progressbar(readings, label=f"round {rno}: filing slips", file=sys.stderr) as bar:
        for reading in bar:
            filed = file_reading(store, gid, rno, reading, actor, choose)
            counts[filed.outcome] = counts.get(filed.outcome, 0) + 1
            if filed.review:
                queued.append(f"  review: {filed.source} — {'; '.join(filed.review)}")
    click.echo(f"round {rno}: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + f" ({len(readings)} readings)")
    for line in queued:
        click.echo(line)
    missing = missing_tables(store, gid, rno)
    if missing:
        click.echo(f"no slip yet for tables: {', '.join(map(str, missing))}")


def _scan_anticipation(store, gid: int, paths, number: int | None, threshold: float, keep: str, reader: str,
                       actor: str) -> None:
    """Anticipation slips, scanned or typed (arbiter/anticipation/slips.py): each filed in its own round."""
    from arbiter.anticipation.slips import collect_anticipation_readings, file_anticipation_slips
    from arbiter.ingest import missing_tables

    def choose(old, new):
        if keep != "ask":
            return keep
        click.echo(f"\ntable {old.table_no} already has a slip this round: {json.dumps(old.content, ensure_ascii=False)}")
        click.echo(f"new slip: {json.dumps(new.content(), ensure_ascii=False)}")
        return click.prompt("keep which", type=click.Choice(["old", "new"]))

    readings = collect_anticipation_readings(paths, threshold, reader)
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


def _correct(store, gid: int, number: int | None, actor: str, judge_output: Path | None) -> tuple[int, dict, int]:
    from arbiter.correction import correct_round

    output = source = None
    if judge_output is not None:
        try:
            output, source = json.loads(judge_output.read_text(encoding="utf-8")), str(judge_output)
        except (OSError, json.JSONDecodeError) as exc:
            from arbiter.errors import ReadingError

            raise ReadingError(f"{judge_output}: cannot read the judge output: {exc}") from exc
    done = correct_round(store, gid, number, actor, output, source or "fluturas judge")
    return done.round, done.counts, done.held


@round_.command("correct")
@click.option("--round", "number", type=int, help="Correct up to this round (default: the newest).")
@click.option("--judge-output", type=click.Path(path_type=Path), help="Store this `fluturas judge --json` output instead of running the judge.")
@_store_options
def round_correct(number, judge_output, db, game_id, actor) -> None:
    """Judge every filed slip up to the round and store the decisions and totals (idempotent)."""
    from arbiter.games import get_game

    store = _open(db)
    with store.session() as s:
        gid = get_game(s, game_id).id
    with click.progressbar(length=1, label="correcting", file=sys.stderr) as bar:
        rno, counts, held = _correct(store, gid, number, actor, judge_output)
        bar.update(1)
    click.echo(f"round {rno} corrected: {counts['changed']} decisions changed, {counts['unchanged']} unchanged, "
               f"{counts['flagged']} sent to review")
    if held:
        click.echo(f"{held} slips wait in the review queue and count as missing until reviewed (`fluturas review`, "
                   f"then `fluturas round correct` again)")


@round_.command("close")
@click.option("--round", "number", type=int, help="Round to close (default: the newest).")
@_store_options
def round_close(number, db, game_id, actor) -> None:
    """Close the round and print the announcements of D 5.3.7."""
    from arbiter.correction import close_round
    from arbiter.games import get_game, get_round

    with _open(db).session() as s:
        g = get_game(s, game_id)
        a = close_round(s, g, get_round(s, g, number), actor)
        if a.withheld:
            click.echo(f"(not announced: round {a.zero_round} tables {', '.join(map(str, a.withheld))} "
                       f"score 0 but wait in the review queue)", err=True)
    for line in a.lines:
        click.echo(line)


def _parse_fields(items) -> dict:
    out: dict = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r}: expected field=value")
        key = key.strip().lower()
        if key == "jokers":
            out[key] = [int(v) for v in value.split(",") if v.strip()]
        elif key in ("table", "round", "score", "total", "cancel_round"):
            out[key] = int(value) if value.strip() else None
        elif key == "verify":
            out[key] = value.strip().lower() in ("1", "true", "da", "yes")
        elif key in ("moves", "verify_words"):  # an anticipation slip: JSON, quoted
            try:
                out[key] = json.loads(value)
            except json.JSONDecodeError as exc:
                raise click.BadParameter(f"{item!r}: {key} takes JSON, e.g. "
                                         f"'moves=[{{\"position\": \"H8\", \"word\": \"AS\", \"score\": 4}}]'") from exc
        else:
            out[key] = value.strip() or None
    return out


@main.command()
@click.option("--round", "number", type=int, help="Only this round.")
@click.option("--samples", "learn", type=click.Path(path_type=Path), default=None,
              help="Where each corrected field's cells and truth go for `fluturas reader finetune` "
                   "(default: reader-samples/ beside the SQLite file, or in the current folder).")
@_store_options
def review(number, learn, db, game_id, actor) -> None:
    """Clear the review queue: for each slip, see the image, the reading and the decision; accept
    it (a), correct fields (c word=MODEL position=H4 ...), skip (s) or quit (q)."""
    from arbiter.errors import ReviewConflict, WorkflowError
    from arbiter.games import get_game
    from arbiter.review import queue, resolve

    store = _open(db)
    if learn is None:
        learn = (Path(db).parent if "://" not in db else Path(".")) / "reader-samples"
    with store.session() as s:
        gid = get_game(s, game_id).id
        items = queue(s, gid, number)
    if not items:
        click.echo("the review queue is empty")
        return
    cleared = 0
    for i, e in enumerate(items, 1):
        click.echo(f"\n[{i}/{len(items)}] round {e.round}, table {e.table if e.table is not None else '?'} — {e.kind}: {e.reason}")
        click.echo(f"  image: {e.source}")
        click.echo(f"  reading: {json.dumps(e.content, ensure_ascii=False)} (confidence {e.confidence})")
        if e.decision:
            click.echo(f"  decision: {json.dumps(e.decision, ensure_ascii=False)}")
        answer = click.prompt("  a=accept, c field=value..., s=skip, q=quit", default="s").strip()
        if answer == "q":
            break
        if answer == "s":
            continue
        try:
            correction = _parse_fields(shlex.split(answer[1:])) if answer.startswith("c") else {}
            reason = click.prompt("  why", default="read from the slip image")
            samples = resolve(store, e.item_id, e.version, actor, correction, reason, learn)
            cleared += 1
            click.echo("  done" + (f"; {len(samples)} corrected fields kept for the reader in {learn}" if samples else ""))
        except (ReviewConflict, WorkflowError, click.BadParameter, ValueError) as exc:
            click.echo(f"  not applied: {exc}")
    if cleared:
        click.echo(f"{cleared} items cleared; `fluturas round correct` applies them to the decisions")


def _recorrect(store, gid: int, actor: str) -> None:
    """After a sanction or an appeal, judge the game again so totals follow."""
    from sqlalchemy import select

    from arbiter.errors import MissingComponent
    from arbiter.models import Decision, Round

    with store.session() as s:
        if s.scalar(select(Decision.id).join(Round, Round.id == Decision.round_id).where(Round.game_id == gid)) is None:
            return
    try:
        _correct(store, gid, None, actor, None)
        click.echo("totals updated")
    except MissingComponent as exc:
        click.echo(f"stored; totals not updated: {exc}", err=True)


@main.command()
@click.argument("table", type=int)
@click.option("--disciplinary", "kind", flag_value="disciplinary", help="Disciplinary warning (−20; the second eliminates, D 6.4).")
@click.option("--eliminate", "kind", flag_value="elimination", help="Eliminate the player (D 7.1.3).")
@click.option("--reason", required=True, help="The reason, as on the written sanction.")
@click.option("--round", "number", type=int, help="Round in which it happened.")
@_store_options
def sanction(table, kind, reason, number, db, game_id, actor) -> None:
    """Give a disciplinary warning or eliminate a player."""
    from arbiter.errors import WorkflowError
    from arbiter.games import get_game
    from arbiter.results import add_sanction

    if kind is None:
        raise WorkflowError("choose --disciplinary or --eliminate")
    store = _open(db)
    with store.session() as s:
        g = get_game(s, game_id)
        add_sanction(s, g, table, kind, reason, actor, number)
        gid = g.id
    click.echo(f"table {table}: {kind} recorded")
    _recorrect(store, gid, actor)


@main.command()
@click.argument("table", type=int)
@click.option("--round", "number", type=int, help="The round appealed.")
@click.option("--kind", type=click.Choice(["reading", "warning", "penalty", "incorrect", "total", "repeated"]), required=True)
@click.option("--reason", required=True, help="Why (kept in the audit log).")
@click.option("--set", "fields", multiple=True, help="For --kind reading: what the slip really says, e.g. --set position=H4.")
@click.option("--score", type=int, help="For --kind incorrect/total: the points to credit.")
@click.option("--cap", type=int, help="For --kind repeated: the most the round average may give (D 5.3.7).")
@click.option("--reject", is_flag=True, help="Record the appeal as rejected.")
@_store_options
def appeal(table, number, kind, reason, fields, score, cap, reject, db, game_id, actor) -> None:
    """Reopen a decision on appeal (D 6.5), within the deadline of the provisional results."""
    from arbiter.games import get_game
    from arbiter.results import add_appeal

    change = _parse_fields(fields)
    change.update({k: v for k, v in (("score", score), ("cap", cap)) if v is not None})
    store = _open(db)
    with store.session() as s:
        g = get_game(s, game_id)
        row = add_appeal(s, g, table, number, kind, reason, actor, _now(), change, upheld=not reject)
        gid, status = g.id, row.status
    click.echo(f"appeal of table {table}, round {number}: {status}")
    if not reject:
        _recorrect(store, gid, actor)


@main.group()
def results() -> None:
    """Publish the provisional and the final results."""


def _write_exports(s, g, out: Path) -> list[Path]:
    from arbiter.exports import gather, write_csv, write_html, write_xlsx

    out.mkdir(parents=True, exist_ok=True)
    stem = f"game{g.id}"
    return [write_xlsx(s, g, out / f"{stem}.xlsx"), write_csv(gather(s, g), out / f"{stem}.csv"),
            write_html(s, g, out / f"{stem}-results.html")]


def _print_ranking(s, g) -> None:
    from arbiter.results import ranking

    for r in ranking(s, g):
        place = "elim." if r.eliminated else str(r.rank)
        pct = "" if r.percent_of_top is None else f"{r.percent_of_top:6.2f}%"
        click.echo(f"{place:>5}  masa {r.table:>3}  {r.name:<30} {r.total:>5}  {pct}")


@results.command("provisional")
@click.option("--deadline", required=True, help="Appeal deadline, HH:MM today (or an ISO date-time).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("out"), show_default=True)
@_store_options
def results_provisional(deadline, out, db, game_id, actor) -> None:
    """Publish the provisional ranking with the appeal deadline; writes the sheet and the HTML page."""
    from arbiter.games import get_game
    from arbiter.results import parse_deadline, publish

    with _open(db).session() as s:
        g = get_game(s, game_id)
        publish(s, g, "provisional", actor, deadline=parse_deadline(deadline, _now()))
        _print_ranking(s, g)
        files = _write_exports(s, g, out)
    click.echo(f"appeals until {deadline}; written: {', '.join(map(str, files))}")


@results.command("final")
@click.option("--force", "force_reason", help="Publish before the deadline, with this reason.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("out"), show_default=True)
@_store_options
def results_final(force_reason, out, db, game_id, actor) -> None:
    """Publish the final ranking (after the appeal deadline)."""
    from arbiter.games import get_game
    from arbiter.results import publish

    with _open(db).session() as s:
        g = get_game(s, game_id)
        publish(s, g, "final", actor, now=_now(), force_reason=force_reason)
        _print_ranking(s, g)
        files = _write_exports(s, g, out)
    click.echo(f"final; written: {', '.join(map(str, files))}")


@main.command()
@click.option("--out", type=click.Path(path_type=Path), default=Path("out"), show_default=True)
@click.option("--slips-round", type=int, help="Also the PDF of this round's slip images for the clubs (youth, D 5.3.8).")
@_store_options
def export(out, slips_round, db, game_id, actor) -> None:
    """Write the arbitration sheet (.xlsx), the CSV and the HTML results page."""
    from arbiter.games import get_game
    from arbiter.slipbook import write_slip_pdf

    with _open(db).session() as s:
        g = get_game(s, game_id)
        files = _write_exports(s, g, out)
        if slips_round is not None:
            pdf = out / f"game{g.id}-round{slips_round}-slips.pdf"
            for source in write_slip_pdf(s, g, slips_round, pdf):
                click.echo(f"image missing: {source}", err=True)
            files.append(pdf)
    for f in files:
        click.echo(str(f))


@main.command()
@click.option("--out", type=click.Path(path_type=Path), default=Path("out/demo"), show_default=True)
@click.option("--rounds", type=click.IntRange(1, 30), default=None, help="Rounds to play (default: samples/game.json).")
@click.option("--reader", default="cnn", show_default=True, help="Handwriting reader for the scanned slips (cnn, tesseract).")
def demo(out, rounds, reader) -> None:
    """Play the sample tournament end to end: a simulated game, its slips rendered as scanned pages,
    read by the scanner, corrected, reviewed, closed, and the sheet written."""
    from arbiter.demo import DemoOptions, run_demo

    for line in run_demo(out, options=DemoOptions.from_sample(rounds=rounds, reader=reader)):
        click.echo(line)


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
    from corrector.judging.case import load_case
    from corrector.judging.judge import judge_case
    from corrector.judging.report import result_json

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
    from corrector.words.lexicon import load_lexicon

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

    from corrector.game.announcement import top_flags
    from corrector.game.bag import Bag
    from corrector.board import Board
    from corrector.game.continuation import find_tops, rank_tops
    from corrector.game.gamemaster import default_top_function
    from corrector.rulepack import load_pack
    from corrector.tiles import JOKER
    from corrector.game.variants import load_duplicate_rules

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

    from corrector.game.gamemaster import GameMaster
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

# --- scanner -------------------------------------------------------------------------------------

@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="JSON Lines file: one reading per slip.")
@click.option("--reader", type=click.Choice(["cnn", "tesseract"]), default="cnn", show_default=True)
@click.option("--model", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="ONNX model (its .json sidecar beside it); default: the shipped one.")
@click.option("--template", "templates", multiple=True, type=click.Path(path_type=Path),
              help="Template file(s) to recognise; default: all built-in templates.")
@click.option("--pdf-dpi", type=float, default=200.0, show_default=True)
@_fails_cleanly
def scan(paths: tuple[Path, ...], out: Path, reader: str, model: Path | None, templates: tuple[Path, ...],
         pdf_dpi: float) -> None:
    """Read every slip in PATHS (images, PDFs, folders) into readings."""
    from scanner.pipeline import ScanOptions, scan_file
    from scanner.reader import make_reader
    from scanner.source import expand
    from scanner.template import builtin_templates, load_template

    tpls = tuple(load_template(t) for t in templates) if templates else builtin_templates()
    options = ScanOptions(reader=reader, model=model, templates=tpls, pdf_dpi=pdf_dpi)
    files = expand(list(paths))
    rdr = make_reader(reader, model)
    slips = accepted = total_fields = failed = 0
    with open(out, "w", encoding="utf-8") as fh, click.progressbar(files, label="scanning", file=sys.stderr,
                                                                   item_show_func=lambda p: p and p.name) as bar:
        for path in bar:
            for r in scan_file(path, rdr, options):
                fh.write(r.to_json() + "\n")
                if r.error:
                    failed += 1
                    click.echo(f"\nerror: {r.error} (skipped, batch goes on)", err=True)
                elif r.template_id:
                    slips += 1
                    total_fields += len(r.fields)
                    accepted += sum(f.accepted for f in r.fields.values())
    share = accepted / total_fields if total_fields else 0.0
    click.echo(f"{slips} slips from {len(files)} files -> {out}; {share:.1%} of fields accepted"
               + (f"; {failed} files unreadable" if failed else ""))
    if failed:
        sys.exit(1)


@main.group()
def template() -> None:
    """Slip templates: check and print."""


@template.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@_fails_cleanly
def template_check(files: tuple[Path, ...]) -> None:
    """Validate template files against templates/slip.schema.json."""
    from scanner.template import load_template

    for f in files:
        t = load_template(f)
        click.echo(f"{f}: ok ({t.id}, {len(t.fields)} fields)")


@template.command("print")
@click.argument("name", default="duplicat")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--count", type=int, default=0, help="Blank slips (default: one full sheet).")
@click.option("--seating", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="CSV game,round,table,player: one pre-filled slip with QR code per row.")
@_fails_cleanly
def template_print(name: str, out: Path, count: int, seating: Path | None) -> None:
    """Printable A4 PDF of slips (template id, stem or file), with cutting marks."""
    from scanner.printing import read_seating, render_sheets
    from scanner.template import load_template

    t = load_template(name)
    prefills = read_seating(seating) if seating else None
    pages = render_sheets(t, out, count, prefills)
    click.echo(f"{out}: {pages} page(s) of {t.id}")


@main.group()
def reader() -> None:
    """The handwriting reader model: train and fine-tune (needs the [train] extra)."""


@reader.command("train")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Default: the shipped model, scanner/models/reader.onnx.")
@click.option("--seed", type=int, default=None)
@click.option("--epochs", type=int, default=None)
@click.option("--per-class", type=int, default=None, help="Synthetic training cells per class.")
@click.option("--lr", "learning_rate", type=float, default=None)
@click.option("--batch-size", type=int, default=None)
@click.option("--init-from", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Continue from these torch weights (.pt) on freshly generated cells.")
@click.option("--slips", "train_slips", type=int, default=None,
              help="Also train on the cells the scanner cuts from this many slips in the training fonts.")
@click.option("--schedule", type=click.Choice(["onecycle", "cosine"]), default=None)
@click.option("--threads", type=int, default=1, show_default=True)
@_fails_cleanly
def reader_train(out: Path, seed: int | None, epochs: int | None, per_class: int | None, learning_rate: float | None,
                 batch_size: int | None, init_from: str | None, train_slips: int | None, schedule: str | None,
                 threads: int) -> None:
    """Train the character CNN on synthetic handwriting + real digits, calibrate, export ONNX."""
    from dataclasses import replace

    from scanner.train.recipe import TrainConfig, train_reader

    from scanner.reader import DEFAULT_MODEL

    out = out or DEFAULT_MODEL
    cfg = TrainConfig(threads=threads)
    given = (("seed", seed), ("epochs", epochs), ("n_per_class", per_class), ("learning_rate", learning_rate),
             ("batch_size", batch_size), ("init_from", init_from), ("train_slips", train_slips),
             ("schedule", schedule))
    cfg = replace(cfg, **{k: v for k, v in given if v is not None})
    meta = train_reader(out, cfg, log=lambda s: click.echo(s, err=True))
    click.echo(f"{out}: threshold {meta.threshold:.6f}, metrics {meta.metrics}")


@reader.command("calibrate")
@click.option("--model", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="ONNX model whose sidecar JSON is rewritten; default: the shipped one.")
@click.option("--slips", type=int, default=400, show_default=True)
@click.option("--target-error", type=float, default=0.0, show_default=True,
              help="Error rate allowed among accepted fields on the calibration slips.")
@_fails_cleanly
def reader_calibrate(model: Path | None, slips: int, target_error: float) -> None:
    """Refit temperature and acceptance threshold on slips written in the calibration fonts."""
    from scanner.reader import DEFAULT_MODEL
    from scanner.train.recipe import TrainConfig, recalibrate

    cfg = TrainConfig(calibration_slips=slips, target_error=target_error)
    meta = recalibrate(model or DEFAULT_MODEL, cfg, log=lambda s: click.echo(s, err=True))
    click.echo(f"threshold {meta.threshold:.6f}, temperature {meta.temperature:.3f}")


@reader.command("finetune")
@click.argument("samples", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--base", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Model to start from; default: the shipped one.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--epochs", type=int, default=3, show_default=True)
@click.option("--threads", type=int, default=1, show_default=True)
@_fails_cleanly
def reader_finetune(samples: Path, base: Path, out: Path, epochs: int, threads: int) -> None:
    """Retrain on arbiter corrections stored in SAMPLES (see scanner.samples), recalibrate, export."""
    from scanner.reader import DEFAULT_MODEL
    from scanner.train.recipe import TrainConfig, finetune_reader

    meta = finetune_reader(base or DEFAULT_MODEL, samples, out, TrainConfig(threads=threads), epochs,
                           log=lambda s: click.echo(s, err=True))
    click.echo(f"{out}: threshold {meta.threshold:.6f}, metrics {meta.metrics}")


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

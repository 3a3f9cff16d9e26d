"""The review queue, cleared at the terminal."""
from __future__ import annotations

import json
import shlex
from pathlib import Path

import click

from arbiter.commands.common import NUMBER, open_db, parse_fields, store_options


@click.command()
@click.option("--round", "number", type=NUMBER, help="Only this round.")
@click.option("--samples", "learn", type=click.Path(path_type=Path), default=None,
              help="Where each corrected field's cells and truth go for `fluturas reader finetune` "
                   "(default: reader-samples/ beside the SQLite file, or in the current folder).")
@store_options
def review(number, learn, db, game_id, actor) -> None:
    """Clear the review queue: for each slip, see the image, the reading and the decision; accept
    it (a), correct fields (c masa=12 depunere=MODEL poz=H4 ...), skip (s, or Enter) or quit (q).
    Only `a` accepts: any other answer is asked again."""
    from arbiter.errors import ReviewConflict, WorkflowError
    from arbiter.games import get_game
    from arbiter.review import queue, resolve

    store = open_db(db)
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
        action, correction = _ask(e.table is not None)
        if action == "quit":
            break
        if action == "skip":
            continue
        reason = click.prompt("  why", default="read from the slip image")
        try:
            samples = resolve(store, e.item_id, e.version, actor, correction, reason, learn)
            cleared += 1
            click.echo("  done" + (f"; {len(samples)} corrected fields kept for the reader in {learn}" if samples else ""))
        except (ReviewConflict, WorkflowError) as exc:
            click.echo(f"  not applied: {exc}")
    if cleared:
        click.echo(f"{cleared} items cleared; `fluturas round correct` applies them to the decisions")


ACCEPT, SKIP, QUIT = ("a", "accept"), ("", "s", "skip"), ("q", "quit")


def _ask(has_table: bool) -> tuple[str, dict]:
    """The arbiter's answer: accept only on an explicit `a`; a correction parsed field by field;
    anything not understood is asked again, never taken as an accept."""
    from arbiter.review import normalise_correction
    from arbiter.errors import WorkflowError

    while True:
        answer = click.prompt("  a=accept, c field=value..., s=skip, q=quit", default="", show_default=False).strip()
        word = answer.lower()
        if word in QUIT:
            return "quit", {}
        if word in SKIP:
            return "skip", {}
        if word in ACCEPT:
            if not has_table:
                click.echo("  this slip has no table: correct it (c masa=N) or discard it (`fluturas slip discard`)")
                continue
            return "accept", {}
        if word.startswith("c ") or word == "c":
            try:
                correction = normalise_correction(parse_fields(shlex.split(answer[1:])))
            except (click.BadParameter, ValueError, WorkflowError) as exc:
                click.echo(f"  not understood: {getattr(exc, 'message', exc)}")
                continue
            if correction:
                return "correct", correction
        click.echo("  not understood: answer a, c field=value ..., s or q")


COMMANDS = [review]

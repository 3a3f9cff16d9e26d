"""The review queue, cleared at the terminal."""
from __future__ import annotations

import shlex
from pathlib import Path

import click

from arbiter import words
from arbiter.commands.common import NUMBER, open_db, parse_fields, store_options


@click.command()
@click.option("--round", "number", type=NUMBER, help="Only this round.")
@click.option("--samples", "learn", type=click.Path(path_type=Path), default=None,
              help="Where each corrected field's cells and truth go for `fluturas reader finetune` "
                   "(default: reader-samples/ beside the SQLite file, or in the current folder).")
@click.option("--crops", type=click.Path(path_type=Path), default=None,
              help="Where the upright slip crops are written, doubtful boxes outlined "
                   "(default: review-crops/ beside the SQLite file, or in the current folder).")
@store_options
def review(number, learn, crops, db, game_id, actor) -> None:
    """Clear the review queue: for each slip, see its upright crop (a PNG path), the reading, the
    candidates numbered as on the web page, most likely first, and the decision; accept the
    reading (a), a candidate (1-9), correct fields (c masa=12 depunere=MODEL poz=H4 ...), skip
    (s, or Enter) or quit (q). Only `a` or a candidate's number accepts: any other answer is
    asked again."""
    from arbiter.errors import ReviewConflict, WorkflowError
    from arbiter.store.games import get_game
    from arbiter.review.review import resolve

    store = open_db(db)
    beside = Path(db).parent if "://" not in db else Path(".")
    learn = learn if learn is not None else beside / "reader-samples"
    crops = crops if crops is not None else beside / "review-crops"
    with store.session() as s:
        game = get_game(s, game_id)
        items = _cards(s, game, number, crops, (beside,))
    if not items:
        click.echo("the review queue is empty")
        return
    cleared = 0
    for i, (e, cands, crop_path, name) in enumerate(items, 1):
        seat = f" ({name})" if name else ""
        click.echo(f"\n[{i}/{len(items)}] round {e.round}, table {e.table if e.table is not None else '?'}{seat} — "
                   f"{words.kind(e.kind, 'en')}: {words.review_reason(e.reason, 'en')}")
        click.echo(f"  image: {e.source}")
        click.echo(f"  crop: {crop_path}" if crop_path else "  crop: the image cannot be opened")
        click.echo(f"  reading: {_fields(e.content)}"
                   + (f" ({round(100 * e.confidence)} % sure)" if e.confidence is not None else ""))
        if e.decision:
            click.echo(f"  decision: {_ruling(e.decision)}")
        for k, cand in enumerate(cands, 1):
            click.echo(f"  {k}. {_fields(cand['reading'])}  {round(100 * float(cand.get('probability') or 0))} %  "
                       f"{_ruling(cand.get('outcome') or {})}")
        action, correction = _ask(e.table is not None, len(cands))
        if action == "quit":
            break
        if action == "skip":
            continue
        default = "read from the slip image"
        if action == "candidate":  # the fields where the chosen reading differs, as the web page applies it
            from arbiter.web.queue import correction_from

            default = f"candidate {correction['index'] + 1} read from the slip image"
            correction = correction_from(e.content, cands[correction["index"]]["reading"])
        reason = click.prompt("  why", default=default)
        try:
            samples = resolve(store, e.item_id, e.version, actor, correction, reason, learn)
            cleared += 1
            click.echo("  done" + (f"; {len(samples)} corrected fields kept for the reader in {learn}" if samples else ""))
        except (ReviewConflict, WorkflowError) as exc:
            click.echo(f"  not applied: {exc}")
    if cleared:
        click.echo(f"{cleared} items cleared; `fluturas round correct` applies them to the decisions")


def _cards(session, game, number, crops: Path, roots: tuple[Path, ...]):
    """Each open item with its candidates in the web page's order and the upright crop written
    where the arbiter can open it (the same crop, doubtful boxes outlined, as the queue page)."""
    from arbiter.store.models import Slip
    from arbiter.web.queue import cards
    from arbiter.web.slipcrop import crop, image_path

    out = []
    for card in sorted(cards(session, game, number), key=lambda c: (c.entry.round, c.entry.item_id)):
        e = card.entry
        written = None
        slip = session.get(Slip, e.slip_id) if e.slip_id else None
        path = image_path(slip.source, roots) if slip is not None and slip.source else None
        png = crop(path, dict(slip.reading or {}), card.doubtful) if path else None
        if png:
            crops.mkdir(parents=True, exist_ok=True)
            written = crops / f"round{e.round:02d}-slip{e.slip_id}.png"
            written.write_bytes(png)
        out.append((e, list(card.candidates), written, card.player))
    return out


def _fields(c: dict | None) -> str:
    if not c:
        return "—"
    def shown(key):
        return "?" if c.get(key) is None else c.get(key)
    word = words.marked_word(c.get("word"), c.get("jokers"))
    return f"R{shown('round')} T{shown('table')} {c.get('position') or '?'} {word or '?'} {shown('score')}"


def _ruling(d: dict) -> str:
    said = words.ruling(d, "en")
    parts = [f"{said['status']} {d.get('credited', '')}".strip()]
    parts += [said[k] for k in ("warning", "penalty", "articles") if said[k]]
    return ", ".join(parts)


ACCEPT, SKIP, QUIT = ("a", "accept"), ("", "s", "skip"), ("q", "quit")


def _ask(has_table: bool, candidates: int = 0) -> tuple[str, dict]:
    """The arbiter's answer: accept only on an explicit `a` or a listed candidate's number; a
    correction parsed field by field; anything not understood is asked again, never an accept."""
    from arbiter.review.review import normalise_correction
    from arbiter.errors import WorkflowError

    while True:
        numbers = f", 1-{candidates}=candidate" if candidates > 1 else ", 1=candidate" if candidates else ""
        answer = click.prompt(f"  a=accept{numbers}, c field=value..., s=skip, q=quit", default="", show_default=False).strip()
        word = answer.lower()
        if word.isascii() and word.isdigit() and 1 <= int(word) <= min(candidates, 9):
            return "candidate", {"index": int(word) - 1}
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
        click.echo("  not understood: answer a" + (f", 1-{min(candidates, 9)}" if candidates else "")
                   + ", c field=value ..., s or q")


COMMANDS = [review]

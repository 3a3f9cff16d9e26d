"""Taking things back: every action of the arbiter can be undone, and the audit log says so
(issue 12). Withdrawn appeals and sanctions, discarded slips and reopened items stay in the
store; they are only no longer counted."""
from __future__ import annotations

import click

from arbiter.commands.common import NUMBER, open_db, store_options
from arbiter.commands.results import _recorrect


@click.group()
def undo() -> None:
    """Withdraw an appeal or a sanction, reopen a review item; `undo list` shows their ids."""


def _withdraw(what: str, row_id: int, reason: str, db, game_id, actor) -> None:
    from arbiter.store.games import get_game
    from arbiter.results.results import undo_sanction, withdraw_appeal

    take_back = withdraw_appeal if what == "appeal" else undo_sanction
    store = open_db(db)
    with store.session() as s:
        g = get_game(s, game_id)
        take_back(s, g, row_id, actor, reason)
        gid = g.id
    click.echo(f"{what} {row_id} withdrawn")
    _recorrect(store, gid, actor)


def _withdraw_command(what: str) -> None:
    """`undo appeal ID` and `undo sanction ID`: the same command for either row."""

    @click.argument("row_id", type=NUMBER, metavar=f"{what.upper()}_ID")
    @click.option("--reason", required=True, help="Why (kept in the audit log).")
    @store_options
    def command(row_id, reason, db, game_id, actor) -> None:
        _withdraw(what, row_id, reason, db, game_id, actor)

    command.__doc__ = f"Withdraw a {what}: kept and audited, no longer counted (ids: `fluturas undo list`)."
    undo.command(what)(command)


_withdraw_command("appeal")
_withdraw_command("sanction")


@undo.command("review")
@click.argument("item_id", type=NUMBER)
@click.option("--reason", required=True, help="Why (kept in the audit log).")
@store_options
def undo_review(item_id, reason, db, game_id, actor) -> None:
    """Reopen a resolved or discarded review item; its slip waits for review again."""
    from arbiter.store.games import get_game
    from arbiter.review.review import reopen_item

    with open_db(db).session() as s:
        reopen_item(s, get_game(s, game_id), item_id, actor, reason)
    click.echo(f"review item {item_id} is open again (`fluturas review`)")


@undo.command("list")
@store_options
def undo_list(db, game_id, actor) -> None:
    """The game's sanctions and appeals with their ids and status."""
    from arbiter.store.games import get_game
    from arbiter.results.results import appeals, sanctions

    with open_db(db).session() as s:
        g = get_game(s, game_id)
        lines = [f"sanction {r.id:>4}  table {r.table_no:>3}  round {r.round_no or '-':>2}  {r.kind:<13} {r.status:<9} "
                 f"{r.reason}" for r in sanctions(s, g)]
        lines += [f"appeal   {r.id:>4}  table {r.table_no:>3}  round {r.round_no or '-':>2}  {r.kind:<13} {r.status:<9} "
                  f"{r.reason}" for r in appeals(s, g)]
    for line in lines or ["no sanction and no appeal"]:
        click.echo(line)


@click.group()
def slip() -> None:
    """Slips as filed: list them, discard one that is no slip or a second scan, move one to its round."""


@slip.command("list")
@click.option("--round", "number", type=NUMBER, help="Only this round.")
@store_options
def slip_list(number, db, game_id, actor) -> None:
    """Every slip with its id, round, table, state (filed, superseded, discarded) and pile."""
    from arbiter.store.games import get_game
    from arbiter.review.review import slips

    with open_db(db).session() as s:
        rows = slips(s, get_game(s, game_id), number)
    for r in rows:
        c = r["content"] or {}
        pile = f"pile {r['pile']}" if r.get("pile") is not None else ""
        click.echo(f"slip {r['id']:>5}  round {r['round']:>2}  table {r['table_no'] if r['table_no'] is not None else '?':>3}  "
                   f"{r['state']:<10} {c.get('position')} {c.get('word')} {c.get('score')}  {r['source']}  {pile}")


@slip.command("discard")
@click.argument("slip_id", type=NUMBER, required=False)
@click.option("--pile", type=NUMBER, help="Every slip that scan filed (`round scan` prints its pile number).")
@click.option("--as", "kind", type=click.Choice(["not-a-slip", "duplicate", "wrong-pile"]), required=True)
@click.option("--reason", default="", help="Why (kept in the audit log).")
@store_options
def slip_discard(slip_id, pile, kind, reason, db, game_id, actor) -> None:
    """Discard a filed item that is no slip, a second scan of the same paper, or a whole pile
    scanned into the wrong round (kept, never counted; each one's review item brings it back)."""
    from arbiter.errors import WorkflowError
    from arbiter.store.games import get_game
    from arbiter.review.review import discard_pile, discard_slip

    if (slip_id is None) == (pile is None):
        raise WorkflowError("name one slip (SLIP_ID) or one scan (--pile N)")
    with open_db(db).session() as s:
        g = get_game(s, game_id)
        if pile is None:
            done = [(slip_id, discard_slip(s, g, slip_id, kind, actor, reason).id)]
        else:
            done = discard_pile(s, g, pile, kind, actor, reason)
    for sid, item in done:
        click.echo(f"slip {sid} discarded as {kind} (review item {item}; `fluturas undo review {item} --reason ...` "
                   f"brings it back)")
    if pile is not None:
        click.echo(f"pile {pile}: {len(done)} slips discarded; `fluturas slip restore --pile {pile} --reason ...` "
                   f"brings them all back")


@slip.command("restore")
@click.option("--pile", type=NUMBER, required=True, help="The scan whose discarded slips come back.")
@click.option("--reason", required=True, help="Why (kept in the audit log).")
@store_options
def slip_restore(pile, reason, db, game_id, actor) -> None:
    """Bring back every discarded slip of one scan; each waits in review again."""
    from arbiter.store.games import get_game
    from arbiter.review.review import restore_pile

    with open_db(db).session() as s:
        done = restore_pile(s, get_game(s, game_id), pile, actor, reason)
    for sid, item in done:
        click.echo(f"slip {sid} is back (review item {item} open again)")


@slip.command("move")
@click.argument("slip_id", type=NUMBER)
@click.option("--round", "number", type=NUMBER, required=True, help="The round the slip belongs to.")
@click.option("--reason", default="moved to the round it says", help="Why (kept in the audit log).")
@store_options
def slip_move(slip_id, number, reason, db, game_id, actor) -> None:
    """File a slip in the round it really belongs to (a late slip of an earlier round)."""
    from arbiter.store.games import get_game
    from arbiter.store.models import ReviewItem, Round, Slip
    from sqlalchemy import select

    from arbiter.review.review import move_slip

    with open_db(db).session() as s:
        g = get_game(s, game_id)
        slip = s.get(Slip, slip_id)
        old = s.get(Round, slip.round_id).number if slip is not None and slip.game_id == g.id else None
        moved = move_slip(s, g, slip_id, number, actor, reason)
        state = moved.state
        item = s.scalar(select(ReviewItem.id).where(ReviewItem.slip_id == slip_id, ReviewItem.state == "open"))
    click.echo(f"slip {slip_id} moved from round {old} to round {number}, {state}"
               + (f", in review (item {item})" if item is not None else "")
               + f"; `fluturas round correct --round {number}` judges it; "
               f"`fluturas slip move {slip_id} --round {old}` moves it back")


COMMANDS = [undo, slip]

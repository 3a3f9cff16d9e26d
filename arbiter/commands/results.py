"""After the rounds: sanctions, appeals, provisional and final results, exports."""
from __future__ import annotations

from pathlib import Path

import click

from arbiter.commands.common import NUMBER, now, open_db, parse_fields, store_options


def _recorrect(store, gid: int, actor: str) -> None:
    """After a withdrawal, the totals follow (`arbiter.round.correction.recorrect`)."""
    from arbiter.round.correction import recorrect

    if recorrect(store, gid, actor) is not None:
        click.echo("totals updated")


def _rejudged(s, g, actor: str, what: str) -> bool:
    """After a sanction or an appeal, the totals follow in the same transaction
    (`arbiter.round.judging.rejudge`): a change the judge refuses is not stored either."""
    from arbiter.round.judging import rejudge

    return rejudge(s, g, actor, what) is not None


@click.command()
@click.argument("table", type=NUMBER)
@click.option("--disciplinary", "kind", flag_value="disciplinary", help="Disciplinary warning (−20; the second eliminates, D 6.4).")
@click.option("--eliminate", "kind", flag_value="elimination", help="Eliminate the player (D 7.1.3).")
@click.option("--reason", required=True, help="The reason, as on the written sanction.")
@click.option("--round", "number", type=NUMBER, help="Round in which it happened.")
@store_options
def sanction(table, kind, reason, number, db, game_id, actor) -> None:
    """Give a disciplinary warning or eliminate a player."""
    from arbiter.errors import WorkflowError
    from arbiter.store.games import get_game
    from arbiter.results.results import add_sanction

    if kind is None:
        raise WorkflowError("choose --disciplinary or --eliminate")
    store = open_db(db)
    with store.session() as s:
        g = get_game(s, game_id)
        row = add_sanction(s, g, table, kind, reason, actor, number)
        sid = row.id
        judged = _rejudged(s, g, actor, "sanction")
    click.echo(f"table {table}: {kind} recorded (sanction {sid}; `fluturas undo sanction {sid}` withdraws it)")
    if judged:
        click.echo("totals updated")


@click.command()
@click.argument("table", type=NUMBER)
@click.option("--round", "number", type=NUMBER, required=True, help="The round appealed.")
@click.option("--kind", type=click.Choice(["reading", "warning", "penalty", "incorrect", "total", "repeated"]), required=True)
@click.option("--reason", required=True, help="Why (kept in the audit log).")
@click.option("--set", "fields", multiple=True, help="For --kind reading: what the slip really says, e.g. --set position=H4.")
@click.option("--score", type=NUMBER, help="For --kind incorrect/total: the points to credit.")
@click.option("--cap", type=NUMBER, help="For --kind repeated: the most the round average may give (D 5.3.7).")
@click.option("--reject", is_flag=True, help="Record the appeal as rejected.")
@store_options
def appeal(table, number, kind, reason, fields, score, cap, reject, db, game_id, actor) -> None:
    """Reopen a decision on appeal (D 6.5), within the deadline of the provisional results."""
    from arbiter.store.games import get_game
    from arbiter.results.results import add_appeal

    change = parse_fields(fields)
    change.update({k: v for k, v in (("score", score), ("cap", cap)) if v is not None})
    store = open_db(db)
    with store.session() as s:
        g = get_game(s, game_id)
        row = add_appeal(s, g, table, number, kind, reason, actor, now(), change, upheld=not reject)
        status, aid = row.status, row.id
        judged = not reject and _rejudged(s, g, actor, "appeal")
    click.echo(f"appeal of table {table}, round {number}: {status} (appeal {aid}; "
               f"`fluturas undo appeal {aid}` withdraws it)")
    if judged:
        click.echo("totals updated")


@click.group()
def results() -> None:
    """Publish the provisional and the final results."""


def _write_exports(s, g, out: Path) -> list[Path]:
    from arbiter.results.exports import write_exports

    return write_exports(s, g, out)


def _print_ranking(s, g) -> None:
    from arbiter.results.results import ranking

    for r in ranking(s, g):
        place = "elim." if r.eliminated else str(r.rank)
        pct = "" if r.percent_of_top is None else f"{r.percent_of_top:6.2f}%"
        click.echo(f"{place:>5}  masa {r.table:>3}  {r.name:<30} {r.total:>5}  {pct}")


@results.command("provisional")
@click.option("--deadline", required=True, help="Appeal deadline, HH:MM today (or an ISO date-time).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("out"), show_default=True)
@store_options
def results_provisional(deadline, out, db, game_id, actor) -> None:
    """Publish the provisional ranking with the appeal deadline; writes the sheet and the HTML page."""
    from arbiter.results.exports import ready_folder
    from arbiter.store.games import get_game
    from arbiter.results.results import parse_deadline, publish

    ready_folder(out)  # a bad --out is refused before the publication is stored
    with open_db(db).session() as s:
        g = get_game(s, game_id)
        publish(s, g, "provisional", actor, deadline=parse_deadline(deadline, now()))
        _print_ranking(s, g)
        files = _write_exports(s, g, out)
    click.echo(f"appeals until {deadline}; written: {', '.join(map(str, files))}")


@results.command("final")
@click.option("--force", "force_reason", help="Publish before the deadline, with this reason.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("out"), show_default=True)
@store_options
def results_final(force_reason, out, db, game_id, actor) -> None:
    """Publish the final ranking (after the appeal deadline). On a game already final it writes
    the final files again (after a crash between the publication and the files), changing nothing."""
    from arbiter.results.exports import ready_folder
    from arbiter.store.games import get_game
    from arbiter.results.results import finalise

    ready_folder(out)  # a bad --out is refused before the game is stored as final
    store = open_db(db)
    with store.session() as s:
        gid = get_game(s, game_id).id
    published = finalise(store, gid, actor, now(), force_reason)
    with store.session() as s:
        g = get_game(s, gid)
        _print_ranking(s, g)
        files = _write_exports(s, g, out)
    state = "final" if published else f"game {gid} was already final; the final files were written again"
    click.echo(f"{state}; written: {', '.join(map(str, files))}")


@click.command()
@click.option("--out", type=click.Path(path_type=Path), default=Path("out"), show_default=True,
              help="Folder for the files (made if missing; a file there is an error, exit 2).")
@click.option("--slips", "album", is_flag=True,
              help="Also the album of slip images for the clubs (youth, D 5.3.8): each player's own slip, round by round.")
@click.option("--slips-round", type=NUMBER, help="The album of this round only.")
@store_options
def export(out, album, slips_round, db, game_id, actor) -> None:
    """Write the arbitration sheet (.xlsx), the CSV and the HTML results page (and the slip album)."""
    from arbiter.results.exports import export_game

    with open_db(db).session() as s:
        done = export_game(s, game_id, out, album or slips_round is not None, slips_round)
    for source in done.missing_images:
        click.echo(f"image missing: {source}", err=True)
    for f in done.files:
        click.echo(str(f))


@results.command("reopen")
@click.option("--reason", required=True, help="Why final results change again (kept in the audit log).")
@store_options
def results_reopen(reason, db, game_id, actor) -> None:
    """Reopen final results for corrections; publish them again with `results final`."""
    from arbiter.store.games import get_game
    from arbiter.results.results import reopen_results

    with open_db(db).session() as s:
        g = get_game(s, game_id)
        reopen_results(s, g, actor, reason)
        gid = g.id
    click.echo(f"game {gid}: final results reopened; `fluturas results final` publishes them again")


COMMANDS = [sanction, appeal, results, export]

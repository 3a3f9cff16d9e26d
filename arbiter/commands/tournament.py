"""Setting up a tournament game: games, the seating list, and the sample tournament."""
from __future__ import annotations

from pathlib import Path

import click

from arbiter.commands.common import NUMBER, open_db, store_options


@click.group()
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
@click.option("--seed", type=NUMBER, help="Seed of `round draw` / `round groups --draw` (default: a random one, stored).")
@click.option("--type", "kind", type=click.Choice(["duplicate", "anticipation"]), default="duplicate", show_default=True,
              help="Duplicate (one shared board) or anticipation (RULES.md §7: each player's own board).")
@store_options
def game_new(tournament, name, variant, category, rules, words, venue, seed, kind, db, game_id, actor) -> None:
    """Start a game: tournament, type, variant, category, rule pack and word list."""
    from arbiter.store.games import GameSpec, check_wordlist, new_game
    from corrector.rulepack import load_pack

    if words is not None:  # checked before the store is opened (or made): a bad list leaves nothing behind
        check_wordlist(words, load_pack(rules))
    store = open_db(db, create=True)
    with store.session() as s:
        g = new_game(s, GameSpec(tournament, name, variant, category, rules, words, venue, seed, kind), actor)
        click.echo(f"game {g.id}: {tournament} — {name} ({kind}, {variant}, {category}, rules {rules}"
                   f"{', words ' + g.wordlist_label + ' sha256 ' + g.wordlist_sha256[:12] if g.wordlist_sha256 else ''})")


@game.command("list")
@store_options
def game_list(db, game_id, actor) -> None:
    """The games in the store."""
    from sqlalchemy import select

    from arbiter.store.models import Game

    with open_db(db).session() as s:
        for g in s.scalars(select(Game).order_by(Game.id)):
            click.echo(f"{g.id:>4}  {g.name:<24} {g.kind:<12} {g.variant:<10} {g.category:<7} {g.status:<12} rounds {len(g.rounds)}")


@click.group()
def players() -> None:
    """The seating list."""


@players.command("import")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--encoding", help="Encoding of a CSV that is not UTF-8 (e.g. cp1250, latin-1).")
@click.option("--replace", is_flag=True, help="Replace seats already stored for the same tables.")
@store_options
def players_import(path, encoding, replace, db, game_id, actor) -> None:
    """Import a seating list (CSV or XLSX; columns masa, nume[, prenume, club, categorie])."""
    from arbiter.store.games import get_game, seat_players
    from arbiter.store.seating import read_seating

    seats = read_seating(path, encoding)
    with open_db(db).session() as s:
        count = seat_players(s, get_game(s, game_id), seats, actor, str(path), replace)
    click.echo(f"{count} players seated from {path}")



def _seat_options(func):
    func = click.option("--reason", help="Why (kept in the audit log).")(func)
    func = click.option("--category", help="senior, youth, junior, cadet, veteran.")(func)
    func = click.option("--club", help="The player's club.")(func)
    return func


@players.command("add")
@click.argument("table", type=NUMBER)
@click.option("--name", required=True, help="The player's name, as the sheet prints it.")
@_seat_options
@store_options
def players_add(table, name, club, category, reason, db, game_id, actor) -> None:
    """Seat one player at a free table (undone by `players remove`)."""
    from arbiter.store.games import get_game
    from arbiter.store.players import SeatChange, add_player

    with open_db(db).session() as s:
        add_player(s, get_game(s, game_id), table, SeatChange(name, club, category), actor, reason)
    click.echo(f"table {table}: {' '.join(name.split())} seated")


@players.command("edit")
@click.argument("table", type=NUMBER)
@click.option("--name", help="The corrected name.")
@_seat_options
@store_options
def players_edit(table, name, club, category, reason, db, game_id, actor) -> None:
    """Correct a seat's name, club or category (undone by editing it back)."""
    from arbiter.store.games import get_game
    from arbiter.store.players import SeatChange, edit_player

    with open_db(db).session() as s:
        player = edit_player(s, get_game(s, game_id), table, SeatChange(name, club, category), actor, reason)
        line = f"table {table}: {player.name}" + (f", {player.club}" if player.club else "")
    click.echo(line)


@players.command("remove")
@click.argument("table", type=NUMBER)
@click.option("--reason", help="Why (kept in the audit log).")
@store_options
def players_remove(table, reason, db, game_id, actor) -> None:
    """Remove a seat typed by mistake, while no slip names its table (undone by `players add`)."""
    from arbiter.store.games import get_game
    from arbiter.store.players import remove_player

    with open_db(db).session() as s:
        seat = remove_player(s, get_game(s, game_id), table, actor, reason)
    click.echo(f"table {table}: {seat['name']} removed (`fluturas players add {table} --name ...` seats it again)")


@click.command()
@click.option("--out", type=click.Path(path_type=Path), default=Path("out/demo"), show_default=True)
@click.option("--rounds", type=click.IntRange(1, 30), default=None, help="Rounds to play (default: samples/game.json).")
@click.option("--reader", default="cnn", show_default=True, help="Handwriting reader for the scanned slips (cnn, tesseract).")
@click.option("--seed", type=int, default=None, help="Seed of the draws and the players' slips (default: samples/game.json).")
@click.option("--players", type=click.IntRange(1, 200), default=None, help="Players seated (default: samples/players.csv).")
@click.option("--mistakes", type=click.FloatRange(0.0, 1.0), default=None,
              help="Share of slips written with a mistake (default: samples/game.json).")
def demo(out, rounds, reader, seed, players, mistakes) -> None:
    """Play the sample tournament end to end: a simulated game, its slips rendered as scanned pages,
    read by the scanner, corrected, reviewed, closed, and the sheet written."""
    from arbiter.demo.demo import DemoOptions, run_demo

    options = DemoOptions.from_sample(rounds=rounds, reader=reader, seed=seed, players=players, mistake_rate=mistakes)
    for line in run_demo(out, options=options):
        click.echo(line)
    click.echo(f"open it in a browser: fluturas serve --db {out / 'demo.db'}, then http://127.0.0.1:8000/ "
               f"(queue, round, hall, results; pictures of each in docs/screenshots/)")


COMMANDS = [game, players, demo]

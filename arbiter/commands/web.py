"""`fluturas serve`: the arbiters' web application on the same store as the CLI, served by
waitress (a production WSGI server that runs on Windows too) with as many threads as the store's
connection pool has connections."""
from __future__ import annotations

from pathlib import Path

import click

from arbiter.commands.common import open_db
from exitcodes import FluturasError

THREADS = 8  # requests served at once; the store's pool is sized to match (Store.sized)


def start_server(app, host: str, port: int, threads: int = THREADS):
    """The waitress server of `app`, listening (port 0: a free one); `.run()` serves it."""
    from waitress.server import create_server

    return create_server(app, host=host, port=port, threads=threads, ident="fluturas",
                         connection_limit=max(100, 25 * threads), channel_timeout=60)


@click.command()
@click.option("--db", envvar="FLUTURAS_DB", default="fluturas.db", show_default=True,
              help="SQLite file or database URL (postgresql://user@host/db).")
@click.option("--game", "game_id", type=click.IntRange(1, 2**31 - 1), default=None,
              help="Game id (default: the newest game).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but loopback (the hall's LAN) needs the printed access token.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--threads", type=click.IntRange(1, 64), default=THREADS, show_default=True,
              help="Requests served at once; the store keeps as many database connections.")
@click.option("--images", "image_dirs", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A folder the scans were read from, when not beside the store or in the current folder "
                   "(repeatable): slip images are served only from these folders.")
@click.option("--new-store", is_flag=True,
              help="Create the store if the file does not exist yet, for a tournament set up in the browser "
                   "(without it, a --db that names no store is refused, so a typo never starts an empty one).")
@click.option("--samples", "learn", type=click.Path(path_type=Path), default=None,
              help="Where corrected fields go for `fluturas reader finetune` (default: reader-samples/ beside the SQLite file).")
def serve(db, game_id, host, port, threads, image_dirs, new_store, learn) -> None:
    """Serve the review queue, the round, the hall (projector) and the results pages in a browser."""
    from arbiter.web.app import create_app
    from arbiter.web.security import is_loopback, new_token

    from arbiter.store.games import get_game

    store = open_db(db, create=new_store).sized(threads)
    if game_id is not None:  # a game the store does not hold is refused now, not on every page
        try:
            with store.session() as s:
                get_game(s, game_id)
        except FluturasError:
            store.close()
            raise
    folder = Path(db).resolve().parent if "://" not in db else Path(".").resolve()
    token = None if is_loopback(host) else new_token()
    roots = (folder, Path(".").resolve(), *(p.resolve() for p in image_dirs))
    app = create_app(store, game_id, token, learn or folder / "reader-samples", roots)
    try:
        server = start_server(app, host, port, threads)
    except OSError as exc:
        store.close()
        raise FluturasError(f"--host {host} --port {port}: cannot listen ({exc.strerror or exc})") from exc
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{getattr(server, 'effective_port', port)}"
    click.echo(f"fluturas serve: {base}/queue" + (f"?token={token}" if token else ""))
    click.echo(f"  hall (projector, read-only{', no token' if token else ''}): {base}/hall")
    if token:
        click.echo(f"  access token for the arbiters' pages: {token}")
    click.echo("  Ctrl+C stops it")
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        store.close()


COMMANDS = [serve]

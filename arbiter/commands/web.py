"""`fluturas serve`: the arbiters' web application on the same store as the CLI."""
from __future__ import annotations

from pathlib import Path

import click

from arbiter.commands.common import open_db


@click.command()
@click.option("--db", envvar="FLUTURAS_DB", default="fluturas.db", show_default=True,
              help="SQLite file or database URL (postgresql://user@host/db).")
@click.option("--game", "game_id", type=int, default=None, help="Game id (default: the newest game).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but loopback (the hall's LAN) needs the printed access token.")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--samples", "learn", type=click.Path(path_type=Path), default=None,
              help="Where corrected fields go for `fluturas reader finetune` (default: reader-samples/ beside the SQLite file).")
def serve(db, game_id, host, port, learn) -> None:
    """Serve the review queue, the round, the hall (projector) and the results pages in a browser."""
    from werkzeug.serving import make_server

    from arbiter.web.app import create_app
    from arbiter.web.security import is_loopback, new_token

    store = open_db(db)
    folder = Path(db).resolve().parent if "://" not in db else Path(".").resolve()
    token = None if is_loopback(host) else new_token()
    app = create_app(store, game_id, token, learn or folder / "reader-samples", (folder, Path(".").resolve()))
    server = make_server(host, port, app, threaded=True)
    base = f"http://{host}:{server.server_port}"
    click.echo(f"fluturas serve: {base}/queue" + (f"?token={token}" if token else ""))
    click.echo(f"  hall (projector, read-only{', no token' if token else ''}): {base}/hall")
    if token:
        click.echo(f"  access token for the arbiters' pages: {token}")
    click.echo("  Ctrl+C stops it")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        store.close()


COMMANDS = [serve]

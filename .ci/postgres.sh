#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback for the store tests.
#
#   .ci/postgres.sh python -m pytest tests/arbiter   # start, run the command with
#                                                    # FLUTURAS_TEST_PG_URL set, stop, clean up
#   eval "$(.ci/postgres.sh)"                        # start and print the exports; stop later
#                                                    # with: $FLUTURAS_TEST_PG_STOP
#
# Run as root, the server runs as the `postgres` user (initdb refuses root). Binaries are
# taken from $PG_BIN, else the newest /usr/lib/postgresql/*/bin, else $PATH.
set -euo pipefail

PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)}"
[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] || PG_BIN="$(dirname "$(command -v initdb || echo /nonexistent/initdb)")"
if [ ! -x "$PG_BIN/initdb" ]; then
    echo "postgres.sh: initdb not found (install Debian's postgresql package or set PG_BIN)" >&2
    exit 2
fi

# From /: the postgres user may not enter the caller's folder (a clone in a `mktemp -d` folder is
# its owner's alone), and the server's tools would say so on every call.
as_db_user() {
    if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

DIR="$(mktemp -d /tmp/fluturas-pg.XXXXXX)"
[ "$(id -u)" = 0 ] && chown postgres: "$DIR"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

as_db_user "$PG_BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 \
    || { cat "$DIR/initdb.log" >&2; exit 2; }
as_db_user "$PG_BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c max_connections=50" start >/dev/null \
    || { cat "$DIR/server.log" >&2; exit 2; }
as_db_user "$PG_BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres fluturas_test

URL="postgresql+psycopg://postgres@127.0.0.1:$PORT/fluturas_test"
STOP="$(printf '%q ' bash -c "cd / && $( [ "$(id -u)" = 0 ] && echo 'runuser -u postgres -- ')$PG_BIN/pg_ctl -D $DIR/data -m fast stop >/dev/null; rm -rf $DIR")"

if [ "$#" -eq 0 ]; then
    echo "export FLUTURAS_TEST_PG_URL='$URL'"
    echo "export FLUTURAS_TEST_PG_STOP='$STOP'"
    exit 0
fi
trap 'eval "$STOP"' EXIT
FLUTURAS_TEST_PG_URL="$URL" "$@"

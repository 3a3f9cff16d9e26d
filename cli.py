"""The one entry point: `fluturas`. It holds the command group and the one handler that turns
every failure into one line on stderr and its documented exit code (`exitcodes.ExitCode`, README
"Exit codes"): the project's errors carry their code; a file that cannot be written is
FILE_ACCESS; anything unexpected is INTERNAL, its traceback written to a log file beside the
store, named in the message. The commands live in `arbiter/commands/`, one module per stage."""
from __future__ import annotations

import traceback
from datetime import datetime, timezone

import click

from arbiter.commands import ALL_COMMANDS
from exitcodes import ExitCode, FluturasError


def _log_traceback(exc: BaseException) -> str:
    """Append the traceback to the error log beside the store; its path, or why it could not be written."""
    from arbiter.commands.common import last_store_url
    from arbiter.store.store import error_log

    path = error_log(last_store_url())
    try:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"--- {datetime.now(timezone.utc).isoformat()} {type(exc).__name__}\n")
            handle.write("".join(traceback.format_exception(exc)))
        return str(path)
    except OSError as log_exc:
        return f"(no log written: {path}: {log_exc.strerror})"


def _one_line(text: str) -> str:
    """A message on one line: several lines (a list of problems, click's choices) joined by '; '."""
    return "; ".join(line.strip().rstrip(",") for line in str(text).splitlines() if line.strip())


class _Group(click.Group):
    """Turns every failure into one clear line and its exit code; never a traceback."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except FluturasError as exc:
            click.echo(f"error: {_one_line(str(exc))}", err=True)
            ctx.exit(int(exc.exit_code))
        except click.UsageError as exc:  # one line too, naming the option, and where the help is
            where = exc.ctx.command_path if exc.ctx is not None else "fluturas"
            click.echo(f"error: {_one_line(exc.format_message())} (`{where} --help`)", err=True)
            ctx.exit(int(ExitCode.BAD_INPUT))
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted: the step in flight was not stored", err=True)
            ctx.exit(int(ExitCode.INTERRUPTED))
        except OSError as exc:
            where = exc.filename if exc.filename is not None else "file"
            click.echo(f"error: {where}: {_one_line(exc.strerror or str(exc))}", err=True)
            ctx.exit(int(ExitCode.FILE_ACCESS))
        except Exception as exc:  # noqa: BLE001 — the one place every other failure is turned into a line
            from sqlalchemy.exc import IntegrityError  # here, not at start-up: most commands never open a store

            if isinstance(exc, IntegrityError):  # two commands raced to store the same row: the loser stored nothing
                click.echo(f"error: another command stored the same record meanwhile ({_one_line(str(exc.orig))[:120]}); "
                           f"nothing of this command was stored, run it again", err=True)
                ctx.exit(int(ExitCode.CONFLICT))
            log = _log_traceback(exc)
            message = _one_line(str(exc))[:200]
            click.echo(f"internal error: {type(exc).__name__}: {message} (details in {log})", err=True)
            ctx.exit(int(ExitCode.INTERNAL))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fluturas", prog_name="fluturas", message="%(prog)s %(version)s")
def main() -> None:
    """Correction system for Romanian Scrabble Federation duplicate and anticipation games."""


for _command in ALL_COMMANDS:
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()

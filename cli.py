"""The one entry point: `fluturas`. It holds the command group and the one handler that turns the
project's errors into a line on stderr and their exit code (`exitcodes.ExitCode`); the commands live
in `arbiter/commands/`, one module per stage, each parsing options, calling the library and printing."""
from __future__ import annotations

import click

from arbiter.commands import ALL_COMMANDS
from exitcodes import FluturasError


class _Group(click.Group):
    """Turns the project's typed errors into one clear line and their exit code."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except FluturasError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(int(exc.exit_code))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fluturas", prog_name="fluturas", message="%(prog)s %(version)s")
def main() -> None:
    """Correction system for Romanian Scrabble Federation duplicate and anticipation games."""


for _command in ALL_COMMANDS:
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()

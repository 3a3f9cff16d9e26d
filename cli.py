"""The one entry point: `fluturas`. Only this module prints to the terminal and maps errors to exit codes."""
from __future__ import annotations

import sys

import click


class FluturasError(Exception):
    """Base for input/program failures that end a command with a clear one-line message."""

    exit_code = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Correction system for Romanian Scrabble Federation duplicate and anticipation games."""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

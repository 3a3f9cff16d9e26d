"""The commands of `fluturas`, one module per stage. Each command parses its options, calls one
library function and prints; `cli.py` gathers them and maps errors to exit codes."""
from __future__ import annotations

from arbiter.commands import engine, judge, results, review, rounds, scanner, tournament, undo, web

ALL_COMMANDS = [*engine.COMMANDS, *judge.COMMANDS, *tournament.COMMANDS, *rounds.COMMANDS, *review.COMMANDS,
                *results.COMMANDS, *scanner.COMMANDS, *undo.COMMANDS, *web.COMMANDS]

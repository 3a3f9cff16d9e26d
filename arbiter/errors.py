"""Failures of the arbiter workflow; each names the file, the row or the item at fault."""
from __future__ import annotations

from exitcodes import ExitCode, FluturasError


class StoreError(FluturasError):
    """The database cannot be opened, migrated, or holds no such game/round/table."""


class SeatingError(FluturasError):
    """A seating file that cannot be imported; the message names file, row and column."""


class ReadingError(FluturasError):
    """A slip reading record that is malformed (file, line and field named)."""


class ReviewConflict(FluturasError):
    """Another arbiter resolved the same review item first; the loser's correction is kept
    in the audit log, not applied, and nothing else changes."""

    exit_code = ExitCode.CONFLICT


class WorkflowError(FluturasError):
    """A step asked for out of order (closing a round with open review items, an appeal
    after the deadline...)."""


class MissingComponent(FluturasError):
    """A piece built on another branch (judge, scanner, game master) is not in this tree."""


class ConcurrentChange(FluturasError):
    """Another arbiter changed the same row (game, round, decision) since it was read; this
    command stored nothing and can simply be run again."""

    exit_code = ExitCode.CONFLICT


class ExportError(FluturasError):
    """An export that cannot be written where it was asked (`--out` is a file, a folder that
    cannot be made); the previous files stay as they were."""


class FileAccess(FluturasError):
    """A file or the store that cannot be written (read-only, disk full, no permission)."""

    exit_code = ExitCode.FILE_ACCESS

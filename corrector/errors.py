"""Program and input-file failures. A player's mistake is never one of these: see `reasons`."""
from __future__ import annotations

from exitcodes import ExitCode, FluturasError

__all__ = ["ExitCode", "FluturasError"]  # the root of every error, re-exported for the corrector's users


class RulePackError(FluturasError):
    """A rule pack is missing, malformed or inconsistent (wrong tile count, unknown key...)."""


class NotationError(FluturasError, ValueError):
    """A position or word that cannot be parsed, with the exact sign or letter at fault."""


class LexiconError(FluturasError):
    """A word list that cannot be read or holds an invalid entry (file and line named)."""


class RecordError(FluturasError):
    """A game record (GCG or FRS log) line that cannot be understood (file and line named)."""


class BoardFileError(FluturasError):
    """A board file that is not 15 lines of 15 squares of the pack's letters."""


class GameError(FluturasError):
    """A duplicate game asked to do what its state forbids (drawing after the end, a
    continuation that is not legal, letters missing from the stock)."""


class AnticipationInputError(FluturasError):
    """Anticipation groups or a game file that break A 5.2 or name what does not exist
    (a group outside 1–15, a round played twice, a slip of an unknown table)."""


class CaseError(FluturasError):
    """A judge input (CASE.json) that is not well formed: the key and the slip are named.
    A slip that says something wrong is a player's mistake, ruled on, never one of these."""

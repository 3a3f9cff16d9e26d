"""What a slip says (RULES.md §2, D 5.3.5), before any ruling: the record the scanner's reading
or a CASE.json slip becomes. Nothing here is checked; `decision` judges it."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WrittenMove:
    """One move as written: position (`H4` / `8D`), the whole main word, the 0-based indices of
    letters marked as jokers (lowercase letters in `word` count too), the declared score."""

    position: str | None
    word: str | None
    jokers: tuple[int, ...] = ()
    score: int | None = None


@dataclass(frozen=True)
class Slip:
    """A slip of one table in one round. `table` is whose slip it is (as the arbiter attributed
    it); `table_written`/`round_written` say whether the numbers were on it (D 6.2.b);
    `back_ok` is the round-1 name and table on the back (D 6.2.a). A tactic slip holds two
    moves and the declared round total (D 8.6)."""

    table: int
    round: int
    moves: tuple[WrittenMove, ...]
    total: int | None = None
    table_written: bool = True
    round_written: bool = True
    back_ok: bool = True

    @property
    def move(self) -> WrittenMove:
        return self.moves[0]

"""An anticipation game as the arbiter holds it (RULES.md §7): the groups, the round→group order,
the players, their slips (one or two moves, "Anulez turul X", "Verificare") and the disciplinary
warnings. Nothing here is checked against the rules; `replay` and `correction` judge it."""
from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from enum import Enum

from corrector.errors import AnticipationInputError
from corrector.rulepack import RulePack
from corrector.judging.slip import Slip
from corrector.anticipation.groups import GroupSet


class Variant(Enum):
    """A 8: the classic game and its variants, each with its article."""

    CLASSIC = ("classic", "A 5")
    AVOCALIC = ("avocalic", "A 8.1")
    SCRABBLE_ENDURANCE = ("scrabble_endurance", "A 8.2")
    SCRABBLE_TOTAL = ("scrabble_total", "A 8.3")
    BLIND = ("blind", "A 8.4")

    @property
    def key(self) -> str:
        return self.value[0]

    @property
    def article(self) -> str:
        return self.value[1]

    @classmethod
    def from_key(cls, key: str) -> "Variant":
        for member in cls:
            if member.key == key:
                return member
        raise AnticipationInputError(f"variant {key!r} is unknown (expected {', '.join(m.key for m in cls)})")

    @property
    def bingo_only(self) -> bool:
        return self in (Variant.SCRABBLE_ENDURANCE, Variant.SCRABBLE_TOTAL)


@dataclass(frozen=True)
class AnticipationSlip:
    """One slip (A 5.3): the judge's `Slip` (round 1 may hold two moves, the 2-letter group
    first, and the round total), plus the corner notes "Anulez turul X" and "Verificare"
    (with the adjacent words listed after it, if any)."""

    slip: Slip
    cancel_round: int | None = None
    verify: bool = False
    verify_words: tuple[str, ...] = ()

    @property
    def table(self) -> int:
        return self.slip.table

    @property
    def round(self) -> int:
        return self.slip.round


@dataclass(frozen=True)
class Player:
    table: int
    name: str


@dataclass(frozen=True)
class AnticipationGame:
    """Everything the correction needs. `order[r-1]` is the 7-letter group of round r (round 1
    also plays group 1). In the blind variant (A 8.4) each player's own groups are in
    `player_groups`; otherwise everyone plays `groups`."""

    pack: RulePack
    lexicon: Container[str]
    variant: Variant
    groups: GroupSet | None
    order: tuple[int, ...]
    players: tuple[Player, ...]
    slips: tuple[AnticipationSlip, ...]
    player_groups: Mapping[int, GroupSet] = field(default_factory=dict)
    disciplinary: tuple[tuple[int, int], ...] = ()  # (table, round)
    cheating: Mapping[int, int] = field(default_factory=dict)  # table -> round eliminated (D 7.1.3)
    appeals: tuple[tuple[int, int, str], ...] = ()  # (table, round, action): A 6.5 upheld

    @property
    def rounds(self) -> int:
        return len(self.order)

    def groups_of(self, table: int) -> GroupSet:
        if self.variant is Variant.BLIND:
            if table not in self.player_groups:
                raise AnticipationInputError(f"blind game: table {table} handed in no groups (A 8.4)")
            return self.player_groups[table]
        if self.groups is None:
            raise AnticipationInputError("the game has no groups")
        return self.groups

    def round_groups(self, rnd: int) -> tuple[int, ...]:
        """A 5.3: round 1 plays group 1 and the drawn 7-letter group; later rounds one group."""
        return (1, self.order[0]) if rnd == 1 else (self.order[rnd - 1],)

    def slips_of(self, table: int) -> dict[int, AnticipationSlip]:
        out: dict[int, AnticipationSlip] = {}
        for aslip in self.slips:
            if aslip.table != table:
                continue
            if not 1 <= aslip.round <= self.rounds:
                raise AnticipationInputError(f"table {table}: slip of round {aslip.round}, the game has rounds 1–{self.rounds}")
            if aslip.round in out:
                raise AnticipationInputError(f"table {table}: two slips for round {aslip.round}")
            out[aslip.round] = aslip
        return out

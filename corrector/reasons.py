"""Why a move is not legal: stable names, the RULES.md article, and a message in Romanian and
English. Checking a move returns these as values and never raises (docs/architecture.md: violations are values)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Reason(Enum):
    """Each member: (RULES.md article, Romanian message, English message); `{detail}` is filled in."""

    OFF_BOARD = ("§1", "cuvântul iese de pe tablă", "the word runs off the board")
    WORD_TOO_SHORT = ("§1", "cuvântul principal are o singură literă", "the main word has a single letter")
    BOARD_TILE_MISMATCH = (
        "§1", "pe careul {detail} se află altă literă", "square {detail} already holds another letter")
    NO_NEW_TILE = ("§1", "nicio literă nouă nu este așezată", "no new tile is placed")
    NOT_WHOLE_WORD = (
        "§2", "cuvântul scris nu este întregul cuvânt principal (continuă cu {detail})",
        "the written word is not the whole main word (it runs on with {detail})")
    START_SQUARE_MISSED = ("§1", "prima mutare nu acoperă careul central {detail}", "the first move misses the start square {detail}")
    NOT_CONNECTED = ("§1", "mutarea nu se leagă de literele de pe tablă", "the move does not connect to the tiles on the board")
    LETTERS_NOT_IN_GROUP = ("§3.4", "literele {detail} nu sunt în grup", "letters {detail} are not in the group")
    WORD_NOT_IN_LIST = ("§3.4", "cuvântul {detail} nu este în listă", "the word {detail} is not in the word list")
    MALFORMED_POSITION = ("§3.4", "poziție greșită: {detail}", "malformed position: {detail}")
    SIGN_MISSING = ("§3.4", "lipsește un semn al poziției ({detail})", "a sign of the position is missing ({detail})")
    BOTH_SIGNS_WRONG = ("§3.4", "niciun semn al poziției nu dă o mutare legală", "no reading of the position gives a legal move")
    UNKNOWN_LETTER = ("§3.4", "literă necunoscută: {detail}", "unknown letter: {detail}")
    WORD_MISSING = ("§3.4", "cuvântul lipsește", "the word is missing")
    JOKER_NOT_IN_GROUP = ("§3", "joker marcat fără joker în grup ({detail})", "a joker is marked but the group has none ({detail})")
    TOO_MANY_TILES = ("§6", "prea multe litere așezate ({detail})", "too many tiles placed ({detail})")
    MOVE_FITS_ELSEWHERE = ("§3.4", "ambele semne ale poziției sunt greșite (mutarea ar fi legală la {detail})",
                           "both signs of the position are wrong (the move would be legal at {detail})")

    NOT_A_BINGO = ("§7", "varianta cere scrabble: toate cele 7 litere ale grupei ({detail})",
                   "the variant requires a bingo: all 7 letters of the group ({detail})")
    EXTRA_MOVE = ("§7", "după turul 1 se face o singură depunere pe tur ({detail})",
                  "after round 1 a slip holds one move ({detail})")
    WORD_SPLIT = ("§7", "după anulare cuvântul are un gol la {detail}", "after the cancellation the word has a gap at {detail}")

    @property
    def article(self) -> str:
        return self.value[0]


@dataclass(frozen=True)
class Violation:
    """One reason a move fails, with the detail that makes it precise (a word, a square)."""

    reason: Reason
    detail: str = ""

    @property
    def article(self) -> str:
        return self.reason.article

    def message(self, language: str = "en") -> str:
        template = self.reason.value[1] if language == "ro" else self.reason.value[2]
        return template.format(detail=self.detail)

    def __str__(self) -> str:
        return f"{self.reason.name} (RULES.md {self.article}): {self.message('en')}"

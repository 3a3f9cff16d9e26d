"""What an arbiter rules on a slip: status, technical warnings, technical penalties and review
flags, each a stable name with its RULES.md article, the rulebook article and a message in
Romanian and English (docs/architecture.md, house rules: violations are values)."""
from __future__ import annotations

from enum import Enum


class _Explained(Enum):
    """Members hold (RULES.md article, rulebook article, Romanian message, English message)."""

    @property
    def article(self) -> str:
        return self.value[0]

    @property
    def rulebook(self) -> str:
        return self.value[1]

    def message(self, language: str = "en") -> str:
        return self.value[2] if language == "ro" else self.value[3]

    def cite(self) -> str:
        return f"RULES.md {self.article} / {self.rulebook}"


class Status(_Explained):
    VALID = ("§3.1", "D 6", "depunere corectă", "valid move")
    PENALISED = ("§3", "D 6.3", "depunere penalizată", "penalised move")
    INCORRECT = ("§3.4", "D 6.1", "depunere incorectă, 0 puncte", "incorrect move, 0 points")
    MISSING = ("§4", "D 5.3.7", "fluturaș lipsă, 0 puncte", "missing slip, 0 points")
    AVERAGED = ("§4", "D 5.3.7", "depunere incorectă repetată: media turului", "repeated incorrect move: round average")
    NOT_CORRECTED = ("§4", "D 6.4", "jucător eliminat, corectura oprită", "player eliminated, correction stopped")


class WarningKind(_Explained):
    """Technical warnings (D 6.2); at most one counts per slip."""

    BACK_DETAILS = ("§3 a", "D 6.2.a", "nume/prenume sau masă lipsă ori greșite pe spatele fluturașului din turul 1",
                    "name or table missing or wrong on the back of the round-1 slip")
    TABLE_OR_ROUND_MISSING = ("§3 b", "D 6.2.b", "lipsește numărul mesei sau al turului",
                              "the table or round number is missing")
    JOKER_NOT_MARKED = ("§3 c", "D 6.2.c", "jokerul nu este marcat", "the joker is not marked")
    SCORE_WRONG = ("§3 d", "D 6.2.d", "punctaj declarat greșit sau lipsă", "declared score wrong or missing")
    INVERTED_SIGNS = ("§3 e", "D 6.2.e", "semnele poziției sunt inversate (tineret)", "position signs inverted (youth)")
    JOKER_MARKED_WITHOUT_JOKER = ("§3; §6", "D 8.2", "literă marcată ca joker fără joker disponibil (marcare greșită)",
                                  "a letter is marked as a joker with no joker available (wrong marking)")

    @property
    def letter(self) -> str:
        return self.rulebook.rsplit(".", 1)[-1] if self.rulebook.startswith("D 6.2") else ""


class PenaltyKind(_Explained):
    """Technical penalties (D 6.3): −20 from the move, never below 0."""

    INVERTED_SIGNS = ("§3.2", "D 6.3.a", "semnele poziției sunt inversate", "the position signs are inverted")
    ONE_SIGN_WRONG = ("§3.3", "D 6.3.b", "un semn al poziției este greșit", "one sign of the position is wrong")


class Flag(_Explained):
    """A ruling the arbiter should look at again: the rules let the program choose, not know."""

    SIGN_AMBIGUOUS = ("§3.3", "D 6.3.b", "mai multe poziții posibile cu un semn schimbat",
                      "several squares give a legal move with one sign changed")
    JOKER_AMBIGUOUS = ("§3 c", "D 6.2.c", "jokerul poate sta în mai multe locuri",
                       "the joker could stand at several places")
    DECLARED_SCORE_CHOSE = ("§3", "D 6.3", "alegerea s-a făcut după punctajul declarat",
                            "the choice was made by the declared score")
    LOWEST_SCORE_CHOSE = ("§3", "D 6.3", "alegerea s-a făcut după punctajul cel mai mic",
                          "the choice was made by the lowest score")
    APPEAL_APPLIED = ("§4", "D 6.5", "decizie modificată prin contestație", "ruling changed on appeal")

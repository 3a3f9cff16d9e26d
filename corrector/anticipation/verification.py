""""Verificare" (A 5.3, A 5.5.h): the arbiter checks the slip's main word, and the adjacent words
listed after the note, before correcting the round, and signals the answer at once. The answer
needs only the word list, so it can be given before any board is replayed."""
from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass
from typing import Any

from corrector.errors import NotationError
from corrector.rulepack import RulePack
from corrector.judging.slip import Slip


@dataclass(frozen=True)
class WordCheck:
    word: str
    valid: bool


@dataclass(frozen=True)
class VerificationAnswer:
    """The answer for one slip, words in the order asked: main words first, then the list."""

    table: int
    round: int
    checks: tuple[WordCheck, ...]

    @property
    def all_valid(self) -> bool:
        return all(c.valid for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "round": self.round, "all_valid": self.all_valid,
                "words": [{"word": c.word, "valid": c.valid} for c in self.checks]}


def _folded(text: str, pack: RulePack) -> str | None:
    try:
        return "".join(pack.tiles.tokenize(pack.tiles.fold(text.strip())))
    except NotationError:
        return None


def answer_verification(slip: Slip, words: Iterable[str], pack: RulePack, lexicon: Container[str]) -> VerificationAnswer:
    """Check the main word of each move on the slip, then the listed words (jokers are letters)."""
    asked: list[str] = [m.word for m in slip.moves if m.word and m.word.strip()] + list(words)
    checks: list[WordCheck] = []
    seen: set[str] = set()
    for text in asked:
        word = _folded(text, pack)
        if word is None:
            checks.append(WordCheck(text.strip().upper(), False))
        elif word not in seen:
            seen.add(word)
            checks.append(WordCheck(word, word in lexicon))
    return VerificationAnswer(slip.table, slip.round, tuple(checks))

"""How much a free string looks like a word of the language: letter pairs its words almost never have.

A free reading is any string the ink allows. A reader sure of a wrong letter in three boxes of a
hand it never saw makes a string such as RESQGJQM out of RESAIDAM, and the slip would be ruled
"not a word" on it. A player who writes a word the list lacks writes something word-like (ARDEIIID,
PANZU): a letter pair the language's words almost never have is far likelier the reader's doing
than the player's. Each such pair costs a free string its rarity below `rare`
(log P(b | a) − log rare, with ^ and $ for the word's ends), learnt from the round's own word list.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

START, END = "^", "$"
SAMPLE_EVERY = 5  # one word in five of the list is plenty to count letter pairs (about 260,000 of the Romanian list)
FEWEST_WORDS = 10_000  # a shorter list cannot tell a rare pair from one it merely lacks


@dataclass(frozen=True)
class Spelling:
    """log P(next letter | letter) of a word list; `unseen` for a pair the list never has."""

    logp: dict[tuple[str, str], float]
    unseen: float
    rare: float  # a pair likelier than this costs nothing

    def cost(self, word: str) -> float:
        """log prior factor (≤ 0) of a free string: the sum of its rare pairs' rarity."""
        limit = math.log(self.rare)
        chars = [START, *word, END]
        return sum(min(0.0, self.logp.get((a, b), self.unseen) - limit) for a, b in zip(chars, chars[1:]))


def learn(words: Iterable[str], rare: float) -> Spelling:
    """Letter-pair probabilities of `words`, with half a count added to every pair seen after a letter."""
    pairs: Counter[tuple[str, str]] = Counter()
    for word in words:
        chars = [START, *word.upper(), END]
        pairs.update(zip(chars, chars[1:]))
    after: Counter[str] = Counter()
    for (a, _), n in pairs.items():
        after[a] += n
    symbols = len({b for _, b in pairs}) or 1
    logp = {(a, b): math.log((n + 0.5) / (after[a] + 0.5 * symbols)) for (a, b), n in pairs.items()}
    worst = max(after.values(), default=1)
    return Spelling(logp, math.log(0.5 / (worst + 0.5 * symbols)), rare)


_LEARNT: dict[tuple[str, float], Spelling] = {}


def for_lexicon(lexicon: object, rare: float) -> Spelling | None:
    """The spelling of a loaded word list (learnt once per list), or None for a list that cannot
    be walked (a plain set) or is too short to tell: then no free string pays anything here."""
    info, words = getattr(lexicon, "info", None), getattr(lexicon, "words", None)
    if info is None or words is None or rare <= 0 or info.word_count < FEWEST_WORDS:
        return None
    key = (info.sha256, rare)
    if key not in _LEARNT:
        _LEARNT[key] = learn(islice(words(), 0, None, SAMPLE_EVERY), rare)
    return _LEARNT[key]

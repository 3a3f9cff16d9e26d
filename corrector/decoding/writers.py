"""Which of two players wrote a slip, by how its letters look beside each player's settled letters
(`hands.Hand.looks`): what an arbiter does with two slips that may carry each other's table numbers.

Two slips whose table boxes may be read either way (a 4 read 9 on table 24's, a 9 read 4 on
table 29's) go to review (`pile.hold_swappable`): the inks of the table boxes cannot tell the two
players apart. Their letters often can. The reader reads a box the same way on every slip of one
hand (a player's R read K 0.3, R 0.7) and otherwise on another player's slips (R 0.999): a box
near the settled boxes of the same letter in one player's hand and far from them in the other's
says which player wrote it. A letter read alike by every hand (most are read at 0.999) says
nothing, and neither does a letter one of the two hands has not settled at least `MIN_SEEN` times.

The evidence is a likelihood ratio: each box's look weighed by a kernel density over the hand's
settled boxes of its letter (`WRITER_SCALE`, floored at `UNLIKE`). Measured by
`benchmarks/writer_odds.py` on calibration piles 45, 46 and 48 and validation pile 3601 (never on
held-out ones), each slip against its own table's hand and five other tables' hands learnt from the
slips of earlier rounds (38,340 pairs): another player was favoured at least 10 to 1 in 0.21-0.40 %
of pairs and at least 100 to 1 in 0-0.05 %, where a ratio as sure as it claims would allow 2.3-4.6 %
and 0.10-0.30 % (corrector/decoding/README.md, "Two slips told apart by their letters")."""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .evidence import record_classes
from .hands import LOOK_SCALE, MIN_SEEN, Hand, Hands, own_distributions
from .likelihood import LETTERS

# The kernel's width, in Hellinger distance: as wide as the look a hand lends by (`hands.LOOK_SCALE`).
WRITER_SCALE = LOOK_SCALE
# The density a hand gives a box that looks like none of its settled boxes of that letter: a box is
# never impossible in a hand, so one odd box weighs at most 1 / UNLIKE against it.
UNLIKE = 0.01


def letter_density(hand: Hand, look: np.ndarray, letter: int) -> float | None:
    """How much the box that the reader reads `look` (the square root of its distribution) looks
    like the hand's settled boxes of `letter` (an index into the hand's classes): the mean of
    exp(-d^2 / 2 WRITER_SCALE^2) over them, d the Hellinger distance, plus UNLIKE; None when the
    hand has settled fewer than MIN_SEEN boxes of that letter."""
    written = np.asarray(hand.written)
    rows = [hand.looks[j] for j in np.flatnonzero(written == letter)]
    if len(rows) < MIN_SEEN:
        return None
    d2 = ((np.stack(rows) - look) ** 2).sum(axis=1) / 2
    return float(np.exp(-d2 / (2 * WRITER_SCALE ** 2)).mean()) + UNLIKE


@dataclass(frozen=True)
class SlipLetters:
    """A slip's letters as a reading has them, each box's look beside it: what its writer is
    weighed on, taken from the record once however many hands it is weighed in."""

    classes: str
    boxes: tuple[tuple[int, np.ndarray], ...]  # (the letter's index in `classes`, the box's look)


def slip_letters(record: Mapping[str, Any], position: str | None, word: str | None) -> SlipLetters:
    """The letters of `position` and `word`, box by box where the field was read with as many
    boxes as the reading has letters (as `Hands.learn` takes them)."""
    classes = record_classes(record)
    boxes = []
    for name, text in (("position", position), ("word", word)):
        own = own_distributions(record, name)
        if text and len(own) == len(text):
            boxes += [(classes.find(letter), np.sqrt(np.asarray(p, dtype=float)))
                      for p, letter in zip(own, text.upper()) if letter in LETTERS]
    return SlipLetters(classes, tuple(boxes))


def letters_log_odds(hands: Hands, letters: SlipLetters, first: int, second: int) -> float:
    """The log of how much likelier `letters` are in the hand of table `first`'s player than in
    table `second`'s; 0 where the two hands cannot tell them apart."""
    a, b = hands.by_table.get(first), hands.by_table.get(second)
    if a is None or b is None or a.classes != letters.classes or b.classes != letters.classes:
        return 0.0
    total = 0.0
    for k, look in letters.boxes:
        in_first, in_second = letter_density(a, look, k), letter_density(b, look, k)
        if in_first is not None and in_second is not None:
            total += math.log(in_first / in_second)
    return total


def writer_log_odds(hands: Hands, record: Mapping[str, Any], position: str | None, word: str | None,
                    first: int, second: int) -> float:
    """`letters_log_odds` of the slip's letters, `position` and `word` as its reading has them."""
    return letters_log_odds(hands, slip_letters(record, position, word), first, second)

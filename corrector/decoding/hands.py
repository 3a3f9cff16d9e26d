"""Each player's hand, learnt from the player's own slips of earlier rounds once they were settled
(decided, or cleared by an arbiter): how the reader reads that player's letters.

A player keeps one hand the whole game. The reader, taught on other hands, may read one player's
R as K on every slip, sure of it; the ink then rules the player's legal move out round after
round, and an arbiter clears the same doubt each time. Once that player's settled slips have
shown the reader's K to be an R at least `MIN_SEEN` times, a K in that player's letters may be an
R, in the share those slips give it (at most half: the ink keeps its own reading). Nothing else
changes: a letter whose reading no settled slip of the player has contradicted keeps the reader's
own distribution, and the ink of another player never lends this one a confusion. Only letters are
learnt (the word and the position's row): a score one digit off is the commonest mistake on a
slip, and a hand learnt on a few digits must not lend a wrong score the move's own.

The hand also keeps how each settled letter looked to the reader (`Hand.looks`: the reader's whole
distribution over the box). A player's J that the reader reads T 0.8, J 0.15 looks to it the same
on every slip, and unlike the player's own T, read T 0.999: a new box that looks like the player's
settled Js is one of them, although the reader's best class is T. Counting read-as pairs cannot
tell that J from a T of the same player; the look can. A box that looks like none of the player's
settled letters borrows nothing (`LOOK_SCALE`)."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .evidence import (HOLDS, FieldInk, SlipInk, box_distribution, box_holds, fold_lookalikes, holds_of,
                       record_classes, record_fields)
from .likelihood import LETTERS

LEARNT_FIELDS = ("word", "position")
# The fields whose boxes the read-as count (`Hand.matrix`) lends letters to: the word alone. In the
# position, one wrong sign is a mistake the ink must be let to show (RULES.md §3.3): a player whose
# I the reader reads J wrote J5 for the legal I5, the count lent the J an I, and the slip was
# credited as the legal I5 at 0.9992 on a validation pile (seed 3603, 100 seats). There the
# position is read in the player's hand by its looks alone (`Hand.look_votes`), which tell that
# player's J from their I.
COUNTED_FIELDS = ("word",)
# How many of a player's settled boxes must have shown the reader's r to be a c before an r of
# that player may be a c: one could be an arbiter's slip of the hand, or a slip decided wrong.
MIN_SEEN = 2
# The reader's own reading of a player's letter keeps this weight against what the settled boxes
# say (the boxes read r count each as one, the reader's r as ALPHA more), and never less than
# KEEP of it: the hand lends a letter the ink ruled out, it does not take the ink's own away. Seen
# on the validation hands: a player whose two settled L had read X, and no G yet, had the X of a
# G taken for an L at 2 to 1 (ALPHA 1, no KEEP), and 9G NETE was decided as the legal 9L NETE.
ALPHA = 2.0
KEEP = 0.5
# A slip is read in its player's hand only when its table is this sure (the QR's, or its ink's):
# a slip read at another player's table must not borrow that player's confusions.
SURE_TABLE = 0.99
# A class the hand moves this much of a box's mass to is one the box may hold (the ink rule's floor).
LENT = 0.01
# How near a new box must look to one of the player's settled letters to be taken for it: the
# Hellinger distance d between the reader's two distributions, a settled box counting
# exp(-d^2 / 2 LOOK_SCALE^2), and only for a letter at least MIN_SEEN of whose settled boxes are
# within LOOK_SCALE. On calibration pile 48 two boxes of one letter in one hand are a median 0.018
# apart (93 % under 0.1), two of different letters that the reader reads as one class 0.16 (28 %
# under 0.1), two letters read apart 0.98. 0.2, before a letter needed MIN_SEEN near boxes, decided
# a calibration slip wrong (a one-letter invalid word lent the legal letter by the player's other
# letters); chosen on the calibration and validation piles, never on held-out ones
# (corrector/decoding/README.md, "The look of a player's letters").
LOOK_SCALE = 0.1
# The reader's own reading of a box counts as this many settled boxes looking exactly like it.
LOOK_OWN = 1.0


@dataclass
class Hand:
    """One player's settled letters: `seen[r][c]` boxes the reader read r whose letter was c."""

    seen: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    # `looks[j]`: the square root of the reader's distribution over `classes` for settled box j,
    # whose letter was `written[j]` (an index into `classes`)
    classes: str = ""
    looks: list[np.ndarray] = field(default_factory=list)
    written: list[int] = field(default_factory=list)
    # the looks as the decoder reads a box that holds only some classes (`looks_in`), by those classes
    _folded: dict[str, np.ndarray] = field(default_factory=dict, init=False, repr=False, compare=False)

    def add(self, read: str, written: str) -> None:
        self.seen[read][written] += 1

    def keep_look(self, p: np.ndarray, written: str, classes: str) -> None:
        """Keep how a settled box of letter `written` looked to the reader (`p` over `classes`)."""
        if self.classes and classes != self.classes:
            return  # a record of a reader with other classes: its looks do not compare
        self.classes = classes
        self.looks.append(np.sqrt(np.asarray(p, dtype=float)))
        self.written.append(classes.find(written))
        self._folded.clear()

    def looks_in(self, holds: str | None) -> np.ndarray:
        """The settled looks (rows) as the decoder reads a box that can hold only `holds`: the
        mass on a class it cannot hold moved to that class's look-alike (`fold_lookalikes`). The
        record keeps each look as the reader saw it, and a box of a word is read folded: a player's
        D read 0 0.5, D 0.49 is, in a word, a box read O 0.5, D 0.49, and it is that box a new
        one is compared with."""
        if not holds:
            return np.stack(self.looks)
        if holds not in self._folded:
            self._folded[holds] = np.sqrt(np.stack([fold_lookalikes(look ** 2, self.classes, holds)
                                                    for look in self.looks]))
        return self._folded[holds]

    def look_votes(self, p: np.ndarray, classes: str, holds: str | None = None) -> np.ndarray | None:
        """`votes[k]`: how much the player's settled boxes of letter k look like a box the reader
        reads `p` (each exp(-d^2 / 2 LOOK_SCALE^2), d their Hellinger distance), for the letters at
        least MIN_SEEN of whose settled boxes are within LOOK_SCALE of it; None when the hand keeps
        no look in these classes. `p` is the box as the decoder reads it where it can hold only
        `holds` (None: any class), the settled looks read the same way (`looks_in`)."""
        if not self.looks or classes != self.classes:
            return None
        d2 = ((self.looks_in(holds) - np.sqrt(p)) ** 2).sum(axis=1) / 2
        written = np.asarray(self.written)
        votes = np.bincount(written, weights=np.exp(-d2 / (2 * LOOK_SCALE ** 2)), minlength=len(classes))
        # a letter only one settled box within LOOK_SCALE shows votes nothing (MIN_SEEN, as above)
        seen = np.bincount(written, weights=(d2 <= LOOK_SCALE ** 2).astype(float), minlength=len(classes))
        return np.where(seen >= MIN_SEEN, votes, 0.0)

    def confusions(self) -> dict[str, dict[str, float]]:
        """`{r: {c: share}}`: for each letter r the reader has read for another letter of this
        player at least MIN_SEEN times, the share of the player's r that each such c takes."""
        out: dict[str, dict[str, float]] = {}
        for read, written in self.seen.items():
            total = sum(written.values()) + ALPHA
            shares = {c: n / total for c, n in written.items() if c != read and n >= MIN_SEEN}
            lent = sum(shares.values())
            if lent > 1 - KEEP:
                shares = {c: share * (1 - KEEP) / lent for c, share in shares.items()}
            if shares:
                out[read] = shares
        return out

    def matrix(self, classes: str) -> np.ndarray | None:
        """`H[r, c]`: the chance a box of this player read r holds c (the identity but for the
        letters of `confusions`); None while the hand lends no letter another."""
        learnt = self.confusions()
        if not learnt:
            return None
        h = np.eye(len(classes))
        for read, shares in learnt.items():
            r = classes.find(read)
            if r < 0:
                continue
            for written, share in shares.items():
                c = classes.find(written)
                if c >= 0:
                    h[r, c] += share
                    h[r, r] -= share
        return h


@dataclass
class Hands:
    """Every player's hand, by table (a table seats one player the whole game)."""

    by_table: dict[int, Hand] = field(default_factory=dict)

    def learn(self, table: int | None, record: Mapping[str, Any], position: str | None, word: str | None) -> int:
        """Add the letters of a settled slip (`position` and `word` as filed) to its table's hand,
        box by box where the field was read with as many boxes as it holds letters: the number of
        boxes learnt."""
        if table is None:
            return 0
        hand = self.by_table.setdefault(table, Hand())
        classes = record_classes(record)
        learnt = 0
        for name, text in (("position", position), ("word", word)):
            own = own_distributions(record, name)
            read = best_of(own, classes, name)
            if not text or len(read) != len(text):
                continue
            for r, written, p in zip(read, text.upper(), own):
                if written not in LETTERS:
                    continue
                hand.keep_look(p, written, classes)
                if r in LETTERS:
                    hand.add(r, written)
                    learnt += 1
        return learnt

    def lent(self, table: int | None) -> dict[str, dict[str, float]]:
        """What the table's hand lends (`Hand.confusions`): nothing for a table not seen yet."""
        hand = self.by_table.get(table) if table is not None else None
        return hand.confusions() if hand else {}

    def apply(self, ink: SlipInk, table: int | None) -> SlipInk:
        """The slip's ink read in the hand of the player at `table`: every box of its word mixed by
        the player's `Hand.matrix`, every box of its word and position by the settled letters it
        looks like (`Hand.look_votes`), and the letters the hand lends lent to the ink rule, so a K the
        player's settled slips showed to be an R is no longer ruled out as one. The reader's own
        reading stays as it was: a ruling only the hand gives overrules the ink and needs the
        decoder's overruling threshold. Unchanged when the hand lends nothing."""
        hand = self.by_table.get(table) if table is not None else None
        if hand is None:
            return ink
        h = hand.matrix(ink.classes)
        fields = dict(ink.fields)
        for name in LEARNT_FIELDS:
            in_hand = _in_hand(fields[name], h) if h is not None and name in COUNTED_FIELDS else fields[name]
            fields[name] = _by_looks(in_hand, hand, ink.classes)
        return replace(ink, fields=fields)


def best_of(own: list[np.ndarray], classes: str, name: str) -> str:
    """The reader's best class of each box of field `name` whose own distributions are `own`
    (`own_distributions`), as the decoder reads the box (look-alikes folded into what the field
    can hold); "" for a field without per-box readings."""
    return "".join(classes[int(np.argmax(fold_lookalikes(p, classes, h)))]
                   for p, h in zip(own, box_holds(own, classes, HOLDS[name])))


def own_distributions(record: Mapping[str, Any], name: str) -> list[np.ndarray]:
    """The reader's own distribution over each written box of field `name`, as the record keeps it."""
    classes = record_classes(record)
    item = record_fields(record)[name]
    chars = item.get("chars") if isinstance(item, Mapping) else None
    return [box_distribution(c, classes) for c in chars] if chars else []


def _by_looks(f: FieldInk, hand: Hand, classes: str) -> FieldInk:
    """The field's boxes mixed with the player's settled letters each looks like: a box whose
    look-alikes weigh S moves S / (S + LOOK_OWN) of its mass (at most 1 - KEEP) to their letters,
    in their shares, and the classes it moves LENT or more to are lent to the ink rule. The
    reader's own distribution stays for that rule, as `_in_hand` keeps it."""
    if not f.boxes:
        return f
    mixed = np.exp(f.logp)
    lent = np.zeros(mixed.shape, dtype=bool)
    looked = False
    for i, p in enumerate(np.exp(f.ink_logp)):
        votes = hand.look_votes(p, classes, holds_of(f, i, classes))
        weight = float(votes.sum()) if votes is not None else 0.0
        if weight <= 0.0:
            continue
        looked = True
        moved = min(1 - KEEP, weight / (weight + LOOK_OWN)) * votes / weight
        mixed[i] = mixed[i] * (1 - moved.sum()) + moved
        lent[i] = moved >= LENT
    if not looked:
        return f  # no box looks like a settled letter of the player: read as it was
    return replace(f, logp=np.log(np.maximum(mixed, 1e-12)), reader_logp=f.ink_logp,
                   lent=lent if f.lent is None else lent | f.lent)


def _in_hand(f: FieldInk, h: np.ndarray) -> FieldInk:
    """The field's boxes mixed by the hand `h`, and the classes it lends them (`FieldInk.lent`: at
    least LENT of a box's mass moved there); the reader's own distribution is kept as it was, so
    a ruling the hand alone gives overrules the ink's own reading (`Priors.threshold_overrule`)."""
    if not f.boxes:
        return f
    mix = lambda logp: None if logp is None else np.log(np.maximum(np.exp(logp) @ h, 1e-12))  # noqa: E731
    moved = h - np.diag(np.diag(h))
    lent = np.exp(f.ink_logp) @ moved >= LENT
    as_written_own = f.as_written_reader_logp if f.as_written_reader_logp is not None else f.as_written_logp
    if as_written_own is not None:
        lent |= np.exp(as_written_own) @ moved >= LENT
    return replace(f, logp=mix(f.logp), reader_logp=f.ink_logp, as_written_logp=mix(f.as_written_logp),
                   as_written_reader_logp=as_written_own, lent=lent if f.lent is None else lent | f.lent)

"""Decode one slip against its round (issue 15): every hypothesis of what the player wrote, weighed
by the ink, and the judge's own ruling (RULES.md §3, `decide_move` / `apply_warnings`) on each.

Hypotheses (all in log space):
- a legal move of the round written as a slip writes it, with the near-misses RULES.md §3 explains
  (inverted signs, exactly one wrong sign, an unmarked joker, a marked letter that is no joker);
- a free reading: any string the field grammar allows (the k best of each field), for the player
  who wrote an invalid word, an impossible position or letters outside the group. Its prior is high
  enough that clear ink always wins: a genuinely wrong move is never repaired into a legal one,
  because the outcome is always the ruling on the *written* slip, never on the move it resembles.
The declared score is any number (right most of the time); the table must be seated (a pre-filled
slip's QR settles it); a slip of another round is never decided. The posterior of each distinct
outcome (table, round, status, credited points, warning, penalty) is the sum over the hypotheses
that give it; the slip is decided when the best outcome passes the calibrated threshold."""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from corrector.judging.decision import Decision, apply_warnings, decide_move
from corrector.judging.slip import Slip, WrittenMove

from .confusion import ReaderConfusion, load_confusion
from .markscores import MarkScores, load_mark_scores
from .evidence import LOOKALIKES, FieldInk, SlipInk, plausible, slip_ink
from .hands import SURE_TABLE, Hands
from .knowledge import RoundKnowledge
from .nearmiss import NearMiss, SignMisread, one_sign_from, two_signs_from
from .likelihood import (LETTERS, ROWS, SQUARES, alignments, kbest, number_kbest, number_loglik, number_text,
                         position_logliks, string_loglik, words_loglik)
from .priors import Priors, load_priors
from .writers import letters_log_odds, slip_letters, writer_log_odds
from . import spelling
from .strokes import PARTNER, allow_pairs

_LOOKALIKE_OF = {a: b for pair in LOOKALIKES for a, b in (pair, pair[::-1])}  # B → 8, 8 → B, ...

MovePart = tuple[str, str, tuple[int, ...], "int | None"]  # position, word, jokers, declared score
# A written box the reader reads as one class at least this sure holds a sign: no reading leaves it
# out as a stray stroke, however faint its ink (`evidence.blank_chance`). A faint box right after a
# circled joker may be the circle's tail, but on held-out seed 3542 (16 seats) the faint L of a
# `10I CINSuL` declared 13 (the move scores 16), read L 0.81, was left out: the legal CINSU, which
# scores 13, was credited without the warning at 0.9928. No scan of the calibration and validation
# piles showed a tail (10,000 slips), and 42 letters after a circle were as faint.
READ_AS_WRITTEN = 0.5


@dataclass(frozen=True)
class Reading:
    """One full hypothesis of what the slip says (the judge's CASE slip form)."""

    table: int | None
    round: int | None
    position: str
    word: str
    jokers: tuple[int, ...]
    score: int | None

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "round": self.round, "position": self.position, "word": self.word,
                "jokers": list(self.jokers), "score": self.score}


@dataclass(frozen=True)
class Outcome:
    """The judge's ruling on a reading: what the arbiter would file."""

    status: str
    credited: int
    warning: str | None
    penalty: str | None
    articles: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, d: Decision) -> "Outcome":
        return cls(d.status.name.lower(), d.credited, d.warning.name if d.warning else None,
                   d.penalty.name if d.penalty else None, tuple(d.articles()))

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "credited": self.credited, "warning": self.warning,
                "penalty": self.penalty, "articles": list(self.articles)}

    def __str__(self) -> str:
        extra = "".join(f", {x.lower().replace('_', ' ')}" for x in (self.penalty, self.warning) if x)
        return f"{self.status} {self.credited}{extra}"


@dataclass(frozen=True)
class UnclearScore:
    """A declared score ruled wrong on digits the reader itself is unsure of: the move's value and
    each such digit with the reader's own probability of it."""

    value: int
    digits: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Candidate:
    """A distinct outcome for the slip, the most likely reading that gives it, its posterior, and
    the boxes where that reading differs from the most likely one."""

    reading: Reading
    probability: float
    outcome: Outcome
    round_state: str  # ok | missing | other
    boxes: tuple[tuple[str, int], ...] = ()

    @property
    def table_ok(self) -> bool:
        return self.reading.table is not None

    def to_json(self) -> dict[str, Any]:
        return {"reading": self.reading.to_json(), "probability": round(self.probability, 6),
                "outcome": self.outcome.to_json(), "boxes": [{"field": f, "index": i} for f, i in self.boxes]}


@dataclass(frozen=True)
class _Posterior:
    """The separate posteriors a verdict combines: table, round state, and the move's ruling
    (given whether the round number was written)."""

    ink: SlipInk
    tables: dict[int | None, float]
    rounds: dict[tuple[str, int | None], float]
    by_written: dict[bool, dict["Outcome", tuple[float, MovePart]]]
    ink_alone: tuple[str, "Outcome"] | None = None  # round state and ruling of the ink's best reading
    reader_alone: tuple[str, "Outcome"] | None = None  # the same on the reader's own, unmixed reading


# How a decided slip's note on the tables it may have swapped numbers with begins and ends
# (`Verdict.twin_note`).
TWIN_NOTE = "may have swapped table numbers with the slip of table "
TWIN_TAIL = ", which says the same"
# How a decided slip's note on the tables its letters' looks told it from begins and ends
# (`Verdict.looks_note`).
LOOKS_NOTE = "told by its letters from table "
LOOKS_TAIL = ", whose number its table box may carry"
# How a decided slip's note on the boxes read in its player's hand begins (`Verdict.hand_note`).
HAND_NOTE = "read in the player's hand: "


@dataclass(frozen=True)
class Verdict:
    """Decided (file the best reading as sure) or not (review, with the candidates)."""

    decided: bool
    best: Candidate
    candidates: tuple[Candidate, ...]
    doubt: str = ""
    posterior: _Posterior | None = field(default=None, repr=False, compare=False)
    agrees: bool = True  # the ruling equals the ruling on the ink's own best reading
    ruled_out: tuple[tuple[str, int], ...] = ()  # boxes whose ink rules out what the best reading needs there
    held: str = ""  # why the slip goes to review however sure it is (a calibration sees what is decidable)
    in_hand: tuple[tuple[str, int, str, str], ...] = ()  # boxes read as only the player's hand lets them be read
    # tables whose slips may carry this slip's table number and it theirs, all saying the same
    # (`pile.hold_swappable`): either way each table is filed alike
    twins: tuple[int, ...] = ()
    # tables this slip's table box may name, told from its own by how its letters look beside each
    # player's settled letters (`writers.py`): a slip that may carry another's table number and it
    # this one's (`pile.hold_swappable`), or a slip in doubt between tables (`told_by_letters`)
    told_apart: tuple[int, ...] = ()

    def hand_note(self) -> str:
        """The boxes the ruling reads in the player's hand, as the audit keeps them ("read in the
        player's hand: R read K (word, box 3)"); empty when it needs none. An arbiter answering an
        appeal sees why the program filed what the reader alone did not read."""
        if not self.in_hand:
            return ""
        return HAND_NOTE + "; ".join(
            f"{needed} read {seen} ({name}, box {i + 1})" for name, i, needed, seen in self.in_hand)

    def twin_note(self) -> str:
        """For the audit: the tables this slip may have swapped numbers with, all saying the same
        ("may have swapped table numbers with table 29's slip, which says the same"); empty when none."""
        if not self.twins:
            return ""
        return TWIN_NOTE + ", ".join(str(t) for t in self.twins) + TWIN_TAIL

    def looks_note(self) -> str:
        """For the audit: the tables this slip's letters told it from ("told by its letters from
        table 29, whose number its table box may carry"); empty when none."""
        if not self.told_apart:
            return ""
        return LOOKS_NOTE + ", ".join(str(t) for t in self.told_apart) + LOOKS_TAIL

    def audit_note(self) -> str:
        """What the audit keeps of a decided slip beyond its reading: the boxes read in the
        player's hand, the tables it may have swapped numbers with, and those its letters told it
        apart from."""
        return "; ".join(note for note in (self.hand_note(), self.twin_note(), self.looks_note()) if note)

    @property
    def probability(self) -> float:
        return self.best.probability

    def candidates_json(self) -> list[dict[str, Any]]:
        """Most likely first, then the others by points at stake (credited points that change)."""
        return [c.to_json() for c in self.candidates]


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    return top if top == -math.inf else top + math.log(sum(math.exp(v - top) for v in values))


def _add(table: dict, key: Any, weight: float) -> None:
    old = table.get(key)
    table[key] = weight if old is None else _logsumexp([old, weight])


def _inverted(position: str) -> str:
    return position[1:] + position[0] if position[0].isalpha() else position[-1] + position[:-1]


def _one_sign(position: str) -> list[str]:
    """Keep the direction and one sign, change the other (RULES.md §3 step 3)."""
    letter_first = position[0].isalpha()
    row, col = (position[0], position[1:]) if letter_first else (position[-1], position[:-1])
    out = [(r, col) for r in ROWS if r != row] + [(row, str(c)) for c in range(1, 16) if str(c) != col]
    return [f"{r}{c}" if letter_first else f"{c}{r}" for r, c in out]


class _Marks:
    """The joker marks of the word field, for fast scoring of many joker sets."""

    def __init__(self, mark: np.ndarray):
        self.gain = np.log(mark) - np.log1p(-mark)
        self.base = float(np.log1p(-mark).sum())
        self.n = len(mark)

    def __call__(self, jokers: tuple[int, ...]) -> float:
        return self.base + sum(float(self.gain[j]) if j < self.n else -9.21 for j in jokers)


class _WordLikelihood:
    """log P(word ink | a legal move's word, its joker set), for every legal move at once. A box
    whose mark was found is read as left by a reading that takes the mark for a joker mark, and as
    written by one that does not (`FieldInk.unmarked`); `bound` is the best of either, per move."""

    def __init__(self, ink: FieldInk, words: list[str], classes: str):
        self.ink, self.words, self.classes = ink, words, classes
        self.marked = set(ink.written)  # boxes whose mark was found and kept
        self.left = words_loglik(ink, words, classes)
        self.written = words_loglik(ink.unmarked(()), words, classes) if ink.written else self.left
        self.bound = np.maximum(self.left, self.written)

    def __call__(self, i: int, jokers: tuple[int, ...], prior: float = 0.0) -> float:
        kept = self.marked - set(jokers)  # marked boxes this reading takes for no joker
        if not kept:
            return float(self.left[i]) + prior
        if kept == self.marked:
            return float(self.written[i]) + prior
        return string_loglik(self.ink.unmarked(jokers), self.words[i], self.classes) + prior


class SlipDecoder:
    """Decodes the slips of one round; holds the per-round work (legal moves, their priors)."""

    def __init__(self, knowledge: RoundKnowledge, priors: Priors | None = None,
                 confusion: ReaderConfusion | None | bool = True, mark_scores: MarkScores | None | bool = True,
                 hands: Hands | None = None):
        """`confusion`: the reader's calibrated confusions (True: `confusion.json` when present);
        `mark_scores`: the mark detector's calibrated scores (True: `marks.json` when present);
        `hands`: the players' hands, learnt from their settled slips of earlier rounds (`hands.py`)."""
        self.k = knowledge
        self.hands = hands
        self.p = priors or load_priors()
        self.confusion = load_confusion() if confusion is True else confusion or None
        self.mark_scores = load_mark_scores() if mark_scores is True else mark_scores or None
        self.move_prior = knowledge.move_logprior(self.p.other_move) + math.log(self.p.legal)
        self._decisions: dict[MovePart, Decision] = {}
        group = knowledge.ctx.group.drawn
        self._letters = {t.letter for _, _, t in knowledge.ctx.board.tiles()} | {ch for ch in group if ch != "?"}
        self._jokers = sum(1 for ch in group if ch == "?")
        self._spelling = spelling.for_lexicon(knowledge.ctx.lexicon, self.p.rare_pair)

    def _outside(self, word: str, jokers: tuple[int, ...] = ()) -> float:
        """log prior of the letters a free word needs that neither the group nor the board has
        (beyond the group's jokers): a player cannot lay a tile they do not hold (RULES.md §3.4, D 6.1:
        letters outside the group make the move incorrect). A letter marked as a joker is laid with
        a blank, and a blank marked on one letter is not there for another."""
        missing = sum(1 for i, ch in enumerate(word) if i not in jokers and ch not in self._letters)
        spare = max(0, self._jokers - len(jokers))
        return math.log(self.p.outside_letter) * max(0, missing - spare)

    def _spelled(self, word: str) -> float:
        """log prior of the letter pairs of a free word that its word list almost never has
        (`spelling.py`): the reader's slip on a hand, not a player's word."""
        return self._spelling.cost(word) if self._spelling is not None else 0.0

    # -- the move part: position, word, jokers, declared score ---------------------------------
    def _score_options(self, ink: SlipInk, right: int | None) -> list[tuple[int | None, float]]:
        """Declared-score hypotheses: the move's own score (most of the time), any number, or none.
        With `right` None (a free reading) only the ink counts here; `_score_prior` adds the
        prior once the ruling says what the move scores."""
        f, cl, p = ink.fields["score"], ink.classes, self.p
        out: list[tuple[int | None, float]] = []
        free = right is None
        if not free:
            out.append((right, p.log("score", "right") + number_loglik(f, right, cl)))
        for value, ll in number_kbest(f, cl, p.kbest["number"]):
            if value is not None and value != right:
                out.append((value, (0.0 if free else self._wrong_score(value, right)) + ll))
        out.append((None, (0.0 if free else p.log("score", "missing")) + number_loglik(f, None, cl)))
        return out

    @staticmethod
    def _without_faint(ink, words: list[tuple[str, float]], classes: str) -> list[tuple[str, float]]:
        """The best free words with one faint box left out (a stray stroke, not a letter)."""
        if ink.blank is None:
            return []
        out = []
        for i in np.flatnonzero(ink.blank > 1e-3):
            text = words[0][0][:i] + words[0][0][i + 1:]
            out.append((text, string_loglik(ink, text, classes)))
        return out

    def _score_prior(self, declared: int | None, d: Decision) -> float:
        """The declared score's prior for a free reading, given the ruling on it (D 6.2.d)."""
        p = self.p
        if declared is None:
            return p.log("score", "missing")
        if not d.legal:  # the player declares what the written move would make, if it lies on the board
            if d.geometric_score is not None and declared == d.geometric_score:
                return p.log("score", "right")
            return math.log(1 - p.score["missing"]) - math.log(p.score["spread"])
        if declared == d.score:
            return p.log("score", "right")
        return self._wrong_score(declared, d.score)

    def _wrong_score(self, declared: int, score: int) -> float:
        """log prior of a declared score that is not the move's (warning D 6.2.d, RULES.md §3 d): a
        player miscounts a letter, a premium by a few points, so a score `near` the move's weighs `wrong` / `spread` and one
        farther off `far` times that: 71 declared is far likelier a miscounted 74 than a 23. (A
        forgotten bonus is far too, but then no move near the declared score fits the ink either.)"""
        s = self.p.score
        far = math.log(s.get("far", 1.0)) if abs(declared - score) > s.get("near", math.inf) else 0.0
        return self.p.log("score", "wrong") - math.log(s["spread"]) + far

    def _move_parts(self, ink: SlipInk) -> tuple[dict[MovePart, float], dict[MovePart, float]]:
        """(legal-move hypotheses, free readings), each written move part with its log weight."""
        p, cl = self.p, ink.classes
        word_ink, pos_ink = ink.fields["word"], ink.fields["position"]
        pos_ll = position_logliks(pos_ink, cl)
        marks = _Marks(word_ink.mark)
        free_parts = self._free_parts(ink, pos_ll, marks)
        floor = max(free_parts.values()) - p.prune if free_parts else -math.inf
        # the legal moves of the round and their near-misses (RULES.md §3)
        legal_parts: dict[MovePart, float] = {}
        if self.k.moves:
            words = _WordLikelihood(word_ink, list(self.k.words), cl)
            wl_all = words.bound + self.move_prior
            # an upper bound per move: its own position written cleanly, or the best near-miss
            w = p.written
            near = max(pos_ll.values()) + math.log(max(w["inverted"], w["one_sign"] / 28))
            own = np.array([pos_ll.get(m.position, -50.0) for m in self.k.moves]) + math.log(w["clean"])
            best_mark = marks(()) + float(np.maximum(marks.gain, 0).sum())
            bound = wl_all + np.maximum(own, near) + best_mark
            scores: dict[int, list] = {}
            for i in np.argsort(-bound)[:p.max_moves]:
                if bound[i] < floor:
                    break
                m = self.k.moves[i]
                if m.score not in scores:
                    scores[m.score] = self._score_options(ink, m.score)
                wl = functools.partial(words, int(i), prior=float(self.move_prior[i]))
                self._expand(m, wl, pos_ll, marks, scores[m.score], floor, legal_parts)
        return legal_parts, free_parts

    def _free_parts(self, ink: SlipInk, pos_ll: dict[str, float] | None = None,
                    marks: "_Marks | None" = None) -> dict[MovePart, float]:
        """The free readings of the move: any string the grammar allows, with its log weight
        (`pos_ll` and `marks` when the caller has them already for this ink)."""
        p, cl = self.p, ink.classes
        word_ink, pos_ink = ink.fields["word"], ink.fields["position"]
        pos_ll = position_logliks(pos_ink, cl) if pos_ll is None else pos_ll
        marks = _Marks(word_ink.mark) if marks is None else marks
        free_parts: dict[MovePart, float] = {}
        # the free reading: the k best strings of each field, any string the grammar allows
        positions = sorted(pos_ll.items(), key=lambda kv: -kv[1])[:p.kbest["position"]]
        if pos_ink.boxes == 0:  # a blank position: no sign written (D 6.1.d)
            positions.insert(0, ("", 0.0))
        decided = tuple(i for i, m in enumerate(word_ink.mark) if m >= 0.5)
        joker_sets = [decided]
        if len(word_ink.mark):
            doubt = int(np.argmin(np.abs(word_ink.mark - 0.5)))
            joker_sets.append(tuple(sorted(set(decided) ^ {doubt})))
        free, alt = math.log(p.free), math.log(p.free_alternative)

        def away(options: list[tuple[Any, float]]) -> list[tuple[Any, float]]:
            """A free string pays `free_alternative` per box where it leaves the best reading."""
            best = str(options[0][0] or "")
            return [(text, ll + alt * sum(a != b for a, b in zip(str(text or ""), best))) for text, ll in options]

        scores = [(v, ll) for v, ll in away(self._score_options(ink, None)[:-1] or [(None, 0.0)])]
        scores.append(self._score_options(ink, None)[-1])
        for n, jokers in enumerate(joker_sets):
            seen = word_ink.unmarked(jokers)  # boxes this reading takes no mark on, read as written
            words = kbest(seen, [LETTERS], cl, p.kbest["word"])
            words = away(words + self._without_faint(seen, words, cl))
            for pos, pl in away(positions):
                for word, wl in words:
                    base = free + pl + wl + marks(jokers) + alt * n + self._outside(word, jokers) + self._spelled(word)
                    for score, sl in scores:
                        _add(free_parts, (pos, word, jokers, score), base + sl)
        return free_parts

    def _expand(self, m, wl: Callable[[tuple[int, ...]], float], pos_ll: dict[str, float], marks: _Marks,
                scores: list, floor: float, parts: dict[MovePart, float]) -> None:
        """A legal move written cleanly and with each near-miss of RULES.md §3."""
        w = self.p.written
        options = [(m.position, m.jokers, w["clean"]), (_inverted(m.position), m.jokers, w["inverted"])]
        options += [(alt, m.jokers, w["one_sign"] / 28) for alt in _one_sign(m.position)]
        if m.jokers:
            options.append((m.position, (), w["unmarked_joker"]))
        extra = [j for j in range(len(m.word)) if j not in m.jokers]
        options += [(m.position, tuple(sorted(m.jokers + (j,))), w["marked_not_joker"] / len(extra)) for j in extra]
        top_score = max(sl for _, sl in scores)
        for pos, jokers, prior in options:
            base = wl(jokers) + math.log(prior) + pos_ll.get(pos, -50.0) + marks(jokers)
            if base + top_score < floor:
                continue
            for score, sl in scores:
                if base + sl >= floor:
                    _add(parts, (pos, m.word, jokers, score), base + sl)

    def _decision(self, part: MovePart) -> Decision:
        found = self._decisions.get(part)
        if found is None:
            pos, word, jokers, score = part
            found = decide_move(WrittenMove(pos, word, jokers, score), self.k.ctx)
            self._decisions[part] = found
        return found

    def rule(self, reading: Reading) -> Outcome:
        """The judge's ruling on a slip whose content is known (a benchmark's or the demo's truth)."""
        wm = WrittenMove(reading.position, reading.word, tuple(reading.jokers), reading.score)
        slip = Slip(reading.table or 0, self.k.round, (wm,), table_written=reading.table is not None,
                    round_written=reading.round is not None)
        return Outcome.of(apply_warnings(decide_move(wm, self.k.ctx), slip, wm, self.k.ctx))

    # -- table and round ----------------------------------------------------------------------
    def _tables(self, ink: SlipInk) -> dict[int | None, float]:
        """Posterior weight of each table the slip may belong to (None: unseated or unreadable)."""
        if "table" in ink.qr:
            t = ink.qr["table"]
            return {t if t in self.k.tables else None: 0.0}
        f, cl, p = ink.fields["table"], ink.classes, self.p
        out: dict[int | None, float] = {}
        seated = p.log("table", "seated") - math.log(max(1, len(self.k.tables)))
        for t in self.k.tables:
            _add(out, t, seated + number_loglik(f, t, cl))
        for value, ll in number_kbest(f, cl, self.p.kbest["number"]):
            if value is not None and value not in self.k.tables:
                _add(out, None, p.log("table", "unseated") - math.log(p.table["spread"]) + ll)
        _add(out, None, p.log("table", "missing") + number_loglik(f, None, cl))
        return out

    def _rounds(self, ink: SlipInk, elsewhere: float = 0.0) -> dict[tuple[str, int | None], float]:
        """Weight of (state, number): ok (this round), missing, or other (another round's slip).

        `elsewhere`: the log odds of the slip's move as another round's slip would hold it, against
        this round's (`round.other_legal`): another round's move is seldom a legal move of this one
        (a previous round's top lies on the board now), so a slip whose move and score this round's
        moves explain is this round's, whatever its round box leaves open. Measured on the round
        benchmark's games (seeds 44, 48 and 45, 40 rounds each): 1.3 %, 2.5 % and 0.5 % of a previous
        round's moves, as its slips hold them, are legal moves of the next round, none of its tops."""
        r = self.k.round
        if "round" in ink.qr:
            return {("ok", r) if ink.qr["round"] == r else ("other", ink.qr["round"]): 0.0}
        f, cl, p = ink.fields["round"], ink.classes, self.p
        out = {("ok", r): p.log("round", "batch") + number_loglik(f, r, cl),
               ("missing", None): p.log("round", "missing") + number_loglik(f, None, cl)}
        for value, ll in number_kbest(f, cl, p.kbest["number"]):
            if self._other_round(value):
                _add(out, ("other", value), p.log("round", "other") - math.log(r) + ll + elsewhere)
            elif self._miswritten_round(value):
                _add(out, ("ok", r), p.log("round", "other") - math.log(p.round["spread"]) + ll)
        return out

    def _other_round(self, value: int | None) -> bool:
        """Whether a round number written on the slip names another round of the game, one played
        before this one or the next: only then may the slip belong to another round's pile."""
        r = self.k.round
        return value is not None and value != r and 1 <= value <= r + 1

    def _miswritten_round(self, value: int | None) -> bool:
        """Whether a round number written on the slip is one no round of the game has (a 14 read
        74): the slip is this round's, its number miswritten, and the ink's reading of it vetoes nothing."""
        return value is not None and value != self.k.round and not self._other_round(value)

    def round_state(self, value: int | None) -> str:
        """The round state of a slip whose round box says `value` (RULES.md §2, D 6.2.b): missing,
        another round's, or this round's (its number, or one no round of the game has)."""
        return "missing" if value is None else "other" if self._other_round(value) else "ok"

    # -- decide --------------------------------------------------------------------------------
    def decode(self, record: Mapping[str, Any] | SlipInk, seated: int | None = None) -> Verdict:
        """The slip against the round. `seated`: the table the whole pile seats it at surely
        (`pile.decode_round`), whose player's hand it is read in whatever its own table box says."""
        p = self.p
        ink = record if isinstance(record, SlipInk) else slip_ink(record, p.mark["decided"], p.mark["undecided"],
                                                                  self.confusion, p.mark.get("doubt", 0.0),
                                                                  self.mark_scores)
        tables = _normalise(self._tables(ink))  # the hand changes no table box
        hand = self._hand_table(tables) if seated is None else seated
        ink = ink if hand is None or not self.hands else self.hands.apply(ink, hand)
        legal, free = self._move_parts(ink)
        right = p.log("score", "right")
        bound = dict(legal)
        for part, weight in free.items():
            _add(bound, part, weight + right)
        top = max(bound.values())
        keep = sorted((kv for kv in bound.items() if kv[1] >= top - p.prune), key=lambda kv: -kv[1])
        ranked = []
        elsewhere = []  # the same parts as another round's slip would hold them (`_rounds`)
        coincide = p.log("round", "other_legal") if "other_legal" in p.round else 0.0
        for part, _ in keep[:p.max_hypotheses]:
            as_legal = [legal[part]] if part in legal else []
            as_free = [free[part] + self._score_prior(part[3], self._decision(part))] if part in free else []
            ranked.append((part, _logsumexp(as_legal + as_free)))
            elsewhere.append(_logsumexp([w + coincide for w in as_legal] + as_free))
        rounds = _normalise(self._rounds(ink, _logsumexp(elsewhere) - _logsumexp([w for _, w in ranked])))
        table_written = ink.fields["table"].boxes > 0 or "table" in ink.qr
        by_written: dict[bool, dict[Outcome, tuple[float, MovePart]]] = {}
        for written in {state != "missing" for state, _ in rounds}:
            slip = Slip(0, self.k.round, (), table_written=table_written, round_written=written)
            outcomes: dict[Outcome, list] = {}
            for part, weight in ranked:
                wm = WrittenMove(*part)
                outcome = Outcome.of(apply_warnings(self._decision(part), slip, wm, self.k.ctx))
                entry = outcomes.setdefault(outcome, [[], part])
                entry[0].append(weight)
            total = _logsumexp([w for ws, _ in outcomes.values() for w in ws])
            by_written[written] = {o: (math.exp(_logsumexp(ws) - total), part) for o, (ws, part) in outcomes.items()}
        own = self._free_parts(ink.as_reader_reads())  # without the confusions' pull
        return self._combine(_Posterior(ink, tables, rounds, by_written, self._ink_alone(ink, free, table_written),
                                        self._ink_alone(ink, own, table_written)))

    def _hand_table(self, tables: Mapping[int | None, float]) -> int | None:
        """The table whose player's hand a slip with the table posterior `tables` is read in (the
        QR's, or its ink's): its likeliest, when at least `hands.SURE_TABLE` sure and a hand is
        known; None otherwise, until the pile seats it surely (`in_seated_hand`)."""
        if not self.hands or not self.hands.by_table or not tables:
            return None
        table, share = max(tables.items(), key=lambda kv: kv[1])
        return table if table is not None and share >= SURE_TABLE else None

    def in_seated_hand(self, record: Mapping[str, Any] | SlipInk, verdict: Verdict,
                       seated: Mapping[int | None, float]) -> Verdict:
        """The slip read again in the hand of the player the whole pile seats it at (`seated`, at
        least `hands.SURE_TABLE` sure), when its own table posterior read it in no hand or in
        another one. A 7 written so that it may be a 1 (table 75 read 75 at 0.88, 15 at 0.12)
        kept that player's settled slips from lending their letters, although table 15's own slip
        said 15 for sure: the validation hands' script I read J was sent to review round after
        round (I read J 78 times on a pile of 2,000). The seating weighs the inks of the whole
        pile, which the hand does not change (it lends no table box), so where it is as sure as
        the slip's own box must be, the slip is that player's. Unchanged otherwise."""
        post = verdict.posterior
        table = self._hand_table(seated)
        if post is None or table is None or self._hand_table(post.tables) == table:
            return verdict
        if self.hands.apply(post.ink, table) is post.ink:
            return verdict  # that player's hand lends this slip nothing
        return self.decode(record, seated=table)

    def writer_log_odds(self, record: Mapping[str, Any] | SlipInk, verdict: Verdict, first: int, second: int) -> float:
        """The log of how much likelier the letters of a decided slip are in table `first`'s
        player's hand than in table `second`'s (`writers.writer_log_odds`); 0 for a slip in review
        or one whose letters cannot vouch for its writer (`_letters_vouch`)."""
        if not verdict.decided or not self._letters_vouch(record, verdict):
            return 0.0
        reading = verdict.best.reading
        return writer_log_odds(self.hands, record, reading.position, reading.word, first, second)

    def told_by_letters(self, record: Mapping[str, Any] | SlipInk, verdict: Verdict) -> Verdict:
        """A slip in review for want of certainty, its table posterior (the pile's, RULES.md §2: one
        slip per table and round) weighed by its letters: each other table it may be at by how much
        likelier its letters are in that table's player's hand than in the hand of the table it most
        likely is (`writers.letters_log_odds`). Seen on held-out seed 3546 (40 seats): table 14's
        slip read 14, and 24 at 0.02 where table 24's slip read 24, and 14 at 0.02; each stayed in
        review for its table alone, as the pile could not tell which slip was whose.

        Decided when that makes it sure at the same table; unchanged otherwise (the letters only
        settle a doubt, they never raise one). A slip whose letters cannot vouch for its writer
        (`_letters_vouch`) is unchanged, as are tables whose players' hands are not known."""
        post = verdict.posterior
        if post is None or verdict.decided or not self._letters_vouch(record, verdict):
            return verdict
        reading = verdict.best.reading
        if reading.table not in self.hands.by_table:
            return verdict
        letters = slip_letters(record, reading.position, reading.word)
        weighed, told = {}, []
        for table, p in post.tables.items():
            odds = 0.0 if table is None or table == reading.table else letters_log_odds(
                self.hands, letters, reading.table, table)
            weighed[table] = p * math.exp(-odds)
            if odds > 0 and p > 0:
                told.append(table)
        total = sum(weighed.values())
        surer = self.with_tables(verdict, {t: w / total for t, w in weighed.items()})
        if not told or not surer.decided or surer.best.reading.table != reading.table:
            return verdict
        return replace(surer, told_apart=tuple(sorted(told)))

    def _letters_vouch(self, record: Mapping[str, Any] | SlipInk, verdict: Verdict) -> bool:
        """Whether a slip's letters may say who wrote it: hands are known, the slip is not held
        whatever its certainty, its ruling leans on no hand (letters read as one player writes
        them would vouch for that player), and the record has per-box readings."""
        return bool(self.hands) and not verdict.held and not verdict.in_hand and not isinstance(record, SlipInk)

    def _ink_alone(self, ink: SlipInk, free: dict[MovePart, float], table_written: bool) -> tuple[str, Outcome] | None:
        """The ruling on the ink's own best reading of every field (no prior): the decoder may
        overrule it only with more certainty (`Priors.threshold_overrule`)."""
        if not free:
            return None
        part = max(free.items(), key=lambda kv: kv[1])[0]
        number = self._ink_round(ink)
        state = self.round_state(number)
        slip = Slip(0, self.k.round, (), table_written=table_written, round_written=number is not None)
        return state, Outcome.of(apply_warnings(self._decision(part), slip, WrittenMove(*part), self.k.ctx))

    def _ink_round(self, ink: SlipInk) -> int | None:
        """The round number as the ink alone reads it (the QR's on a pre-filled slip)."""
        return ink.qr["round"] if "round" in ink.qr else number_kbest(ink.fields["round"], ink.classes, 1)[0][0]

    def with_tables(self, verdict: Verdict, tables: dict[int | None, float]) -> Verdict:
        """The verdict with the table posterior the whole pile gives (`decode_round`)."""
        post = verdict.posterior
        return verdict if post is None else self._combine(replace(post, tables=tables))

    def seatable_tables(self, verdict: Verdict, edge: float = 1e-7) -> dict[int | None, float]:
        """The slip's own table posterior without the tables whose number its ink rules out (the
        veto of `_ruled_out`; those of at least `edge`): a slip is never decided at such a table,
        so the pile never seats it there either. A Y read where a 2 was written (Y 0.95, 2 0.02)
        left table 23's slip 13 at 0.22 by the digits' share alone; the pile seated it at 13,
        which its ink rules out, and table 13's slip, read 23, was decided for 23. No table left:
        the slip has none it can be decided at."""
        post = verdict.posterior
        if post is None:
            return {}
        ink = post.ink
        f = ink.fields["table"]
        if "table" in ink.qr or not f.boxes or float(self.p.ink.get("plausible_mass", 1.0)) >= 1.0:
            return dict(post.tables)
        allowed = _allowed(f, self.p.ink)  # once for the slip, not once for each table it may name
        kept = {t: p for t, p in post.tables.items() if t is None or p < edge
                or not _field_veto("table", f, _number(t, f), ink.classes, self.p.ink, allowed=allowed)}
        return kept or {None: 1.0}

    def _combine(self, post: "_Posterior") -> Verdict:
        tables, rounds, by_written, ink = post.tables, post.rounds, post.by_written, post.ink
        combos = []
        for table, pt in tables.items():
            for (state, number), pr in rounds.items():
                for outcome, (po, part) in by_written[state != "missing"].items():
                    prob = pt * pr * po
                    if prob >= 1e-6:
                        combos.append(Candidate(Reading(table, number, part[0], part[1], part[2], part[3]),
                                                prob, outcome, state))
        combos.sort(key=lambda c: -c.probability)
        return replace(self._verdict(ink, _merge(combos), post.ink_alone, post.reader_alone), posterior=post)

    def _verdict(self, ink: SlipInk, combos: list[Candidate], ink_alone: tuple[str, Outcome] | None,
                 reader_alone: tuple[str, Outcome] | None = None) -> Verdict:
        best = combos[0]
        rest = sorted(combos[1:8], key=lambda c: (-abs(c.outcome.credited - best.outcome.credited), -c.probability))
        cands = tuple([best] + [_with_boxes(c, best, ink) for c in rest])
        # a ruling that needs a letter only the player's hand lends (`hands.py`) overrules the ink
        in_hand = self._borrowed(ink, best.reading)
        agrees = _gives(ink_alone, best) and not in_hand
        sure = best.probability >= (self.p.threshold if agrees else self.p.threshold_overrule)
        ink = _as_read(ink, best.reading)
        # a ruling the reader's own reading does not give, borrowed from what its confusions make
        # likely (a 2 read L is most often a 1), needs each character's share of its box as well
        overruling = not (agrees and _gives(reader_alone, best))
        veto = self._ruled_out(ink, best.reading, overruling=overruling)
        gaps = [name for name, f in ink.fields.items() if f.gap]
        clear = self._word_clarity(ink) if best.outcome.status == "incorrect" and best.reading.word else 1.0
        elsewhere = best.reading.table is None or best.round_state == "other"  # no outcome at this round's table
        if best.reading.table is None:
            held = "table unreadable or not seated"
        elif best.round_state == "other":
            held = f"the slip says round {best.reading.round}, this is round {self.k.round}"
        elif gaps:  # the ink is incomplete: never decided on the boxes that were kept
            held = "a box left empty between the written boxes of " + ", ".join(gaps)
        elif veto:
            held = (f"{best.probability:.3f} sure of {best.outcome} ({_show(best.reading)}), but the ink rules it out: "
                    + "; ".join(_veto_text(v) for v in veto))
        elif clear < self.p.ink.get("clear_word", 0.0):
            held = f"ruled incorrect on a word read unclearly: its letters {clear:.3f} sure ({_show(best.reading)})"
        elif folds := self._position_folds(best, ink, overruling=not agrees):
            held = (("ruled incorrect" if best.outcome.status == "incorrect" else "ruled against the ink's own reading")
                    + " on a position read through a look-alike: "
                    + ", ".join(f"{seen} read {taken}" for seen, taken in folds) + f" ({_show(best.reading)})")
        elif rival := self._stroke_rival(best, ink, overruling=not agrees):
            held = (f"ruled against the ink's own reading on a position whose {rival[1]} is a stroke read "
                    f"{rival[2]}, where the reader saw {rival[0]} more than {rival[1]} ({_show(best.reading)})")
        elif near := self._near_miss(best):
            held = (f"ruled incorrect two signs from the legal {near.move.position} {near.move.word}: "
                    + ", ".join(f"{a} read {b}" for a, b in near.letters))
        elif sign := self._sign_misread(best, ink):
            held = (f"ruled incorrect at {best.reading.position}, one sign from {sign.position} where "
                    f"{best.reading.word} scores: {sign.sign[0]} read {sign.sign[1]}")
        elif gap := self._far_score(best):
            held = (f"declared {best.reading.score}, {gap} points from the move's {best.outcome.credited}: "
                    "a miscount that far is rarer than a misread")
        elif unclear := self._score_read_unclearly(best, ink):
            held = (f"score ruled wrong on digits read unclearly: declared {best.reading.score}, the move scores "
                    f"{unclear.value} (" + ", ".join(f"{ch} {p:.3f} sure" for ch, p in unclear.digits) + ")")
        else:
            held = ""
        if sure or elsewhere:
            doubt = held
        else:
            doubt = f"{best.probability:.3f} sure of {best.outcome} ({_show(best.reading)})"
            if len(cands) > 1:
                other = max(cands[1:], key=lambda c: c.probability)
                boxes = ", ".join(f"{f}[{i + 1}]" for f, i in other.boxes) or "—"
                doubt += f"; against {other.probability:.3f}: {other.outcome} ({_show(other.reading)}), boxes {boxes}"
            if not agrees:
                doubt += f"; the ink alone reads {ink_alone[1]}"
        return Verdict(not doubt, best, cands, doubt, agrees=agrees,
                       ruled_out=tuple((f, i) for f, i, _, _ in veto), held=held,
                       in_hand=tuple(self._borrowed(ink, best.reading, overruling=True) if overruling else in_hand))

    def _borrowed(self, ink: SlipInk, r: Reading, overruling: bool = False) -> list[tuple[str, int, str, str]]:
        """The boxes where reading `r` needs a class that the reader's own distribution rules out
        and the player's hand lends (`FieldInk.lent`): (field, box, class needed, classes read).
        `overruling`: a ruling the ink's own reading does not give, which the ink rule asks more of
        (`_ruled_out`): a box it lets through only by the hand is read in the hand too (a K 0.50,
        R 0.49 that looks like the player's settled Rs), so the audit names it."""
        if all(f.lent is None for f in ink.fields.values()):
            return []
        own = replace(ink, fields={name: replace(f, lent=None) for name, f in ink.fields.items()})
        return self._ruled_out(_as_read(own, r), r, overruling)

    def _near_miss(self, best: Candidate) -> NearMiss | None:
        """The legal move a zero ruling's reading is two misread signs from (`nearmiss`): the
        arbiter looks before the zero is filed."""
        r = best.reading
        if best.outcome.status != "incorrect" or not r.word:
            return None
        return two_signs_from(r.position, r.word, self.k.moves)

    def _sign_misread(self, best: Candidate, ink: SlipInk) -> SignMisread | None:
        """The square one sign from a zero ruling's where its word scores, when the reader itself
        lets the position box hold that sign (`nearmiss.one_sign_from`, priors.json `ink`): the
        arbiter looks before the zero is filed (RULES.md §3.3, D 6.3.b)."""
        r = best.reading
        f = ink.fields["position"]
        if best.outcome.status != "incorrect" or not r.word or not r.position or not f.boxes:
            return None
        if float(self.p.ink.get("plausible_mass", 1.0)) >= 1.0:
            return None  # no veto, no look: the ink lets every box hold anything

        def scores(square: str) -> bool:
            return self._decision((square, r.word, r.jokers, r.score)).status.name != "INCORRECT"

        return one_sign_from(r.position, f.ink_logp, _allowed(f, self.p.ink), ink.classes, scores)

    def _far_score(self, best: Candidate) -> int:
        """How far the declared score of a valid move ruled "score wrong" (RULES.md §3 d, D 6.2.d) is
        from the move's, when farther than `score.near`; else 0. A player miscounts by a few points;
        a declared score far from the move's is more often a misread score or a misread position
        that names another legal move (H8 VUVEI 40 read H5 VUVEI 90, 38 points at H5): the arbiter
        looks before the warning is given."""
        o, declared = best.outcome, best.reading.score
        if o.status != "valid" or o.warning != "SCORE_WRONG" or declared is None:
            return 0
        gap = abs(declared - o.credited)
        return gap if gap > self.p.score.get("near", math.inf) else 0

    def _score_read_unclearly(self, best: Candidate, ink: SlipInk) -> "UnclearScore | None":
        """The digits of a declared score ruled wrong (RULES.md §3 d, D 6.2.d) where it differs from
        the move's value, when the reader itself reads any of them less surely than
        `ink.clear_score`; else None. The warning stands on those digits alone: on hands it never
        saw, the reader takes a 2 for a 1 at 0.8-0.9 (26 read 16), and a clean slip went out
        "score wrong" at 0.86. A player's miscount is written as clearly as the rest of the slip."""
        need = float(self.p.ink.get("clear_score", 0.0))
        o, r = best.outcome, best.reading
        f = ink.fields["score"]
        if not need or o.warning != "SCORE_WRONG" or r.score is None or not f.boxes:
            return None
        value = self._decision((r.position, r.word, r.jokers, r.score)).score
        declared, move = number_text(r.score, f.boxes), number_text(value, f.boxes)
        logp = f.ink_logp  # the reader's own, unmixed with its confusions
        rows = max(alignments(f, len(declared)), key=lambda a: a[1] + sum(
            logp[i, ink.classes.find(ch)] for i, ch in zip(a[0], declared) if ch in ink.classes))[0]
        unclear = []
        for j, ch in enumerate(declared):
            k = len(move) - len(declared) + j
            if 0 <= k < len(move) and move[k] == ch:
                continue  # the digit the move's value has there too: no warning rests on it
            c = ink.classes.find(ch)
            p = float(np.exp(logp[rows[j], c])) if j < len(rows) and c >= 0 else 0.0
            if p < need:
                unclear.append((ch, p))
        return UnclearScore(value, tuple(unclear)) if unclear else None

    def _word_clarity(self, ink: SlipInk) -> float:
        """How sure the reader itself is of every letter of the word as it reads it (the product of
        each box's best class). A slip is ruled incorrect (RULES.md §3, D 6.1.a: 0 points) without
        review only on a word read clearly:
        on a hand the reader never saw, it is sure and wrong in several boxes at once (NEDIPODU read
        UEOZBOSU, CHINARUIT read CMSMARUSB), and every such string is "not a word". On the validation
        hands every such wrong ruling had its letters at most 0.54 sure; the right ones mostly 0.78 or
        more (priors.json `ink.clear_word`). A letter counts with its own mass only, not the mass of
        the digit it looks like: a J with a top bar read 5 at 0.97 is an S only by the fold."""
        f = ink.fields["word"]
        logp = f.reader_logp if f.reader_logp is not None else f.logp
        if not logp.size:
            return 1.0
        folded = 1.0  # a letter read as its digit look-alike (a J read 5, an S by the fold) is no clear letter
        if f.own_share is not None and len(f.own_share) == len(logp):
            folded = float(np.prod(np.minimum(f.own_share, 1.0)))
        return float(np.exp(logp.max(axis=1).sum())) * folded

    def _position_folds(self, best: Candidate, ink: SlipInk, overruling: bool = False) -> list[tuple[str, str]]:
        """The position boxes a zero ruling (RULES.md §3, D 6.1.a), or a ruling `overruling` the
        ink's own reading, reads as a digit only through its letter look-alike, as (the letter the
        reader saw, the digit taken): the arbiter looks before the ruling is filed. A position is
        one letter and the row's digits, so where one end box is clearly a letter the others are
        taken for digits (`evidence.box_holds`), and a B there is an 8. When the clear letter was
        itself a digit the reader took for a letter, the fold moves the square: a 6B written with
        an L-like 6 read L8, ruled incorrect at 0.998. A ruling the ink's own reading does not
        give rests on the priors where the ink is silent, and a digit made by the fold is no
        reading: a 1 the reader took for L (0.29, Z 0.09) became a 2 by the Z, and one wrong
        sign (1H ALERGIC, RULES.md §3.3) was credited as the legal 2H at 0.9944 on a calibration
        pile: the box's best digit was a 6 at 0.07, but the ruling's 2 was 0.04 of the reader's
        own and 0.13 with the Z. A credit that keeps the ink's own sign in a box (`L1 BARSENe`,
        its 1 a bare stroke read I, overruled on the joker) is not held for that box. A box counts where the reader's own mass on the ruling's digit
        (the box's best, where the boxes are not the ruling's signs) is under `ink.clear_position`
        of its mass with the letter folded in (priors.json)."""
        f = ink.fields["position"]
        need = float(self.p.ink.get("clear_position", 0.0))
        position = best.reading.position
        if ((best.outcome.status != "incorrect" and not overruling) or not position or not need
                or f.own_share is None or f.holds is None or len(f.own_share) != f.boxes):
            return []
        folds = []
        for i, share in enumerate(f.own_share):
            taken = ink.classes[int(np.argmax(np.where(f.holds[i], f.ink_logp[i], -np.inf)))]
            if f.fold_share is not None and len(position) == f.boxes and position[i] in ink.classes:
                taken = position[i]  # the ruling's own sign in that box, where the boxes are the signs
                share = float(f.fold_share[i, ink.classes.index(taken)])
                if best.outcome.status != "incorrect" and taken == ink.classes[
                        int(np.argmax(np.where(f.holds[i], f.logp[i], -np.inf)))]:
                    continue  # the ink's own reading has this sign here: it overrules elsewhere
            if share < need:
                folds.append((_LOOKALIKE_OF.get(taken, "?"), taken))
        return folds

    def _stroke_rival(self, best: Candidate, ink: SlipInk, overruling: bool = False) -> tuple[str, str, str] | None:
        """A position box of a credit `overruling` the ink's own reading whose sign the reader read
        as its stroke partner (an I read 1: `strokes`) while it saw there, more than the sign
        itself and at least `ink.stroke_rival` of the partner, the sign of another square: (that
        sign, the credit's, the partner). A bare stroke is an I by where it stands only when
        nothing else is seen in it: a J written for the legal 9I, read 1 0.36, 7 0.23, J 0.22
        in a hand whose word the player's settled slips lent an I, was credited as 9I at 0.9989
        on a validation pile (one wrong sign, RULES.md §3.3). None where no box is such."""
        f = ink.fields["position"]
        position = best.reading.position
        need = float(self.p.ink.get("stroke_rival", 0.0))
        if (not overruling or not need or best.outcome.status == "incorrect" or not position
                or len(position) != f.boxes or f.holds is None):
            return None
        own = np.exp(f.ink_logp)
        for i, sign in enumerate(position):
            k, j = ink.classes.find(sign), ink.classes.find(PARTNER.get(sign, "?"))
            if k < 0 or j < 0 or own[i, k] >= own[i, j]:
                continue  # no stroke, or the reader read the credit's own sign
            for c, rival in enumerate(ink.classes):
                square = position[:i] + rival + position[i + 1:]
                if (c not in (k, j) and f.holds[i, c] and square in SQUARES
                        and own[i, c] > own[i, k] and own[i, c] >= need * own[i, j]):
                    return rival, sign, ink.classes[j]
        return None

    def _ruled_out(self, ink: SlipInk, r: Reading, overruling: bool = False) -> list[tuple[str, int, str, str]]:
        """The boxes of a reading that need a class the ink rules out (`evidence.plausible`), as
        (field, box, needed class or "" for a written box the reading leaves out, plausible classes).
        The ink has the last word: however strongly a legal move pulls, a slip is never decided on
        a reading whose box holds, by the reader's own calibrated distribution, something else
        (a one-letter invalid word, a one-digit score change, one wrong sign: RULES.md §3).
        A reading `overruling` the ruling on the ink's own best reading needs more: each of its
        characters at least `ink.overrule_share` of the best class its box can hold (a letter in a
        score box is none). A reader lost on a box (an I read J 0.48, L 0.19, Z 0.09) leaves U at
        1 %, enough for a legal move to outvote a one-letter invalid word (OLIT credited as OLUT at
        0.9989 on the calibration hands).
        The round box rules a reading out only where the ink reads this round's number or none:
        read as another round's, it leaves the slip that round's or this one's, which the posterior
        weighs with the move's own evidence (`_rounds`); the number bears on no ruling itself (a
        wrong one is no warning, only a missing one, D 6.2.b)."""
        texts = {"position": r.position, "word": r.word, "score": _number(r.score, ink.fields["score"])}
        if "table" not in ink.qr:
            texts["table"] = _number(r.table, ink.fields["table"])
        if "round" not in ink.qr and self._ink_round(ink) in (self.k.round, None):
            texts["round"] = _number(r.round, ink.fields["round"])
        share = float(self.p.ink.get("overrule_share", 0.0)) if overruling else 0.0
        out = []
        for name, text in texts.items():
            out += _field_veto(name, ink.fields[name], text, ink.classes, self.p.ink, share)
        return out


def _as_read(ink: SlipInk, r: Reading) -> SlipInk:
    """The slip's ink as reading `r` sees it: a word box whose mark `r` takes for no joker mark is
    read as written (`FieldInk.unmarked`), for the ink's veto and the word's clarity."""
    word = ink.fields["word"]
    seen = word.unmarked(r.jokers)
    return ink if seen is word else replace(ink, fields={**ink.fields, "word": seen})


def _number(value: int | None, f: FieldInk) -> str:
    return "" if value is None else number_text(value, f.boxes)


def _field_veto(name: str, f: FieldInk, text: str, classes: str, ink: Mapping[str, float],
                share: float = 0.0, allowed: np.ndarray | None = None) -> list[tuple[str, int, str, str]]:
    """The boxes of one field where `text` needs what the ink rules out; none when some way of
    laying `text` on the written boxes (leaving out only faint ones) fits the ink everywhere.
    `allowed`: the field's `_allowed` with this `share`, when the caller asks of many texts."""
    if float(ink.get("plausible_mass", 1.0)) >= 1.0:
        return []
    if allowed is None:
        allowed = _allowed(f, ink, share) if f.boxes else np.zeros((0, len(classes)), bool)
    if name == "position" and f.boxes:  # a bare stroke is an I or a 1 by where it stands (`strokes`)
        allowed = allow_pairs(allowed, f, text, classes)
    blank = f.blank if f.blank is not None else np.zeros(f.boxes)
    best: list[tuple[str, int, str, str]] | None = None
    for rows, _ in alignments(f, len(text)) if f.boxes else [([], 0.0)]:
        bad = []
        for j, ch in enumerate(text):
            if j >= len(rows):  # a character the reading needs where no box was written
                bad.append((name, f.boxes, ch, ""))
                continue
            k = classes.find(ch)
            if k < 0 or not allowed[rows[j], k]:
                bad.append((name, rows[j], ch, _plausible_text(allowed[rows[j]], f.ink_logp[rows[j]], classes)))
        for i in sorted(set(range(f.boxes)) - set(rows)):
            # a written box the reading leaves out: never one the reader reads as a sign (`READ_AS_WRITTEN`)
            if blank[i] <= 1e-3 or float(np.exp(f.ink_logp[i].max())) >= READ_AS_WRITTEN:
                bad.append((name, i, "", _plausible_text(allowed[i], f.ink_logp[i], classes)))
        if not bad:
            return []
        if best is None or len(bad) < len(best):
            best = bad
    return best or []


def _allowed(f: FieldInk, ink: Mapping[str, float], share: float = 0.0) -> np.ndarray:
    """`[i, k]`: whether the reader's own distribution lets box i of `f` hold class k (priors.json
    `ink`: the best classes covering `plausible_mass`, any at `floor` or above), or the player's
    hand lends it (`FieldInk.lent`)."""
    mass, floor = float(ink.get("plausible_mass", 1.0)), float(ink.get("floor", 0.0))
    allowed = plausible(f.ink_logp, mass, floor, share, f.holds)
    return allowed if f.lent is None else allowed | f.lent


def _plausible_text(allowed: np.ndarray, logp: np.ndarray, classes: str) -> str:
    ks = sorted(np.flatnonzero(allowed), key=lambda k: -logp[k])
    return ", ".join(classes[k] for k in ks)


def _veto_text(v: tuple[str, int, str, str]) -> str:
    name, i, needed, seen = v
    if not needed:
        return f"{name}[{i + 1}] is written ({seen}) but the reading leaves it out"
    if not seen:
        return f"{name}[{i + 1}] would need {needed} where nothing is written"
    return f"{name}[{i + 1}] reads {seen}, not {needed}"


def _gives(alone: tuple[str, Outcome] | None, best: Candidate) -> bool:
    """Whether a reading of the ink alone (None: nothing read) gives the best candidate's ruling."""
    return alone is None or alone == (best.round_state, best.outcome)


def _merge(combos: list[Candidate]) -> list[Candidate]:
    """One candidate per distinct outcome (table, round, ruling), its probability summed."""
    out: dict[tuple, Candidate] = {}
    for c in combos:
        key = (c.reading.table, c.round_state, c.reading.round if c.round_state == "other" else None, c.outcome)
        if key in out:
            old = out[key]
            out[key] = Candidate(old.reading, old.probability + c.probability, old.outcome, old.round_state)
        else:
            out[key] = c
    return sorted(out.values(), key=lambda c: -c.probability)


def _normalise(weights: dict) -> dict:
    total = _logsumexp(list(weights.values()))
    return {k: math.exp(v - total) for k, v in weights.items() if v - total > -16}


def _show(r: Reading) -> str:
    marked = "".join(ch.lower() if i in r.jokers else ch for i, ch in enumerate(r.word))
    return f"table {r.table}, {r.position} {marked}, declared {r.score}"


def _diff(field_name: str, a: str, b: str) -> list[tuple[str, int]]:
    return [(field_name, i) for i in range(max(len(a), len(b))) if a[i:i + 1] != b[i:i + 1]]


def _with_boxes(c: Candidate, best: Candidate, ink: SlipInk) -> Candidate:
    """The boxes whose reading separates `c` from the most likely candidate."""
    a, b = c.reading, best.reading
    f = ink.fields
    boxes = _diff("position", a.position, b.position) + _diff("word", a.word, b.word)
    boxes += [("word", j) for j in sorted(set(a.jokers) ^ set(b.jokers)) if ("word", j) not in boxes]
    for name, x, y in (("score", a.score, b.score), ("table", a.table, b.table), ("round", a.round, b.round)):
        n = f[name].boxes
        boxes += _diff(name, "" if x is None else number_text(x, n), "" if y is None else number_text(y, n))
    return Candidate(c.reading, c.probability, c.outcome, c.round_state, tuple(boxes))

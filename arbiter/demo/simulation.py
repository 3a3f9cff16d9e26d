"""What the players of a simulated game write on their slips: the demo's ground truth.

Each player has a strength (how often they find a top); the others play some lesser legal move
the move generator finds. A seeded share of slips carries one of the mistakes the correction
must handle (RULES.md §3–4), so the demo exercises every branch an arbiter meets in a real room:
a wrong declared score (D 6.2.d), inverted signs (D 6.3.a), one wrong sign (D 6.3.b), an
unmarked joker (D 6.2.c), a word not in the list (D 6.1), a missing round number (D 6.2.b) and
a missing slip (scores 0, §4). Everything follows from the generator passed in, so the same seed
gives the same slips."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from corrector.words.lexicon import Lexicon
from corrector.words.movegen import Play

MISTAKES = ("wrong_score", "inverted_signs", "one_wrong_sign", "unmarked_joker", "not_a_word",
            "missing_round", "missing_slip")
ROWS = "ABCDEFGHIJKLMNO"


@dataclass(frozen=True)
class SlipTruth:
    """One slip as the player wrote it (what the renderer draws and the scanner should read back).
    `word` is written in capitals; `jokers` are the 0-based letters marked as jokers."""

    table: int
    round: int | None
    score: int
    position: str
    word: str
    jokers: tuple[int, ...]
    intended: str  # the move the player meant, `POS word` with jokers lowercase
    mistake: str | None = None

    def content(self) -> dict[str, Any]:
        """The slip in the judge's CASE form, as `arbiter.slips.readings.SlipReading.content` gives it."""
        return {"table": self.table, "round": self.round, "score": self.score, "position": self.position,
                "word": self.word, "jokers": list(self.jokers)}


@dataclass(frozen=True)
class RoundSlips:
    """Every player's slip of one round (`missing`: tables that handed in none)."""

    round: int
    slips: tuple[SlipTruth, ...]
    missing: tuple[int, ...] = field(default=())


def player_strength(table: int, tables: int) -> float:
    """Chance of finding a top: from 0.8 at the first table down to 0.25 at the last, so the ranking
    spreads out the way a real room's does."""
    return 0.8 - 0.55 * (table - 1) / max(1, tables - 1)


def _pick_move(tops: Sequence[Play], moves: Sequence[Play], strength: float, rng: random.Random) -> Play:
    if tops and rng.random() < strength:
        return tops[rng.randrange(len(tops))]
    lesser = [m for m in moves[:60] if not tops or m.score < tops[0].score] or list(moves)
    return lesser[min(len(lesser) - 1, int(rng.expovariate(1 / 6)))]


def _invert(position: str) -> str:
    """`H4` → `4H`: the two signs swapped (RULES.md §3 step 2)."""
    return position[1:] + position[0] if position[0].isalpha() else position[-1] + position[:-1]


def _one_sign_wrong(position: str, rng: random.Random) -> str:
    """Keep the direction and one coordinate, move the number by one (RULES.md §3 step 3)."""
    letter_first = position[0].isalpha()
    letter, number = (position[0], int(position[1:])) if letter_first else (position[-1], int(position[:-1]))
    number = number + 1 if number < 15 and (number == 1 or rng.random() < 0.5) else number - 1
    return f"{letter}{number}" if letter_first else f"{number}{letter}"


def _misspell(word: str, lexicon: Lexicon, rng: random.Random) -> str | None:
    """The word with one letter changed so that it is no longer in the list (D 6.1)."""
    for _ in range(30):
        i = rng.randrange(len(word))
        wrong = word[:i] + rng.choice("AEIOUNRST") + word[i + 1:]
        if wrong != word and wrong not in lexicon:
            return wrong
    return None


def write_slip(table: int, round_no: int, play: Play, mistake: str | None, lexicon: Lexicon,
               rng: random.Random) -> SlipTruth:
    """The slip for `play`, with `mistake` made when the move allows it (else written cleanly)."""
    position, word = play.move.position.frs(), play.move.word
    jokers = tuple(i for i, ch in enumerate(word) if ch.islower())
    written: dict[str, Any] = {"round": round_no, "score": play.score, "position": position,
                               "word": word.upper(), "jokers": jokers}
    if mistake == "wrong_score":
        written["score"] = max(0, play.score + rng.choice((-10, -3, -2, 2, 3, 9, 10)))
    elif mistake == "inverted_signs":
        written["position"] = _invert(position)
    elif mistake == "one_wrong_sign":
        written["position"] = _one_sign_wrong(position, rng)
    elif mistake == "unmarked_joker" and jokers:
        written["jokers"] = ()
    elif mistake == "not_a_word" and (wrong := _misspell(word.upper(), lexicon, rng)) is not None:
        written["word"] = wrong
    elif mistake == "missing_round":
        written["round"] = None
    else:
        mistake = None  # this move cannot carry that mistake: the player wrote it cleanly
    return SlipTruth(table, written["round"], written["score"], written["position"], written["word"],
                     tuple(written["jokers"]), f"{position} {word}", mistake)


class MistakeDeck:
    """The mistakes to make, dealt like cards from a shuffled deck of every kind, so a short game
    still meets each of them; a card the move cannot carry (no joker to leave unmarked) stays in
    the deck for a later slip."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cards: list[str] = []

    def deal(self, play: Play) -> str:
        possible = [c for c in self.cards if c != "unmarked_joker" or any(ch.islower() for ch in play.word)]
        if not possible:
            fresh = list(MISTAKES)
            self.rng.shuffle(fresh)
            self.cards = fresh + self.cards  # the cards still waiting are dealt first
            return self.deal(play)
        card = possible[-1]
        self.cards.reverse()
        self.cards.remove(card)  # the last copy: the deck is dealt from its end
        self.cards.reverse()
        return card


DIFFICULTY = (0.15, 0.5, 1.0)  # a hard round, where one player alone finds the top (a solo, D 5.3.8)


def simulate_round(round_no: int, tables: Sequence[int], tops: Sequence[Play], moves: Sequence[Play],
                   lexicon: Lexicon, rng: random.Random, deck: MistakeDeck, mistake_rate: float = 0.3) -> RoundSlips:
    """Every player's slip for one round. `tops` and `moves` come from the move generator on the
    board before the round (best first)."""
    slips, missing = [], []
    difficulty = rng.choice(DIFFICULTY)
    for table in tables:
        play = _pick_move(tops, moves, difficulty * player_strength(table, len(tables)), rng)
        mistake = deck.deal(play) if rng.random() < mistake_rate else None
        if mistake == "missing_slip":
            missing.append(table)
            continue
        slips.append(write_slip(table, round_no, play, mistake, lexicon, rng))
    return RoundSlips(round_no, tuple(slips), tuple(missing))

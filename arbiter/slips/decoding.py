"""`round scan` reads each slip against the stored round (issue 15): the decoder of
`corrector.decoding` gets the round's board (every earlier continuation), its group, the game's
word list and the seating, and weighs every legal move, the RULES.md §3 near-misses and the free
readings against the reader's per-box probabilities. A decided slip is filed as sure, with the
reading that gives the most likely ruling; any other goes to review with the reason and the
competing readings (`review_item.candidates`). Each slip is read in its player's hand, as the
game's settled slips of earlier rounds show it (`arbiter.slips.hands`).

Only classic duplicate games are decoded: in the other variants a player may take letters from
the stock or write two moves, which the round's move list does not cover; their slips are filed
as read, the fields below the threshold going to review as before."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select

from corrector.decoding import Reading, RoundKnowledge, SlipDecoder, Verdict, decode_round
from corrector.judging.decision import RoundContext
from corrector.judging.group import build_group
from corrector.rulepack import load_pack

from ..store.games import board_before, get_game, get_round, lexicon_of, players
from ..store.models import Slip
from ..store.store import Store
from ..words.reasons import ASKED
from .hands import settled_hands
from .readings import SlipReading

DECODED_VARIANTS = ("classic",)
CONTENDER = 0.01  # a candidate this likely makes the fields it differs in unsure


def round_decoder(store: Store, game_id: int, number: int) -> SlipDecoder | None:
    """The decoder for one round of a stored game; None when the game is not decoded."""
    with store.session() as s:
        game = get_game(s, game_id)
        if game.kind != "duplicate" or game.variant not in DECODED_VARIANTS:
            return None
        rnd = get_round(s, game, number)
        pack = load_pack(game.rules)
        board = board_before(s, game, rnd.number, pack)
        group = build_group(game.variant, pack, board, pack.tiles.parse_rack(rnd.rack))
        ctx = RoundContext(pack, board, group, lexicon_of(game, pack), youth=game.category == "youth")
        tables = [p.table_no for p in players(s, game)]
        number = rnd.number
    return SlipDecoder(RoundKnowledge.build(ctx, number, tables), hands=settled_hands(store, game_id, number))


def _values(best: Reading) -> dict[str, Any]:
    values = {"table": best.table, "round": best.round, "score": best.score, "position": best.position,
              "word": best.word}
    return {k: v for k, v in values.items() if v is not None}


def decoded(reading: SlipReading, verdict: Verdict) -> SlipReading:
    """The reading as the decoder settles it: sure when decided, else held with its candidates."""
    best = verdict.best.reading
    values = _values(best)
    if verdict.decided:
        return replace(reading, values=values, jokers=best.jokers, unsure=(), confidence=verdict.probability,
                       in_hand=verdict.audit_note())
    deciding = dict.fromkeys(name for c in verdict.candidates if c.probability >= CONTENDER for name, _ in c.boxes)
    deciding.update(dict.fromkeys(name for name, _ in verdict.ruled_out))  # the ink rules the best reading out there
    if best.table is None:
        deciding["table"] = None
    deciding.update(dict.fromkeys(reading.unsure))  # and every field read under the threshold
    unsure = ("decoder",) + tuple(deciding)  # a doubtful table is not filed under a guess
    if best.table is None and reading.table is not None:
        values["table"] = reading.table
    return replace(reading, values=values, jokers=best.jokers, unsure=unsure, confidence=verdict.probability,
                   doubt=verdict.doubt, candidates=verdict.candidates_json())


def has_boxes(reading: SlipReading) -> bool:
    """Whether the record carries per-box readings (the scanner's `chars`): a value typed in by
    hand, or a record without boxes, is filed as read, its unsure fields reviewed as before."""
    fields = {str(k).lower(): v for k, v in (reading.raw.get("fields") or {}).items()}
    word = fields.get("depunere", fields.get("word"))
    return isinstance(word, dict) and bool(word.get("chars"))


def held_to(verdict: Verdict, at_least: float | None) -> Verdict:
    """The verdict with the confidence the arbiter asked for (`round scan --threshold`): a slip the
    decoder would decide less surely than that goes to review, its doubt saying so; as it was
    without one. An explicit threshold rules every field of the pile, so it rules the decoder too."""
    if at_least is None or not verdict.decided or verdict.probability >= at_least:
        return verdict
    why = f"{verdict.probability:.3f} sure of {verdict.best.outcome}, {ASKED} ({at_least:g})"
    return replace(verdict, decided=False, doubt=why)


def decode_readings(decoder: SlipDecoder | None, readings: Iterable[SlipReading],
                    taken: Iterable[int] = (), at_least: float | None = None) -> list[tuple[SlipReading, Verdict | None]]:
    """Each reading of a pile decoded against the round, one slip a table across the pile and the
    tables already filed (`taken`); as read when there is no decoder or no per-box reading. The
    same slip read twice (same image and index) is decoded once. `at_least`: the confidence the
    arbiter asked for, which a decided slip must reach too (`held_to`)."""
    readings = list(readings)
    if decoder is None:
        return [(r, None) for r in readings]
    unique = {(r.sha256, r.slip_index): r for r in readings if has_boxes(r)}
    verdicts = dict(zip(unique, decode_round(decoder, [r.raw for r in unique.values()], set(taken))))
    out: list[tuple[SlipReading, Verdict | None]] = []
    for r in readings:
        v = verdicts.get((r.sha256, r.slip_index))
        v = None if v is None else held_to(v, at_least)
        out.append((decoded(r, v), v) if v is not None else (r, None))
    return out


def filed_tables(store: Store, game_id: int, number: int) -> set[int]:
    """Tables that already have a filed slip in the round (an earlier pile)."""
    with store.session() as s:
        game = get_game(s, game_id)
        rnd = get_round(s, game, number)
        return set(s.scalars(select(Slip.table_no).where(Slip.round_id == rnd.id, Slip.state == "filed",
                                                         Slip.table_no.is_not(None))))


@dataclass
class DecodeTally:
    """Slips decided without review, and how many of those rulings match the ruling on the truth
    (table, status, credited points, warning, penalty): the demo's and benchmark's honest count."""

    slips: int = 0
    decided: int = 0
    right: int = 0
    wrong: list[str] = field(default_factory=list)

    def add(self, decoder: SlipDecoder | None, verdict: Verdict | None, truth: dict[str, Any] | None,
            where: str = "") -> None:
        self.slips += 1
        if decoder is None or verdict is None or not verdict.decided:
            return
        self.decided += 1
        if truth is None:
            self.wrong.append(f"{where}: decided, no truth to compare")
            return
        want = Reading(truth["table"], truth.get("round"), truth["position"], truth["word"],
                       tuple(truth.get("jokers") or ()), truth.get("score"))
        expected = decoder.rule(want)
        got = verdict.best
        state = decoder.round_state(want.round)
        if (got.reading.table, got.outcome, got.round_state) == (want.table, expected, state):
            self.right += 1
        else:
            self.wrong.append(f"{where}: decided {got.outcome} for table {got.reading.table}, "
                              f"the truth gives {expected} for table {want.table}")

    def merge(self, other: "DecodeTally") -> None:
        self.slips, self.decided, self.right = (self.slips + other.slips, self.decided + other.decided,
                                                self.right + other.right)
        self.wrong += other.wrong

    def summary(self) -> str:
        return (f"{self.decided} of {self.slips} slips decided without review, {self.right} of them right "
                f"(against the demo's truth)")

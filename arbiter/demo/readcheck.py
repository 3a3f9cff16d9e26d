"""How well the scanner read a pile whose truth is known (the demo's rendered slips).

A field is *right* (accepted and equal to what was written), *to review* (the reading said it was
unsure, so an arbiter looks) or *wrong* (accepted yet different: the one outcome that must not
happen, since nobody would look). A slip is read right, flagged (it went to the review queue for
any reason), or silently wrong."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..slips.readings import SlipReading
from .simulation import SlipTruth

FIELDS = ("round", "table", "score", "position", "word")


def field_value(values: dict, jokers: tuple[int, ...] | list[int], name: str) -> object:
    """A field as compared: the word together with its joker marks (a missed circle is a misread)."""
    if name == "word":
        return values.get("word"), tuple(jokers)
    return values.get(name)


@dataclass
class ReadTally:
    fields_right: int = 0
    fields_review: int = 0
    fields_wrong: int = 0
    slips_right: int = 0
    slips_flagged: int = 0
    slips_wrong: int = 0
    slips_unmatched: int = 0
    wrong: list[str] = field(default_factory=list)  # `source#index: field read X, written Y`

    def add(self, reading: SlipReading, truth: SlipTruth | None, flagged: bool) -> None:
        if truth is None:
            self.slips_unmatched += 1
            return
        written = truth.content()
        differs = False
        for name in FIELDS:
            got = field_value(reading.values, reading.jokers, name)
            want = field_value(written, truth.jokers, name)
            if name in reading.unsure or (name == "table" and "table_written" in reading.unsure):
                self.fields_review += 1
            elif got == want:
                self.fields_right += 1
            else:
                self.fields_wrong += 1
                self.wrong.append(f"{reading.source}#{reading.slip_index}: {name} read {got!r}, written {want!r}")
            differs |= got != want
        if flagged:
            self.slips_flagged += 1
        elif differs:
            self.slips_wrong += 1
        else:
            self.slips_right += 1

    def merge(self, other: "ReadTally") -> None:
        for name in ("fields_right", "fields_review", "fields_wrong", "slips_right", "slips_flagged",
                     "slips_wrong", "slips_unmatched"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wrong += other.wrong

    def summary(self) -> str:
        fields = self.fields_right + self.fields_review + self.fields_wrong
        slips = self.slips_right + self.slips_flagged + self.slips_wrong
        return (f"scanner: {fields} fields — {self.fields_right} read right and accepted, {self.fields_review} "
                f"sent to review, {self.fields_wrong} wrong yet accepted; {slips} slips — {self.slips_right} read "
                f"right, {self.slips_flagged} to review, {self.slips_wrong} silently wrong"
                + (f"; {self.slips_unmatched} not matched to a rendered slip" if self.slips_unmatched else ""))

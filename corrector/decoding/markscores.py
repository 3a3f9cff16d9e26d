"""How the joker-mark detector errs, learnt on calibration hands: P(a mark drawn | its score).

The detector's confidence (`chars[].marks` of a reading) is a score, not a probability: a circle it
finds scores 0.8–0.95 and is almost never there by mistake, while a plain letter's stroke end may
score 0.3 as a dot. Taken as a probability, a found circle was worth a likelihood ratio near 10,
not enough to outweigh a player forgetting a mark (`written.unmarked_joker`), so every slip with a
joker went to review. The scores are binned, and each bin gets the likelihood ratio of "a mark
drawn" against "no mark" counted on calibration slips (with one pseudo-slip of each kind per bin,
so an empty bin stays modest), made monotone. The decoder uses p = LR / (1 + LR), whose odds are
that ratio. Fitted by `python benchmarks/round_benchmark.py --fonts calibration --calibrate` and
kept as data in `marks.json`."""
from __future__ import annotations

import bisect
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

MARKS_FILE = Path(__file__).with_name("marks.json")
EDGES = (0.05, 0.5, 0.7, 0.9)  # upper edges, the last bin ends at 1; finer bins decided fewer calibration slips
PSEUDO = 1.0  # slips of each kind added to every bin
LIMIT = 1e-5  # no score makes a mark, or its absence, surer than this


def seen(marks: Mapping[str, float]) -> float:
    """The detector's score that a box carries a mark of any kind (circle, dot, tick), from the
    score of each kind tested on it (`chars[].marks`)."""
    return 1 - math.prod(1 - float(v) for v in marks.values())


@dataclass(frozen=True)
class MarkScores:
    """`chance[b]`: the probability-like value whose odds are bin b's likelihood ratio."""

    edges: tuple[float, ...]
    chance: tuple[float, ...]

    def probability(self, seen: float) -> float:
        return self.chance[bisect.bisect_right(self.edges, seen)]

    def to_json(self) -> dict:
        return {"edges": list(self.edges), "chance": [round(c, 6) for c in self.chance]}


def fit(boxes: Iterable[tuple[float, bool]], edges: tuple[float, ...] = EDGES) -> MarkScores:
    """From (detector score, a mark was drawn) pairs of calibration boxes."""
    marked = [0.0] * (len(edges) + 1)
    plain = [0.0] * (len(edges) + 1)
    for seen, drawn in boxes:
        (marked if drawn else plain)[bisect.bisect_right(edges, seen)] += 1
    n_marked, n_plain = sum(marked), sum(plain)
    bins = len(edges) + 1
    chance = []
    for m, u in zip(marked, plain):
        ratio = ((m + PSEUDO) / (n_marked + PSEUDO * bins)) / ((u + PSEUDO) / (n_plain + PSEUDO * bins))
        chance.append(min(1 - LIMIT, max(LIMIT, ratio / (1 + ratio))))
    for b in range(1, bins):  # a higher score never says less than a lower one
        chance[b] = max(chance[b], chance[b - 1])
    return MarkScores(tuple(edges), tuple(chance))


def load_mark_scores(path: Path = MARKS_FILE) -> MarkScores | None:
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return MarkScores(tuple(float(e) for e in data["edges"]), tuple(float(c) for c in data["chance"]))


def save_mark_scores(scores: MarkScores, path: Path = MARKS_FILE) -> None:
    path.write_text(json.dumps(scores.to_json()) + "\n", encoding="utf-8")

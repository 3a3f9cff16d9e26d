"""How the joker-mark detector errs, learnt on calibration hands: P(a mark drawn | its scores).

The detector's confidence (`chars[].marks` of a reading, one score per kind it looked for: circle,
dot, tick) is a score, not a probability: a circle it finds scores 0.8–0.95 and is almost never
there by mistake, while a plain letter's stroke end may score 0.3 as a dot. Taken as a probability,
a found circle was worth a likelihood ratio near 10, not enough to outweigh a player forgetting a
mark (`written.unmarked_joker`), so every slip with a joker went to review. The scores are binned,
and each bin gets the likelihood ratio of "a mark drawn" against "no mark" counted on calibration
slips (with one pseudo-slip of each kind per bin, so an empty bin stays modest), made monotone. The
decoder uses p = LR / (1 + LR), whose odds are that ratio.

The weak bin (a score between 0.05 and 0.5) is split by which search saw something there. A third
of the plain letters land in it, most of them because the ring search fitted a loose ellipse to the
letter's own strokes; the few marks drawn that land there are mostly ballpoint dots the dot search
half saw. One ratio for both made every plain letter with a loose ring fit a likely "letter marked
as a joker" (RULES.md §3) and capped a clean slip's certainty below the threshold. Fitted by
`python benchmarks/round_benchmark.py --fonts calibration --calibrate` and kept as data in
`marks.json`."""
from __future__ import annotations

import bisect
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

MARKS_FILE = Path(__file__).with_name("marks.json")
EDGES = (0.05, 0.5, 0.7, 0.9)  # upper edges, the last bin ends at 1; finer bins decided fewer calibration slips
SPLIT = 1  # the bin of EDGES told apart by kind: the ring search's alone, or a dot's or a tick's
RING = "circle"
PSEUDO = 1.0  # slips of each kind added to every bin
LIMIT = 1e-5  # no score makes a mark, or its absence, surer than this
# No score makes a drawn mark surer than 99 in 100. The detector is scored on calibration hands,
# where a box found at 0.9 or more is a plain letter once in 3,600; on the validation hands the
# scanner finds 13 false marks on 400 slips beside 442 drawn ones (a K's leg ending in a ball,
# a curled C). One false mark was then a sure "letter marked as a joker" warning (CUSPIDAT, IAZ,
# ROTAU) and set the decoder's threshold (GUBEI): a margin for hands never seen, as the thresholds
# keep one (README, "Calibration").
SUREST = 0.99


def seen(marks: Mapping[str, float]) -> float:
    """The detector's score that a box carries a mark of any kind (circle, dot, tick), from the
    score of each kind tested on it (`chars[].marks`)."""
    return 1 - math.prod(1 - float(v) for v in marks.values())


@dataclass(frozen=True)
class MarkScores:
    """`chance[b]`: the probability-like value whose odds are bin b's likelihood ratio. With `split`
    set, the bin `split` of `edges` is two: the ring search's score alone (every other kind below
    the first edge), then the rest; the bins after it move one place on."""

    edges: tuple[float, ...]
    chance: tuple[float, ...]
    split: int | None = None

    def bin(self, marks: Mapping[str, float]) -> int:
        return score_bin(marks, self.edges, self.split)

    def monotone(self) -> bool:
        """No bin says less than a bin of lower scores."""
        return all(self.chance[b] >= self.chance[a] for b in range(len(self.chance))
                   for a in lower_bins(b, self.split))

    def probability(self, marks: Mapping[str, float]) -> float:
        return self.chance[self.bin(marks)]

    def to_json(self) -> dict:
        data = {"edges": list(self.edges), "chance": [round(c, 6) for c in self.chance]}
        if self.split is not None:
            data["split"] = self.split
        return data


def score_bin(marks: Mapping[str, float], edges: tuple[float, ...], split: int | None) -> int:
    """The bin of a box's scores (`MarkScores`' layout)."""
    b = bisect.bisect_right(edges, seen(marks))
    if split is None or b < split:
        return b
    if b > split:
        return b + 1
    ring_alone = all(float(v) < edges[0] for k, v in marks.items() if k != RING)
    return b if ring_alone else b + 1


def lower_bins(b: int, split: int | None) -> list[int]:
    """The bins just below bin b in score, whose chance b's may not fall below."""
    if split is None or b <= split:
        return [b - 1] if b > 0 else []
    if b == split + 1:
        return [split - 1] if split > 0 else []
    return [b - 1, b - 2] if b == split + 2 else [b - 1]


def fit(boxes: Iterable[tuple[Mapping[str, float], bool]], edges: tuple[float, ...] = EDGES,
        split: int | None = SPLIT, surest: float = SUREST) -> MarkScores:
    """From (the detector's scores, a mark was drawn) pairs of calibration boxes; no bin says a mark
    was drawn surer than `surest`."""
    bins = len(edges) + 1 + (split is not None)
    marked = [0.0] * bins
    plain = [0.0] * bins
    for marks, drawn in boxes:
        (marked if drawn else plain)[score_bin(marks, edges, split)] += 1
    n_marked, n_plain = sum(marked), sum(plain)
    chance = []
    for m, u in zip(marked, plain):
        ratio = ((m + PSEUDO) / (n_marked + PSEUDO * bins)) / ((u + PSEUDO) / (n_plain + PSEUDO * bins))
        chance.append(min(surest, 1 - LIMIT, max(LIMIT, ratio / (1 + ratio))))
    for b in range(bins):  # a higher score never says less than a lower one
        chance[b] = max([chance[b]] + [chance[a] for a in lower_bins(b, split)])
    return MarkScores(tuple(edges), tuple(chance), split)


def load_mark_scores(path: Path = MARKS_FILE) -> MarkScores | None:
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    split = data.get("split")
    return MarkScores(tuple(float(e) for e in data["edges"]), tuple(float(c) for c in data["chance"]),
                      None if split is None else int(split))


def save_mark_scores(scores: MarkScores, path: Path = MARKS_FILE) -> None:
    path.write_text(json.dumps(scores.to_json()) + "\n", encoding="utf-8")

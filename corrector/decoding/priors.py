"""The decoder's priors and acceptance threshold, as data (`priors.json` next to this file)."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PRIORS_FILE = Path(__file__).with_name("priors.json")


@dataclass(frozen=True)
class Priors:
    """Prior weight of each kind of hypothesis (RULES.md §3 near-misses, free readings) and the
    posterior an outcome needs to be decided without review."""

    legal: float = 0.9
    free: float = 0.1
    free_alternative: float = 0.05  # per box where a free string leaves the ink's best reading
    outside_letter: float = 0.1  # per letter of a free word that neither the group nor the board holds
    # a free word's letter pair likelier than this in the word list costs nothing, a rarer one its
    # rarity (`spelling.py`); 0 turns the cost off
    rare_pair: float = 0.0
    other_move: float = 0.5  # prior weight of a legal move that is not a top (a top weighs 1)
    written: dict[str, float] = field(default_factory=dict)
    score: dict[str, float] = field(default_factory=dict)
    table: dict[str, float] = field(default_factory=dict)
    round: dict[str, float] = field(default_factory=dict)
    mark: dict[str, float] = field(default_factory=dict)
    kbest: dict[str, int] = field(default_factory=dict)
    # which classes the ink lets a box hold (`evidence.plausible`): the best classes covering
    # `plausible_mass` of the box's probability, and any class with `floor` or more; the default
    # lets every box hold anything (no veto), priors.json sets the fitted values
    ink: dict[str, float] = field(default_factory=lambda: {"plausible_mass": 1.0, "floor": 0.0})
    prune: float = 25.0
    max_hypotheses: int = 48
    max_moves: int = 200  # legal moves expanded with their near-misses, best bound first
    threshold: float = 0.995
    threshold_overrule: float = 0.999  # when the ruling differs from the ruling on the ink's best reading

    def log(self, group: str, name: str) -> float:
        """log of a prior in one of the groups (`written`, `score`, `table`, `round`)."""
        value = float(getattr(self, group)[name])
        return math.log(value) if value > 0 else -math.inf

    def adjusted(self, values: dict[str, float]) -> "Priors":
        """These priors with some values replaced; `mark.doubt` names a value inside a group."""
        data = self.to_json()
        for key, value in values.items():
            _set(data, key, value)
        return Priors(**data)

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def load_priors(path: Path = PRIORS_FILE) -> Priors:
    data = json.loads(path.read_text(encoding="utf-8"))
    return Priors(**{k: v for k, v in data.items() if not k.startswith("_")})


def _set(data: dict[str, Any], key: str, value: float) -> None:
    """Set `key` in the priors' data; `mark.doubt` names a value inside a group."""
    group, _, name = key.partition(".")
    if name:
        data[group] = {**data[group], name: value}
    else:
        data[group] = value


def save_fitted(values: dict[str, float], path: Path = PRIORS_FILE) -> None:
    """Store priors fitted on calibration hands (`free`, `mark.doubt`), keeping the rest of the file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, value in values.items():
        _set(data, key, value)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def save_threshold(threshold: float, overrule: float | None = None, path: Path = PRIORS_FILE) -> None:
    """Store calibrated thresholds, keeping everything else in the file as it is."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["threshold"] = round(threshold, 6)
    if overrule is not None:
        data["threshold_overrule"] = round(overrule, 6)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

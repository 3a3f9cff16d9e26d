"""The one library entry for judging a whole game, duplicate (docs/judge.md, RULES.md §3–4, §6) or
anticipation (docs/anticipation.md, RULES.md §7): `fluturas judge` and the arbiter's `round correct`
both call `judge`, in process."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corrector.anticipation.correction import AnticipationResult, correct_anticipation_game
from corrector.anticipation.judge import is_anticipation, load_game
from corrector.errors import AnticipationInputError, FluturasError
from corrector.judging.case import parse_case, read_case
from corrector.judging.judge import judge_case
from corrector.judging.result import GameResult
from corrector.judging.report import result_json


@dataclass(frozen=True)
class Judgment:
    """A judged game: its type and the judge's result (a `GameResult` or an `AnticipationResult`)."""

    kind: str  # "duplicate" | "anticipation"
    result: GameResult | AnticipationResult

    def to_json(self) -> dict[str, Any]:
        """The documented judge output (sorted lists, enum names: the same input, the same bytes)."""
        if isinstance(self.result, GameResult):
            return result_json(self.result)
        return self.result.to_json()


def judge(case: dict[str, Any], source: str = "<case>", base: Path = Path(".")) -> Judgment:
    """Judge a whole game from its input data; `source` names it in errors, `base` resolves the
    word-list file. A case whose "type" is "anticipation" is an anticipation game."""
    if is_anticipation(case):
        try:
            return Judgment("anticipation", correct_anticipation_game(load_game(case, base, source)))
        except AnticipationInputError:
            raise
        except FluturasError as exc:
            raise AnticipationInputError(f"{source}: {exc}") from exc
    return Judgment("duplicate", judge_case(parse_case(case, source, base)))


def judge_file(path: str | Path) -> Judgment:
    """`judge` on a judge input file (relative word-list paths are read beside it)."""
    path = Path(path)
    return judge(read_case(path), str(path), path.parent)

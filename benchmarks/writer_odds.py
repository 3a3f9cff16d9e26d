"""How surely the players' settled letters tell whose slip is whose (corrector/decoding/writers.py),
on the readings a `round_benchmark.py --dump` kept: each slip's letters weighed in its own table's
hand against the hands of `--others` other tables, every hand learnt from the slips of earlier
rounds as written (what an arbiter settles). Prints, for each ratio K, how often the slip's own
player is favoured at least K to 1 and how often another player is: a ratio that is no surer than
it claims favours another player K to 1 at most a K-th as often as the slip's own.

    python benchmarks/round_benchmark.py --fonts calibration --seed 48 --dump seed48.pkl
    python benchmarks/writer_odds.py seed48.pkl [more piles] [--others 5] [--seed 1]

Run it on calibration and validation piles only: the held-out ones are for measuring the decoder."""
from __future__ import annotations

import argparse
import pickle
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import round_benchmark  # noqa: E402
from corrector.decoding import Hands  # noqa: E402
from corrector.decoding.writers import writer_log_odds  # noqa: E402

RATIOS = (3, 10, 30, 100, 300, 1000)


class _Dump(pickle.Unpickler):
    """A dump names its slips `Written` of the module that wrote it: `__main__` when round_benchmark.py
    ran as a script."""

    def find_class(self, module: str, name: str):
        if name == "Written":
            return round_benchmark.Written
        return super().find_class(module, name)


def pile_odds(path: Path, others: int, rng: random.Random) -> np.ndarray:
    """The log odds, own table's hand against another's, of every slip with a hand at its table;
    ValueError when `path` is no dump."""
    try:
        with open(path, "rb") as f:
            piles = _Dump(f).load()["piles"]
    except (pickle.UnpicklingError, EOFError, KeyError, TypeError, AttributeError, ValueError) as e:
        raise ValueError(f"{path}: not the readings of a --dump run") from e
    hands, odds = Hands(), []
    for records, written in piles:
        pairs = [(r, w) for r, w in zip(records, written) if w is not None and w.table is not None]
        for record, w in pairs:
            if w.table not in hands.by_table:
                continue
            tables = [u for u in hands.by_table if u != w.table]
            for u in rng.sample(tables, min(others, len(tables))):
                odds.append(writer_log_odds(hands, record, w.position, w.word, w.table, u))
        for record, w in pairs:  # settled once the round is over
            hands.learn(w.table, record, w.position, w.word)
    return np.asarray(odds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("piles", nargs="+", type=Path, help="readings kept by round_benchmark.py --dump")
    ap.add_argument("--others", type=int, default=5, help="other tables each slip is weighed against")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print("pile | pairs | told nothing | " + " | ".join(f"own / other / bound at {k}" for k in RATIOS))
    for path in args.piles:
        try:
            odds = pile_odds(path, args.others, rng)
        except (OSError, ValueError) as e:
            ap.error(str(e))  # one line, exit 2
        if not len(odds):
            print(f"{path.name} | 0 | no slip has a hand at its table")
            continue
        cells = []
        for k in RATIOS:
            own, other = float((odds >= np.log(k)).mean()), float((odds <= -np.log(k)).mean())
            cells.append(f"{100 * own:.2f} / {100 * other:.3f} / {100 * own / k:.3f} %")
        print(f"{path.name} | {len(odds)} | {100 * float((odds == 0).mean()):.1f} % | " + " | ".join(cells))


if __name__ == "__main__":
    main()

"""Move-generation figures on the demo Romanian list (demo list, not LOC), single core (issue 3).

Usage: python benchmarks/movegen_benchmark.py [--positions 100] [--seed 1] [--python] [--objects]

Mid-game positions are reached by playing the top move (first in the documented order) from
4 to 14 rounds of random draws; at each position three groups are timed: no joker, one joker,
two jokers. "all moves" is the full legal-move set from the C walk, scored (a numpy record
array); "as Play objects" adds sorting and building a Python object per move, which callers
that need every move as objects also pay. Figures are per position.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from corrector.board import Board  # noqa: E402
from corrector.words.lexicon import load_lexicon  # noqa: E402
from corrector.words.movegen import compiled_available, generate_moves, generate_records, top_moves  # noqa: E402
from corrector.placement import apply_placement, place_move  # noqa: E402
from corrector.rulepack import load_pack  # noqa: E402
from corrector.tiles import JOKER  # noqa: E402

from samples import DEMO_WORDS as DEMO  # noqa: E402  (the bundled demo list, not LOC)


def positions(pack, lexicon, count: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        bag = [l for l, n in pack.tiles.counts.items() for _ in range(n)]
        board = Board()
        for _ in range(rng.randint(4, 14)):
            rack = rng.sample(bag, pack.rack_size)
            tops = top_moves(board, rack, pack, lexicon)
            if not tops:
                break
            placement = place_move(board, tops[0].move, pack)
            apply_placement(board, placement)
            for _, _, t in placement.new_tiles:
                bag.remove(t.letter)
        if len(bag) >= pack.rack_size:
            racks = {j: rng.sample(bag, pack.rack_size - j) + [JOKER] * j for j in (0, 1, 2)}
            out.append((board, racks))
    return out


def timed(fn, repeat: int = 3) -> tuple[float, float]:
    """Best of `repeat` (wall seconds, CPU seconds of this process): on a shared machine the
    CPU time is the single-core figure, the wall time what a user waited."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall, cpu = min(wall, time.perf_counter() - w0), min(cpu, time.process_time() - c0)
    return wall, cpu


def _stats(seconds: list[float]) -> tuple[float, float, float]:
    ms = sorted(s * 1000 for s in seconds)
    return statistics.median(ms), ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))], ms[-1]


def summary(name: str, samples: list[tuple[float, float]], moves: list[int]) -> str:
    cpu = _stats([c for _, c in samples])
    wall = _stats([w for w, _ in samples])
    return (f"{name:<26} CPU median {cpu[0]:6.2f} ms  p95 {cpu[1]:6.2f} ms  max {cpu[2]:7.2f} ms | "
            f"wall median {wall[0]:6.2f} p95 {wall[1]:6.2f} | moves median {int(statistics.median(moves))}, "
            f"max {max(moves)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python", action="store_true", help="time the pure-Python twin instead of C")
    parser.add_argument("--objects", action="store_true", help="also time generate_moves (Play objects; slow)")
    args = parser.parse_args()
    pack = load_pack("ro")
    lexicon = load_lexicon(DEMO, pack)
    compiled = not args.python
    if compiled and not compiled_available():
        print("compiled move generator not built: python setup.py build_ext --inplace")
        return 1
    print(f"word list: {lexicon.info.label} ({len(lexicon)} words; demo list, not LOC); "
          f"engine: {'C' if compiled else 'pure Python'}; {args.positions} positions, seed {args.seed}")
    cases = positions(pack, lexicon, args.positions, args.seed)
    tiles_on_board = [len(b.tiles()) for b, _ in cases]
    print(f"tiles on board: median {int(statistics.median(tiles_on_board))}, "
          f"min {min(tiles_on_board)}, max {max(tiles_on_board)}")
    for label, jokers in (("no joker", (0,)), ("one joker", (1,)), ("two jokers", (2,)), ("all racks", (0, 1, 2))):
        raw, full, counts = [], [], []
        for board, racks in cases:
            for j in jokers:
                rack = racks[j]
                raw.append(timed(lambda: generate_records(board, rack, pack, lexicon, compiled)))
                counts.append(len(generate_records(board, rack, pack, lexicon, compiled)))
                if compiled and args.objects:
                    full.append(timed(lambda: generate_moves(board, rack, pack, lexicon, compiled), 1))
        print(summary(f"all moves, {label}", raw, counts))
        if full:
            print(summary("  as Play objects", full, counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Play N duplicate games by tops per variant and check each one independently
(`corrector.game.gamecheck`): games finished legally, tiles conserved, time per game.

    python benchmarks/simulate_games.py [--games 100] [--variants classic,completiv,tactic,...] [--words FILE]

Tactic (D 8.6) games search the exact best pair of every round (`corrector.game.tactic`).

Seeds are 0..N-1, so every figure can be reproduced with `python cli.py simulate --seed N`."""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corrector.game.gamecheck import check_any_game_log  # noqa: E402
from corrector.game.tacticmaster import master_for  # noqa: E402
from corrector.words.lexicon import load_lexicon  # noqa: E402
from corrector.rulepack import load_pack  # noqa: E402
from corrector.game.variants import load_duplicate_rules  # noqa: E402

from samples import DEMO_WORDS as DEMO  # noqa: E402  (the bundled demo list, not LOC)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--variants", default="classic")
    parser.add_argument("--rules", default="ro")
    parser.add_argument("--words", type=Path, default=None)
    args = parser.parse_args()
    pack = load_pack(args.rules)
    lexicon = load_lexicon(args.words or DEMO, pack)
    rules = load_duplicate_rules(pack)
    label = str(args.words) if args.words else "demo list, not LOC"
    print(f"word list: {label} ({len(lexicon)} words); rules {pack.name}; seeds 0..{args.games - 1}")
    print(f"{'variant':<12} {'games':>5} {'legal':>5} {'tiles ok':>8} {'rounds':>6} {'mean top':>8} "
          f"{'s/game med':>10} {'s/game max':>10} {'total s':>8}")
    failures = 0
    for name in args.variants.split(","):
        times, rounds, totals, legal, conserved = [], [], [], 0, 0
        for seed in range(args.games):
            started = time.perf_counter()
            game = master_for(pack, lexicon, name, random.Random(seed), seed=seed).run()
            times.append(time.perf_counter() - started)
            problems = check_any_game_log(game, pack, lexicon, rules)
            legal += not problems
            conserved += game.tiles_conserved
            rounds.append(len(game.rounds))
            totals.append(game.total)
            for problem in problems:
                print(f"  {name} seed {seed}: {problem}")
        failures += args.games - legal
        print(f"{name:<12} {args.games:>5} {legal:>5} {conserved:>8} {statistics.mean(rounds):>6.1f} "
              f"{statistics.mean(totals):>8.0f} {statistics.median(times):>10.3f} {max(times):>10.3f} "
              f"{sum(times):>8.1f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

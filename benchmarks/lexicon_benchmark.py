"""Word-list figures: graph build time, cached load time and resident memory (issue 2 acceptance).

Usage: python benchmarks/lexicon_benchmark.py [WORDLIST] [--pack ro]
Default list: the bundled demo list (demo list, not LOC). Load time and RSS are measured in a
fresh interpreter, so the figures are what a new `fluturas` process pays.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from samples import DEMO_WORDS as DEMO  # noqa: E402  (the bundled demo list, not LOC)

_LOAD = """
import json, sys, time
sys.path.insert(0, {root!r})
def peak_rss_mb():
    # VmHWM, not ru_maxrss: the latter keeps the forking parent's peak across exec on Linux.
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
t0 = time.perf_counter()
from corrector.words.lexicon import load_lexicon
from corrector.rulepack import load_pack
pack = load_pack({pack!r})
t1 = time.perf_counter()
lex = load_lexicon({path!r}, pack)
t2 = time.perf_counter()
assert len(lex) > 0
print(json.dumps({{"import_s": t1 - t0, "load_s": t2 - t1,
                  "rss_mb": peak_rss_mb(),
                  "words": len(lex), "nodes": lex.dawg.node_count, "edges": lex.dawg.edge_count,
                  "graph_mb": lex.dawg.nbytes / 2**20}}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wordlist", nargs="?", type=Path, default=DEMO)
    parser.add_argument("--pack", default="ro")
    args = parser.parse_args()

    from corrector.words.lexicon import cache_path, load_lexicon
    from corrector.rulepack import load_pack

    pack = load_pack(args.pack)
    t0 = time.perf_counter()
    load_lexicon(args.wordlist, pack, use_cache=False)
    build_s = time.perf_counter() - t0
    load_lexicon(args.wordlist, pack)  # make sure the cache exists
    code = _LOAD.format(root=str(ROOT), pack=args.pack, path=str(args.wordlist))
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                      check=True).stdout) for _ in range(5)]
    best = min(runs, key=lambda r: r["load_s"])
    print(f"word list : {args.wordlist.name} ({'demo list, not LOC' if args.wordlist == DEMO else 'user list'})")
    print(f"words     : {best['words']}  graph: {best['nodes']} nodes, {best['edges']} edges, "
          f"{best['graph_mb']:.1f} MiB; cache file {cache_path(args.wordlist, pack).stat().st_size / 2**20:.1f} MiB")
    print(f"build     : {build_s:.1f} s (read, fold, tokenise, minimise; once per list)")
    print(f"load      : {sorted(r['load_s'] for r in runs)[2] * 1000:.0f} ms median of 5 from the cache "
          f"(+ {best['import_s'] * 1000:.0f} ms importing numpy and the package)")
    print(f"RSS       : {max(r['rss_mb'] for r in runs):.0f} MiB peak, whole process after loading")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The round benchmark's whole grid in one command: every room size (16, 40 and 100 seated
players), every seed and both kinds of slip (blank and pre-filled with a QR code), 2,000 slips each,
on held-out hands with real handwritten digits, then one table of what was decided, what was
flagged and what was decided wrong, and every mistake type of the mix with its flagged and silent
counts.

    python benchmarks/round_grid.py --seeds 3505 3506 --out grid/            # scan and decode, two runs at a time
    python benchmarks/round_grid.py --seeds 3505 3506 --out grid/ --replay   # decode the kept readings again
    python benchmarks/round_grid.py --seeds 3505 3506 --out grid/ --replay --forget-hands   # without the players' hands
    python benchmarks/round_grid.py --seeds 3505 3506 --out grid/ --replay --hands-per-game  # hands learnt afresh each game
    python benchmarks/round_grid.py --seeds 3522 --out grid-b/ --model B/reader.onnx --confusion B/confusion.json   # another stack

Each run is `round_benchmark.py` in its own process (one per core), its readings kept in `--out`
(`<room><blank|qr>-<seed>.pkl`) with its printout (`.txt`): `--replay` decodes those readings again
with today's decoder files, without scanning (a decoder change measured on the same slips). A seed
measured once is seen: a choice made after looking at its figures needs fresh seeds to be
measured again."""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parent / "round_benchmark.py"
TARGETS = {"flagged": 8.0, "clean_flagged": 4.0, "silent": 0}  # issue 20's acceptance, per room
DECODER_FILES = {"priors": "priors file", "confusion": "reader confusions", "marks": "mark scores"}  # --replay takes them too


@dataclass(frozen=True)
class Run:
    room: int
    qr: bool
    seed: int

    @property
    def name(self) -> str:
        return f"{self.room}{'qr' if self.qr else 'blank'}-{self.seed}"


@dataclass
class Result:
    run: Run
    slips: int = 0
    decided: float = 0.0
    flagged: float = 0.0
    clean_flagged: float = 0.0
    silent: int = 0
    by_mistake: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # slips, flagged, silent
    failed: str = ""
    faces: str = ""  # the run's own count of the faces its slips were written in ("14 faces")
    hands: str = ""  # how the run read its slips in the players' hands, in its own words


SUMMARY = re.compile(r"^summary \| (\d+) \| (\w+) \| (\d+) \| (\d+) \| ([\d.]+) % \| ([\d.]+) % \| ([\d.]+) % \| (\d+) \|")
MISTAKE = re.compile(r"^  (\w+)\s+(\d+)\s+(\d+)\s+(\d+)$")
FACES = re.compile(r"^fonts \w+ \((\d+ faces[^)]*)\)")
HANDS = re.compile(r", (hands [^,]+), mix ")


def parse(run: Run, text: str) -> Result:
    """One run's figures from round_benchmark.py's printout."""
    out = Result(run)
    in_mistakes = False
    for line in text.splitlines():
        if line.startswith("per mistake type"):
            in_mistakes = True
        elif line.startswith("why flagged"):
            in_mistakes = False
        elif in_mistakes and (m := MISTAKE.match(line)):
            out.by_mistake[m[1]] = (int(m[2]), int(m[3]), int(m[4]))
        elif (m := FACES.match(line)) and not out.faces:
            out.faces = m[1]
            out.hands = h[1] if (h := HANDS.search(line)) else ""
        elif m := SUMMARY.match(line):
            out.slips, out.silent = int(m[4]), int(m[8])
            out.decided, out.flagged, out.clean_flagged = float(m[5]), float(m[6]), float(m[7])
    if not out.slips:
        out.failed = (text.strip().splitlines() or ["no output"])[-1]
    return out


def command(run: Run, args) -> list[str]:
    dump = args.out / f"{run.name}.pkl"
    hands = (["--forget-hands"] if args.forget_hands else []) + (["--hands-per-game"] if args.hands_per_game else [])
    decoder = [arg for name in DECODER_FILES if getattr(args, name)
               for arg in (f"--{name}", str(getattr(args, name)))]
    if args.replay:
        return [sys.executable, str(BENCHMARK), "--replay", str(dump)] + hands + decoder
    reader = ["--model", str(args.model)] if args.model else []
    return [sys.executable, str(BENCHMARK), "--slips", str(args.slips), "--players", str(run.room),
            "--seed", str(run.seed), "--fonts", args.fonts, "--hand", args.hand,
            "--dump", str(dump)] + (["--qr"] if run.qr else []) + hands + reader + decoder


def execute(run: Run, args) -> Result:
    """Run one cell of the grid, keeping its printout beside its readings."""
    done = subprocess.run(command(run, args), capture_output=True, text=True)
    text = done.stdout + (f"\n{done.stderr}" if done.returncode else "")
    suffix = (("-replay" if args.replay else "") + ("-hands-forgotten" if args.forget_hands else "")
              + ("-hands-per-game" if args.hands_per_game else ""))
    (args.out / f"{run.name}{suffix}.txt").write_text(text)
    return parse(run, text)


def table(results: list[Result]) -> list[str]:
    lines = [f"{'room':>4}  {'slips':<11} {'seed':>5}  {'decided':>8}  {'flagged':>8}  {'clean flagged':>13}  {'silent':>6}"]
    for r in results:
        kind = "pre-filled" if r.run.qr else "blank"
        if r.failed:
            lines.append(f"{r.run.room:>4}  {kind:<11} {r.run.seed:>5}  failed: {r.failed}")
            continue
        lines.append(f"{r.run.room:>4}  {kind:<11} {r.run.seed:>5}  {r.decided:>6.2f} %  {r.flagged:>6.2f} %  "
                     f"{r.clean_flagged:>11.2f} %  {r.silent:>6}")
    return lines


def mistakes(results: list[Result]) -> list[str]:
    """Every mistake type of the mix, summed over rooms and seeds, per kind of slip."""
    lines = [f"{'mistake':<18} {'blank: slips':>12} {'flagged':>8} {'silent':>7}   {'pre-filled: slips':>17} "
             f"{'flagged':>8} {'silent':>7}"]
    sums: dict[str, dict[bool, list[int]]] = defaultdict(lambda: {False: [0, 0, 0], True: [0, 0, 0]})
    for r in results:
        for kind, counts in r.by_mistake.items():
            total = sums[kind][r.run.qr]
            for i, n in enumerate(counts):
                total[i] += n
    for kind, by_qr in sorted(sums.items(), key=lambda kv: -(kv[1][False][0] + kv[1][True][0])):
        (b, bf, bs), (q, qf, qs) = by_qr[False], by_qr[True]
        lines.append(f"{kind:<18} {b:>12} {bf:>8} {bs:>7}   {q:>17} {qf:>8} {qs:>7}")
    return lines


def verdict(results: list[Result]) -> list[str]:
    ok = [r for r in results if not r.failed]
    if not ok:
        return ["no run finished"]
    worst_flagged = max(r.flagged for r in ok)
    worst_clean = max(r.clean_flagged for r in ok)
    silent = sum(r.silent for r in ok)
    met = (worst_flagged <= TARGETS["flagged"] and worst_clean <= TARGETS["clean_flagged"]
           and silent <= TARGETS["silent"] and len(ok) == len(results))
    return [f"decided {min(r.decided for r in ok):.2f}–{max(r.decided for r in ok):.2f} %; most flagged "
            f"{worst_flagged:.2f} % (target ≤ {TARGETS['flagged']:.0f} %), clean slips flagged at most {worst_clean:.2f} % "
            f"(target ≤ {TARGETS['clean_flagged']:.0f} %), silent errors {silent} (target {TARGETS['silent']}): "
            f"{'met' if met else 'not met'}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, nargs="+", required=True, help="fresh seeds: one never looked at before")
    ap.add_argument("--rooms", type=int, nargs="+", default=[16, 40, 100], help="seated players per room")
    ap.add_argument("--kinds", nargs="+", default=["blank", "qr"], choices=["blank", "qr"])
    ap.add_argument("--slips", type=int, default=2000, help="slips per run")
    ap.add_argument("--fonts", default="held_out", choices=["held_out", "validation"])
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time (one per core)")
    ap.add_argument("--out", type=Path, required=True, help="folder for each run's readings and printout")
    ap.add_argument("--replay", action="store_true", help="decode the readings kept in --out again, without scanning")
    ap.add_argument("--hand", default="table", choices=["table", "slip"],
                    help="table: each seated player writes all of their slips in one face; slip: a face a slip")
    ap.add_argument("--forget-hands", action="store_true",
                    help="decode without the players' hands learnt from their settled slips of earlier rounds")
    ap.add_argument("--hands-per-game", action="store_true",
                    help="learn the players' hands afresh at each game, not across the run's games")
    ap.add_argument("--model", type=Path, help="scan with this reader (.onnx with its .json) instead of the shipped one")
    for name, what in DECODER_FILES.items():
        ap.add_argument(f"--{name}", type=Path, help=f"decode with this {what} instead of the shipped one")
    args = ap.parse_args()
    for name in ("model", *DECODER_FILES):
        if getattr(args, name) and not getattr(args, name).is_file():
            ap.error(f"--{name} {getattr(args, name)}: no such file")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        ap.error(f"--out {args.out}: cannot be a folder for the runs ({e.strerror})")
    runs = [Run(room, kind == "qr", seed) for seed in args.seeds for kind in args.kinds for room in args.rooms]
    if args.replay:
        missing = [r.name for r in runs if not (args.out / f"{r.name}.pkl").is_file()]
        if missing:
            ap.error(f"--replay: no kept readings for {', '.join(missing)} in {args.out}")
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda run: execute(run, args), runs))
    faces = sorted({r.faces for r in results if r.faces})
    hands = sorted({r.hands for r in results if r.hands})
    print(f"round benchmark grid: {args.fonts} hands{' (' + '; '.join(faces) + ')' if faces else ''}, "
          f"real handwritten digits, {args.slips} slips a run"
          f"{', readings replayed' if args.replay else ''}"
          f"{', players’ ' + '; '.join(hands) if hands else ''}")
    print("\n".join(table(results)))
    print()
    print("\n".join(mistakes(results)))
    print()
    print("\n".join(verdict(results)))
    return 1 if any(r.failed for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())

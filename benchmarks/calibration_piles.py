"""The piles the decoder's calibration stands on, scanned again in one command: the five calibration
piles (calibration hands, MNIST's calibration digits; seeds 45 to 49) and the two validation piles
(seed 3601), each a `round_benchmark.py --dump`, `--jobs` at a time (one per core), then the
calibration command that fits the decoder on them (corrector/decoding/README.md, "Calibration").

    python benchmarks/calibration_piles.py --out piles/                    # scan the seven piles, print the calibration
    python benchmarks/calibration_piles.py --out piles/ --calibrate        # then fit and store the decoder's files
    python benchmarks/calibration_piles.py --out piles-b/ --model B/reader.onnx   # another reader's readings

Every change of the reader or of the mark finding changes the readings the decoder was fitted on,
and the piles are kept nowhere but in `--out`: a new machine scans them again (seven piles of 2,000
slips; a round grid's six took 40 minutes on two cores). A pile already in `--out` is kept, not
scanned again, so a run that stopped goes on where it stopped. `--calibrate` scans calibration seed
44 itself and writes `corrector/decoding/priors.json`, `confusion.json` and `marks.json`; it fits the
shipped reader's readings only, so it does not go with `--model`."""
from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parent / "round_benchmark.py"


@dataclass(frozen=True)
class Pile:
    """One `--dump` of the calibration: its file name, its role in the fit, and how it is written."""

    name: str
    role: str  # the calibration's option that takes it: --hold, --choose-on or --hold-validation
    options: tuple[str, ...]


PILES = (
    Pile("seed45", "--hold", ("--players", "16", "--fonts", "calibration", "--mix", "demo", "--seed", "45")),
    Pile("seed46", "--hold", ("--players", "40", "--fonts", "calibration", "--mix", "demo", "--seed", "46")),
    Pile("seed47", "--hold", ("--players", "100", "--qr", "--fonts", "calibration", "--mix", "demo", "--seed", "47")),
    Pile("seed48", "--choose-on", ("--players", "100", "--fonts", "calibration", "--mix", "realistic", "--seed", "48")),
    Pile("seed49", "--choose-on", ("--players", "40", "--qr", "--fonts", "calibration", "--mix", "realistic",
                                   "--seed", "49")),
    Pile("val100", "--hold-validation", ("--players", "100", "--fonts", "validation", "--seed", "3601")),
    Pile("val40qr", "--hold-validation", ("--players", "40", "--qr", "--fonts", "validation", "--seed", "3601")),
)


def scan_command(pile: Pile, out: Path, slips: int, model: Path | None) -> list[str]:
    reader = ["--model", str(model)] if model else []
    return [sys.executable, str(BENCHMARK), "--slips", str(slips), *pile.options,
            "--dump", str(out / f"{pile.name}.pkl"), *reader]


def calibrate_command(out: Path, slips: int) -> list[str]:
    held = [arg for pile in PILES for arg in (pile.role, str(out / f"{pile.name}.pkl"))]
    return [sys.executable, str(BENCHMARK), "--slips", str(slips), "--players", "100", "--fonts", "calibration",
            "--mix", "demo", "--calibrate", "--passes", "1", "--seed", "44", *held]


def scan(pile: Pile, out: Path, slips: int, model: Path | None) -> str:
    """Scan one pile unless it is already kept; its printout is kept beside its readings. '' when done."""
    if (out / f"{pile.name}.pkl").is_file():
        return ""
    done = subprocess.run(scan_command(pile, out, slips, model), capture_output=True, text=True)
    (out / f"{pile.name}.txt").write_text(done.stdout + (f"\n{done.stderr}" if done.returncode else ""))
    if done.returncode == 0:
        return ""
    return f"{pile.name}: round_benchmark.py stopped (exit {done.returncode}), see {pile.name}.txt"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True, help="folder for the piles' readings and printouts")
    ap.add_argument("--slips", type=int, default=2000, help="slips per pile")
    ap.add_argument("--jobs", type=int, default=2, help="piles scanned at a time (one per core)")
    ap.add_argument("--model", type=Path, help="scan with this reader (.onnx with its .json) instead of the shipped one")
    ap.add_argument("--calibrate", action="store_true",
                    help="then fit the decoder on the piles and store its files (the shipped reader only)")
    args = ap.parse_args()
    if args.model and not args.model.is_file():
        ap.error(f"--model {args.model}: no such file")
    if args.model and args.calibrate:
        ap.error("--calibrate fits the decoder to the shipped reader's readings: leave out --model")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        ap.error(f"--out {args.out}: cannot be a folder for the piles ({e.strerror})")
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        failed = [f for f in pool.map(lambda p: scan(p, args.out, args.slips, args.model), PILES) if f]
    for line in failed:
        print(line, file=sys.stderr)
    if failed:
        return 1
    print(f"{len(PILES)} piles kept in {args.out}: {', '.join(p.name + '.pkl' for p in PILES)}")
    command = calibrate_command(args.out, args.slips)
    if not args.calibrate:
        print("fit the decoder on them:", " ".join(["python", "benchmarks/round_benchmark.py", *command[2:]]))
        return 0
    return subprocess.run(command).returncode


if __name__ == "__main__":
    sys.exit(main())

"""Scanner benchmark: render slips with fonts never used in training (and real handwritten digits),
scan them through the real pipeline, and print accuracy, calibration and speed.

    python benchmarks/scan_benchmark.py --slips 2000
    python benchmarks/scan_benchmark.py --slips 200 --reader tesseract

Half of the slips write every digit with scikit-learn's real handwritten digits from the evaluation
split load_digits[1000:] (never trained on); the real-digit accuracy is measured on those.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scanner.pipeline import scan_page  # noqa: E402
from scanner.reader import make_reader  # noqa: E402
from scanner.source import Page  # noqa: E402
from scanner.synth import fonts  # noqa: E402
from scanner.synth.slip import PageStyle, SlipStyle, render_page, render_slip  # noqa: E402
from scanner.synth.values import random_values  # noqa: E402
from scanner.template import load_template  # noqa: E402
from scanner.train.cells import REAL_DIGIT_EVAL, load_real_digits  # noqa: E402


def levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


@dataclass
class Tally:
    chars: int = 0
    char_errors: int = 0
    fields: int = 0
    fields_right: int = 0
    accepted: int = 0
    accepted_wrong: int = 0
    slips: int = 0
    slips_right: int = 0
    slips_missed: int = 0
    real_digits: int = 0
    real_digits_right: int = 0
    jokers: dict = field(default_factory=lambda: {"circle": [0, 0], "dot": [0, 0], "tick": [0, 0]})
    joker_false: int = 0
    wrong_examples: list = field(default_factory=list)


def score_slip(tally: Tally, truth: dict, jokers: dict, marks: dict, reading, real: bool) -> None:
    tally.slips += 1
    all_right = True
    for name, text in truth.items():
        if not text or name not in reading.fields or reading.template_id is None:
            continue
        f = reading.fields[name]
        tally.fields += 1
        tally.chars += len(text)
        tally.char_errors += min(len(text), levenshtein(text, f.text))
        right = f.text == text
        tally.fields_right += right
        all_right &= right
        if f.accepted:
            tally.accepted += 1
            tally.accepted_wrong += not right
            if not right and len(tally.wrong_examples) < 10:
                tally.wrong_examples.append((name, text, f.text, round(f.confidence, 4)))
        if real and text.isdigit() and len(f.text) == len(text):
            tally.real_digits += len(text)
            tally.real_digits_right += sum(a == b for a, b in zip(text, f.text))
        want = set(jokers.get(name, []))
        got = set(f.jokers)
        for i in want:
            kind = marks.get((name, i))
            if kind:
                tally.jokers[kind][1] += 1
                tally.jokers[kind][0] += i in got
        tally.joker_false += len(got - want)
        all_right &= got == want
    tally.slips_right += all_right


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--slips", type=int, default=400)
    ap.add_argument("--per-page", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--reader", default="cnn", choices=["cnn", "tesseract"])
    ap.add_argument("--model", type=Path, default=None)
    ap.add_argument("--template", default="duplicat")
    ap.add_argument("--photo-share", type=float, default=0.25, help="pages captured as phone photos")
    ap.add_argument("--fonts", default="held_out", choices=["held_out", "calibration", "train"])
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    t = load_template(args.template)
    split = {"held_out": fonts.HELD_OUT, "calibration": fonts.CALIBRATION, "train": fonts.TRAIN}[args.fonts]
    digits, labels = load_real_digits(REAL_DIGIT_EVAL)
    reader = make_reader(args.reader, args.model)
    tally = Tally()
    scan_seconds = 0.0
    pages = (args.slips + args.per_page - 1) // args.per_page
    for p in range(pages):
        n = min(args.per_page, args.slips - p * args.per_page)
        real = p % 2 == 0
        style = SlipStyle(fonts=list(fonts.resolve(split).paths), real_digits=digits, real_digit_labels=labels,
                          real_digit_share=1.0 if real else 0.0)
        truths, images, marks = [], [], []
        for _ in range(n):
            values, jokers = random_values(t, rng)
            kinds = {(f, i): ("circle", "dot", "tick")[rng.integers(3)] for f, idx in jokers.items() for i in idx}
            img = render_slip(t, values, rng, style, jokers, marks=kinds)
            truths.append((values, jokers))
            images.append(img)
            marks.append(kinds)
        photo = rng.random() < args.photo_share
        page_img = render_page(images, rng, PageStyle(photo=photo, jpeg_quality=85 if photo else None))
        t0 = time.perf_counter()
        readings = scan_page(Page(Path(f"page{p}"), 1, page_img), reader, args.reader, (t,))
        scan_seconds += time.perf_counter() - t0
        _score_page(tally, readings, truths, marks, page_img.shape, n, real)
    _report(tally, scan_seconds, reader.threshold, args)
    return 0


def _score_page(tally, readings, truths, marks, shape, n, real):
    h, w = shape[:2]
    cols = 2 if n > 1 else 1
    rows = int(np.ceil(n / cols))
    matched = {}
    for r in readings:
        if r.slip_box is None:
            continue
        cx, cy = np.mean([c[0] for c in r.slip_box]), np.mean([c[1] for c in r.slip_box])
        k = int(min(cy // (h / rows), rows - 1)) * cols + int(min(cx // (w / cols), cols - 1))
        matched[k] = r
    for k in range(n):
        values, jokers = truths[k]
        if k not in matched:
            tally.slips += 1
            tally.slips_missed += 1
            continue
        score_slip(tally, values, jokers, marks[k], matched[k], real)


def _report(tally: Tally, seconds: float, threshold: float, args) -> None:
    pct = lambda a, b: f"{100.0 * a / b:.2f}%" if b else "n/a"  # noqa: E731
    print(f"reader {args.reader}, template {args.template}, fonts {args.fonts}, seed {args.seed}")
    print(f"slips               {tally.slips} ({tally.slips_missed} not located)")
    print(f"characters right    {pct(tally.chars - tally.char_errors, tally.chars)} of {tally.chars}")
    print(f"fields right        {pct(tally.fields_right, tally.fields)} of {tally.fields}")
    print(f"slips all right     {pct(tally.slips_right, tally.slips)} (fields and joker marks)")
    print(f"real digits right   {pct(tally.real_digits_right, tally.real_digits)} of {tally.real_digits} "
          f"(load_digits[1000:], never trained on)")
    print(f"threshold           {threshold:.6f}")
    print(f"fields accepted     {pct(tally.accepted, tally.fields)}; errors among them "
          f"{pct(tally.accepted_wrong, tally.accepted)} ({tally.accepted_wrong})")
    for kind, (found, total) in tally.jokers.items():
        print(f"joker {kind:<6}        found {found}/{total}")
    print(f"joker false marks   {tally.joker_false}")
    print(f"speed               {tally.slips / seconds:.1f} slips/s (scan only, one process)")
    for ex in tally.wrong_examples:
        print(f"  accepted but wrong: {ex}")


if __name__ == "__main__":
    sys.exit(main())

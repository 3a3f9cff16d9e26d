"""Scanner benchmark: render slips with fonts never used in training (and real handwritten digits),
scan them through the real pipeline, and print accuracy, calibration and speed.

    python benchmarks/scan_benchmark.py --slips 2000
    python benchmarks/scan_benchmark.py --slips 200 --reader tesseract

Half of the slips write every digit with real handwritten digits never trained nor calibrated on: MNIST's
test part (scanner/train/mnist.py; `--digits sklearn` for load_digits[1300:]); the real-digit accuracy is
measured on those. The fonts are the held-out split: its Debian fonts and its fetched @fontsource faces.
Joker marks are drawn in every way of scanner.synth.pen (circle around the box, around the letter,
inside the box, across the box lines, open, off-centre; dot apart or touching; tick), each reported
on its own; a share of 1 4 7 L Z is written in continental forms (crossed 7 and Z on the held-out
hand's own glyphs, flagged 1, open-top 4, looped L from the held-out stroke drawings), and some
letters run into the box lines.

    python benchmarks/scan_benchmark.py --photos --slips 400
    python benchmarks/scan_benchmark.py --pen-dots --slips 400

`--pen-dots` also marks jokers with ballpoint dots (scanner.synth.pen.PEN_DOT_WAYS: 0.6-1.0 mm across,
barely wider than the strokes, apart from or touching the letter), each reported as its own way.

`--photos` reads the same slips twice: scanned (4 to an A4 page at 150 dpi) and photographed with a
phone as cut slips lying on a table (scanner.synth.photo: any rotation, 10-30° tilt, uneven light and
a shadow, blur, JPEG, a third downscaled by a messaging app to ~1600 px), and compares them: slips
located, phantom slips (a slip reported where none lies, or assembled from markers of several slips),
fields right scanned and photographed, wrong fields accepted.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scanner.pipeline import ScanOptions, scan_page, scan_paths  # noqa: E402
from scanner.reader import make_reader  # noqa: E402
from scanner.source import Page  # noqa: E402
from scanner.synth import fonts  # noqa: E402
from scanner.synth.pen import ALL_WAYS, MARK_WAYS, PEN_DOT_WAYS, mark_kind  # noqa: E402
from scanner.synth.photo import photograph  # noqa: E402
from scanner.synth.slip import PageStyle, SlipStyle, draw_slip, render_page  # noqa: E402
from scanner.synth.strokes import FORM_NAMES  # noqa: E402
from scanner.synth.values import random_values  # noqa: E402
from scanner.template import load_template  # noqa: E402
from scanner.train import mnist  # noqa: E402
from scanner.train.cells import REAL_DIGIT_EVAL, load_real_digits, part_label  # noqa: E402


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
    cpu_seconds: float = 0.0
    real_digits: int = 0
    real_digits_right: int = 0
    jokers: dict = field(default_factory=lambda: {way: [0, 0] for way in ALL_WAYS})  # way -> [found, total]
    joker_false: int = 0
    false_kinds: dict = field(default_factory=lambda: {"circle": 0, "dot": 0, "tick": 0})
    phantoms: int = 0  # boxes left empty but read as written
    forms: dict = field(default_factory=lambda: {ch: [0, 0] for ch in FORM_NAMES})  # char -> [right, total]
    wrong_examples: list = field(default_factory=list)
    confusions: Counter = field(default_factory=Counter)  # (written, read) -> boxes, fields read at their length


def score_slip(tally: Tally, truth: dict, jokers: dict, marks: dict, reading, real: bool, forms: dict) -> None:
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
        tally.phantoms += max(0, len(f.chars) - len(text))
        if len(f.text) == len(text):
            tally.confusions.update((a, b) for a, b in zip(text, f.text) if a != b)
            for i, ch in enumerate(text):
                if forms.get((name, i)) == ch:
                    tally.forms[ch][1] += 1
                    tally.forms[ch][0] += f.text[i] == ch
        want = set(jokers.get(name, []))
        got = set(f.jokers)
        for i in want:
            way = marks.get((name, i))
            if way:
                tally.jokers[way][1] += 1
                tally.jokers[way][0] += i in got and i < len(f.chars) and f.chars[i].joker == mark_kind(way)
        tally.joker_false += len(got - want)
        for i in got - want:
            if i < len(f.chars) and f.chars[i].joker in tally.false_kinds:
                tally.false_kinds[f.chars[i].joker] += 1
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
    ap.add_argument("--fonts", default="held_out", choices=["held_out", "calibration", "validation", "train"],
                    help="the split's Debian fonts and its fetched @fontsource faces (scanner/synth/fontsource.py)")
    ap.add_argument("--digits", default="mnist", choices=["mnist", "sklearn"],
                    help="real digits written on half the pages: MNIST's test part, or load_digits[1300:]")
    ap.add_argument("--continental-share", type=float, default=0.3,
                    help="share of 1 4 7 L Z written in continental forms (held-out drawings)")
    ap.add_argument("--overrun-share", type=float, default=0.1, help="share of letters running into the box lines")
    ap.add_argument("--finetune-demo", action="store_true",
                    help="simulate arbiter corrections on one held-out hand, fine-tune, and compare")
    ap.add_argument("--pen-dots", action="store_true",
                    help="jokers also marked with ballpoint dots (0.6-1.0 mm, apart from or touching the letter)")
    ap.add_argument("--photos", action="store_true",
                    help="the same slips scanned and photographed with a phone on a table: compare them")
    ap.add_argument("--workers", type=int, default=2,
                    help="the pages also saved as PNG files and scanned from them by this many processes, "
                         "timed from files to readings (1: not)")
    args = ap.parse_args()
    args.writers = fonts.writers(args.fonts)  # the split's Debian fonts and its fetched @fontsource faces
    args.faces = fonts.faces_note(len(args.writers.groups), len(args.writers.missing))  # for the printouts
    if args.finetune_demo:
        return finetune_demo(args)
    fonts.warn_unfetched(args.writers, args.fonts)
    if args.photos:
        return photo_benchmark(args)

    t = load_template(args.template)
    reader = make_reader(args.reader, args.model)
    with tempfile.TemporaryDirectory() as folder:
        saved = Path(folder) if args.workers > 1 else None
        tally, scan_seconds, _ = run(args, reader, t, args.writers.paths, args.seed, args.slips, saved=saved)
        _report(tally, scan_seconds, reader.threshold, args)
        if saved is not None:
            print(_speed_in_workers(sorted(saved.iterdir()), args, t))
    return 0


def _speed_in_workers(files: list[Path], args, t) -> str:
    """The saved pages scanned again as the scan command scans a pile: files in, readings out, by
    `args.workers` processes, their start included."""
    t0 = time.perf_counter()
    slips = sum(1 for r in scan_paths(files, ScanOptions(reader=args.reader, model=args.model, templates=(t,),
                                                     workers=args.workers))
                if r.slip_box is not None)
    seconds = time.perf_counter() - t0
    return (f"speed, {args.workers} workers  {slips / seconds:.1f} slips/s wall ({slips} slips from {len(files)} PNG "
            f"files to readings, the processes' start included)")


def real_digits(args) -> tuple[np.ndarray, np.ndarray]:
    """The real handwritten digits the benchmark writes (`mnist.part_for` the hands)."""
    if getattr(args, "digits", "mnist") != "mnist":
        return load_real_digits(REAL_DIGIT_EVAL)
    return mnist.load_as_read(mnist.part_for(args.fonts))  # the truth is what the ink shows


def digits_label(args) -> str:
    """How the printed figures name the digits `real_digits` wrote."""
    if getattr(args, "digits", "mnist") != "mnist":
        return f"{part_label(REAL_DIGIT_EVAL)}, never trained on"
    part = mnist.part_for(args.fonts)
    return mnist.label(part) + mnist.as_read_note(part) + (", trained on" if part == "train" else ", never trained on")


def _ways(args) -> tuple[str, ...]:
    """The ways joker marks are drawn, one drawn uniformly for each joker."""
    return MARK_WAYS + PEN_DOT_WAYS if getattr(args, "pen_dots", False) else MARK_WAYS


def run(args, reader, t, font_paths, seed: int, slips: int, real_share_pages: bool = True, saved: Path | None = None):
    """Render, scan and score `slips` slips; returns the tally and the readings with their truths.
    With `saved`, each page is also written there as a PNG file."""
    rng = np.random.default_rng(seed)
    digits, labels = real_digits(args)
    tally = Tally()
    scan_seconds = 0.0
    kept = []
    pages = (slips + args.per_page - 1) // args.per_page
    for p in range(pages):
        n = min(args.per_page, slips - p * args.per_page)
        real = real_share_pages and p % 2 == 0
        style = SlipStyle(fonts=list(font_paths), real_digits=digits, real_digit_labels=labels,
                          real_digit_share=1.0 if real else 0.0, continental_share=args.continental_share,
                          continental_set="held_out", overrun_share=args.overrun_share)
        truths, images, drawings = [], [], []
        for _ in range(n):
            values, jokers = random_values(t, rng)
            pool = _ways(args)
            ways = {(f, i): pool[rng.integers(len(pool))] for f, idx in jokers.items() for i in idx}
            drawing = draw_slip(t, values, rng, style, jokers, marks=ways)
            images.append(drawing.image)
            truths.append((values, jokers))
            drawings.append(drawing)
        photo = rng.random() < args.photo_share
        page_img = render_page(images, rng, PageStyle(photo=photo, jpeg_quality=85 if photo else None))
        if saved is not None:
            cv2.imwrite(str(saved / f"page{p:05d}.png"), page_img, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        t0, c0 = time.perf_counter(), time.process_time()
        readings = scan_page(Page(Path(f"page{p}"), 1, page_img), reader, args.reader, (t,))
        scan_seconds += time.perf_counter() - t0
        tally.cpu_seconds += time.process_time() - c0
        kept += _score_page(tally, readings, truths, drawings, page_img.shape, n, real)
    return tally, scan_seconds, kept


@dataclass
class PhotoTally:
    """What the phone photos add to a tally: slips found where they lie, and slips found where none lies."""

    photos: int = 0
    downscaled: int = 0
    phantoms: int = 0  # readings of a slip where none lies, or not matching the slip's own corners
    missed_downscaled: int = 0
    fields_missed: int = 0  # written fields of slips not located
    seconds: float = 0.0
    marker_px: list = field(default_factory=list)


def _slip_of(reading, outlines: list[np.ndarray]) -> int | None:
    """Index of the slip whose own corners (TL, TR, BR, BL) the reading's outline matches, else None."""
    if reading.slip_box is None:
        return None
    box = np.array(reading.slip_box, np.float64)
    for k, o in enumerate(outlines):
        diag = float(np.linalg.norm(o[2] - o[0]))
        if np.linalg.norm(box - o, axis=1).max() < 0.06 * diag:
            return k
    return None


def photo_benchmark(args) -> int:
    """The same slips scanned and photographed: located, phantom slips, fields right, wrong fields accepted."""
    t = load_template(args.template)
    font_paths = args.writers.paths
    reader = make_reader(args.reader, args.model)
    rng = np.random.default_rng(args.seed)
    digits, labels = real_digits(args)
    scanned, photographed, extra = Tally(), Tally(), PhotoTally()
    scan_seconds = 0.0
    t_fields = {f.name for f in t.fields}
    pages = (args.slips + args.per_page - 1) // args.per_page
    for p in range(pages):
        n = min(args.per_page, args.slips - p * args.per_page)
        real = p % 2 == 0
        style = SlipStyle(fonts=list(font_paths), real_digits=digits, real_digit_labels=labels,
                          real_digit_share=1.0 if real else 0.0, continental_share=args.continental_share,
                          continental_set="held_out", overrun_share=args.overrun_share)
        truths, drawings = [], []
        for _ in range(n):
            values, jokers = random_values(t, rng)
            pool = _ways(args)
            ways = {(f, i): pool[rng.integers(len(pool))] for f, idx in jokers.items() for i in idx}
            drawings.append(draw_slip(t, values, rng, style, jokers, marks=ways))
            truths.append((values, jokers))
        images = [d.image for d in drawings]
        page_img = render_page(images, rng, PageStyle())
        t0 = time.perf_counter()
        readings = scan_page(Page(Path(f"page{p}"), 1, page_img), reader, args.reader, (t,))
        scan_seconds += time.perf_counter() - t0
        _score_page(scanned, readings, truths, drawings, page_img.shape, n, real)
        photo = photograph(images, rng)
        extra.photos += 1
        extra.downscaled += photo.downscaled
        extra.marker_px.append(photo.marker_px)
        t0 = time.perf_counter()
        readings = scan_page(Page(Path(f"photo{p}.jpg"), 1, photo.image), reader, args.reader, (t,))
        extra.seconds += time.perf_counter() - t0
        matched: dict[int, object] = {}
        for r in readings:
            if r.slip_box is None:
                continue
            k = _slip_of(r, photo.outlines)
            if k is None or k in matched:
                extra.phantoms += 1
                continue
            matched[k] = r
        for k in range(n):
            values, jokers = truths[k]
            if k not in matched:
                photographed.slips += 1
                photographed.slips_missed += 1
                extra.missed_downscaled += photo.downscaled
                extra.fields_missed += sum(1 for name, text in values.items() if text and name in t_fields)
                continue
            score_slip(photographed, values, jokers, drawings[k].marks, matched[k], real, drawings[k].forms)
        print(f"photo {p + 1}/{pages}: located {photographed.slips - photographed.slips_missed}/{photographed.slips}, "
              f"phantoms {extra.phantoms}, fields right scanned {scanned.fields_right}/{scanned.fields} photographed "
              f"{photographed.fields_right}/{photographed.fields + extra.fields_missed}, accepted wrong "
              f"{scanned.accepted_wrong}/{photographed.accepted_wrong}", file=sys.stderr, flush=True)
    _photo_report(scanned, photographed, extra, scan_seconds, reader.threshold, args)
    return 0


def _photo_report(scanned: Tally, photographed: Tally, extra: PhotoTally, scan_seconds: float, threshold: float,
                  args) -> None:
    pct = lambda a, b: f"{100.0 * a / b:.2f}%" if b else "n/a"  # noqa: E731
    located = photographed.slips - photographed.slips_missed
    print(f"reader {args.reader}, template {args.template}, fonts {args.fonts}{args.faces}, seed {args.seed}, "
          f"threshold {threshold:.6f}")
    print(f"phone photos        {extra.photos} ({extra.downscaled} downscaled by a messaging app); marker side at "
          f"the photo's centre {min(extra.marker_px):.0f}-{max(extra.marker_px):.0f} px (median {np.median(extra.marker_px):.0f})")
    print(f"slips located       scanned {scanned.slips - scanned.slips_missed}/{scanned.slips}; photographed "
          f"{located}/{photographed.slips} ({pct(located, photographed.slips)}; "
          f"{extra.missed_downscaled} missed on downscaled photos)")
    print(f"phantom slips       {extra.phantoms} (photos)")
    for label, tl, lost in (("scanned", scanned, 0), ("photographed", photographed, extra.fields_missed)):
        print(f"{label:<13} fields right {pct(tl.fields_right, tl.fields + lost)} of {tl.fields + lost} (a slip not "
              f"located counts its fields wrong; {pct(tl.fields_right, tl.fields)} of located slips); characters "
              f"{pct(tl.chars - tl.char_errors, tl.chars)}; accepted {pct(tl.accepted, tl.fields)}, "
              f"wrong among them {tl.accepted_wrong}; false marks {tl.joker_false}")
        for ex in tl.wrong_examples:
            print(f"  accepted but wrong: {ex}")
    dots = [photographed.jokers[w] for w in ALL_WAYS]
    print(f"marks found         photographed {sum(f for f, _ in dots)}/{sum(n for _, n in dots)}; scanned "
          f"{sum(f for f, _ in (scanned.jokers[w] for w in ALL_WAYS))}/{sum(n for _, n in (scanned.jokers[w] for w in ALL_WAYS))}")
    print(f"speed               scanned {scanned.slips / max(scan_seconds, 1e-9):.1f} slips/s; photographed "
          f"{photographed.slips / max(extra.seconds, 1e-9):.1f} slips/s (wall, scan only)")


def finetune_demo(args) -> int:
    """Arbiters review the non-accepted fields of one hand; fine-tune on their corrections; re-measure."""
    import tempfile

    from scanner.reader import DEFAULT_MODEL, OnnxReader
    from scanner.samples import save_correction
    from scanner.train.recipe import TrainConfig, finetune_reader

    t = load_template(args.template)
    hand = [p for p in fonts.resolve(fonts.HELD_OUT).paths if "humor" in p.name.lower()]
    base = args.model or DEFAULT_MODEL
    reader = OnnxReader(base)
    _, _, reviewed = run(args, reader, t, hand, args.seed, args.slips, real_share_pages=False)
    with tempfile.TemporaryDirectory() as tmp:
        samples = Path(tmp) / "corrections"
        stored = sum(save_correction(samples, r, name, truth) is not None
                     for r, name, truth in reviewed if not r.fields[name].accepted)
        print(f"arbiter corrections stored: {stored} fields from {args.slips} slips of one hand")
        tuned = Path(tmp) / "tuned.onnx"
        finetune_reader(base, samples, tuned, TrainConfig(calibration_slips=100), log=lambda s: None)
        tuned_reader = OnnxReader(tuned)
        before = run(args, reader, t, hand, args.seed + 1, args.slips, real_share_pages=False)
        after = run(args, tuned_reader, t, hand, args.seed + 1, args.slips, real_share_pages=False)
    for label, (tally, secs, _), thr in (("base", before, reader.threshold), ("fine-tuned", after, tuned_reader.threshold)):
        print(f"--- {label} model, new slips of the same hand")
        _report(tally, secs, thr, args)
    return 0


def _score_page(tally, readings, truths, drawings, shape, n, real):
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
    kept = []
    for k in range(n):
        values, jokers = truths[k]
        if k not in matched:
            tally.slips += 1
            tally.slips_missed += 1
            continue
        score_slip(tally, values, jokers, drawings[k].marks, matched[k], real, drawings[k].forms)
        kept += [(matched[k], name, text) for name, text in values.items() if text and name in matched[k].fields]
    return kept


def _report(tally: Tally, seconds: float, threshold: float, args) -> None:
    pct = lambda a, b: f"{100.0 * a / b:.2f}%" if b else "n/a"  # noqa: E731
    print(f"reader {args.reader}, template {args.template}, fonts {args.fonts}{args.faces}, seed {args.seed}")
    print(f"slips               {tally.slips} ({tally.slips_missed} not located)")
    print(f"characters right    {pct(tally.chars - tally.char_errors, tally.chars)} of {tally.chars}")
    print(f"fields right        {pct(tally.fields_right, tally.fields)} of {tally.fields}")
    print(f"slips all right     {pct(tally.slips_right, tally.slips)} (fields and joker marks)")
    print(f"real digits right   {pct(tally.real_digits_right, tally.real_digits)} of {tally.real_digits} "
          f"({digits_label(args)})")
    print(f"threshold           {threshold:.6f}")
    print(f"fields accepted     {pct(tally.accepted, tally.fields)}; errors among them "
          f"{pct(tally.accepted_wrong, tally.accepted)} ({tally.accepted_wrong})")
    for way, (found, total) in tally.jokers.items():
        if way in PEN_DOT_WAYS and not total:
            continue
        print(f"mark {way:<16}   found {found}/{total} ({pct(found, total)})")
    print(f"false marks         {tally.joker_false} ({', '.join(f'{k} {n}' for k, n in tally.false_kinds.items())})")
    print(f"phantom letters     {tally.phantoms}")
    for ch, (right, total) in tally.forms.items():
        print(f"form {FORM_NAMES[ch]:<16}   right {right}/{total} ({pct(right, total)})")
    print(f"speed               {tally.slips / seconds:.1f} slips/s wall (scan only, one process); "
          f"{tally.slips / max(tally.cpu_seconds, 1e-9):.1f} slips per CPU-second")
    common = ", ".join(f"{a}→{b} {n}" for (a, b), n in tally.confusions.most_common(12))
    print(f"commonest misreads  {common or 'none'} (written→read, boxes)")
    for ex in tally.wrong_examples:
        print(f"  accepted but wrong: {ex}")


if __name__ == "__main__":
    sys.exit(main())

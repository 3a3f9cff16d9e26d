"""Scanner commands: read slips, check and print templates, train the reader."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from exitcodes import ExitCode


def _pdf_dpi(value: float) -> float:
    """Checked before any file is opened: a resolution no page can be read at is the option's fault."""
    from scanner.source import check_pdf_dpi

    problem = check_pdf_dpi(value)
    if problem:
        raise click.BadParameter(problem, param_hint="'--pdf-dpi'")
    return value


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="JSON Lines file: one reading per slip.")
@click.option("--reader", type=click.Choice(["cnn", "tesseract"]), default="cnn", show_default=True)
@click.option("--model", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="ONNX model (its .json sidecar beside it); default: the shipped one.")
@click.option("--template", "templates", multiple=True, type=click.Path(path_type=Path),
              help="Template file(s) to recognise; default: all built-in templates.")
@click.option("--pdf-dpi", type=float, default=200.0, show_default=True, callback=lambda _c, _p, v: _pdf_dpi(v),
              help="Resolution PDF pages are rendered at (50 to 600).")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Processes scanning pages side by side (default: one per core; a single image: one).")
def scan(paths: tuple[Path, ...], out: Path, reader: str, model: Path | None, templates: tuple[Path, ...],
         pdf_dpi: float, workers: int | None) -> None:
    """Read every slip in PATHS (images, PDFs, folders) into readings."""
    import os

    from scanner.pipeline import ScanOptions, scan_paths
    from scanner.source import expand
    from scanner.template import builtin_templates, load_template
    from scanner.workers import workers_for

    tpls = tuple(load_template(t) for t in templates) if templates else builtin_templates()
    files = expand(list(paths))
    options = ScanOptions(reader=reader, model=model, templates=tpls, pdf_dpi=pdf_dpi,
                          workers=workers or workers_for(files, os.cpu_count() or 1))
    slips = accepted = total_fields = failed = 0
    seen: set[str] = set()
    with open(out, "w", encoding="utf-8") as fh, click.progressbar(length=len(files), label="scanning",
                                                                   file=sys.stderr) as bar:
        for r in scan_paths(files, options):
            if r.source not in seen:  # the readings come file by file, in order
                seen.add(r.source)
                bar.update(1)
            fh.write(r.to_json() + "\n")
            if r.error:
                failed += 1
                click.echo(f"\nerror: {r.error} (skipped, batch goes on)", err=True)
            elif r.template_id:
                slips += 1
                total_fields += len(r.fields)
                accepted += sum(f.accepted for f in r.fields.values())
    share = accepted / total_fields if total_fields else 0.0
    click.echo(f"{slips} slips from {len(files)} files -> {out}; {share:.1%} of fields accepted"
               + (f"; {failed} files unreadable" if failed else ""))
    if failed:
        sys.exit(ExitCode.CHECK_FAILED)


@click.group()
def template() -> None:
    """Slip templates: check and print."""


@template.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def template_check(files: tuple[Path, ...]) -> None:
    """Validate template files against templates/slip.schema.json."""
    from scanner.template import load_template

    for f in files:
        t = load_template(f)
        click.echo(f"{f}: ok ({t.id}, {len(t.fields)} fields)")


@template.command("print")
@click.argument("name", required=False, default=None)
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--count", type=click.IntRange(0, 10_000), default=0, help="Blank slips (default: one full sheet).")
@click.option("--game", "game_id", type=int, default=None,
              help="Pre-fill from this stored game's seating (with --rounds): one slip per player per round.")
@click.option("--rounds", "rounds_text", default=None, help="Rounds to pre-fill, e.g. 1-15 or 1-5,8.")
@click.option("--db", envvar="FLUTURAS_DB", default="fluturas.db", show_default=True,
              help="The tournament store (with --game / --rounds).")
def template_print(name: str | None, out: Path, count: int, game_id: int | None, rounds_text: str | None,
                   db: str) -> None:
    """Printable A4 PDF of slips (template id, stem or file), with cutting marks; with --rounds,
    pre-filled (TUR, MASA, name, QR code) from the stored seating of the game (default: the newest)."""
    if rounds_text is None and game_id is None:
        from scanner.printing import render_sheets
        from scanner.template import load_template

        t = load_template(name or "duplicat")
        pages = render_sheets(t, out, count)
        click.echo(f"{out}: {pages} page(s) of {t.id}")
        return
    from arbiter.results.prefill import print_slip_set

    slips, pages, form = print_slip_set(db, game_id, rounds_text or "1", out, name)
    click.echo(f"{out}: {slips} pre-filled slips on {pages} page(s) of {form}")


@click.group()
def reader() -> None:
    """The handwriting reader model: train and fine-tune (needs the [train] extra)."""


@reader.command("train")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Default: the shipped model, scanner/models/reader.onnx.")
@click.option("--seed", type=int, default=None)
@click.option("--epochs", type=int, default=None)
@click.option("--per-class", type=int, default=None, help="Synthetic training cells per class.")
@click.option("--lr", "learning_rate", type=float, default=None)
@click.option("--batch-size", type=int, default=None)
@click.option("--init-from", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Continue from these torch weights (.pt) on freshly generated cells.")
@click.option("--slips", "train_slips", type=int, default=None,
              help="Also train on the cells the scanner cuts from this many slips in the training fonts.")
@click.option("--schedule", type=click.Choice(["onecycle", "cosine"]), default=None)
@click.option("--real-digit-share", type=float, default=None,
              help="Share of digit cells written with real handwritten digits (scikit-learn and MNIST training parts).")
@click.option("--monoline-share", type=click.FloatRange(0.0, 1.0), default=None,
              help="Share of font glyphs redrawn along their centre line with a round pen, as people print.")
@click.option("--real-digit-distortion", type=click.FloatRange(0.0, 1.0), default=None,
              help="Share of real handwritten digits drawn again as another writer might (slant, pen, wobble).")
@click.option("--writers-apart-digits", is_flag=True, default=None,
              help="Also train on MNIST's test set, whose writers wrote no calibration or held-out digit.")
@click.option("--arch", type=click.Choice(["charnet", "wide"]), default=None,
              help="Network shape (scanner/train/model.py); --init-from weights must be of the same shape.")
@click.option("--script-weight", type=click.FloatRange(0.0, 1.0), default=None,
              help="How often each script face is drawn against a printing one (default 1: as often).")
@click.option("--stroke-share", type=click.FloatRange(0.0, 1.0), default=None,
              help="Share of the drawn letters printed stroke by stroke by made-up writers instead of a face.")
@click.option("--threads", type=int, default=1, show_default=True)
def reader_train(out: Path, seed: int | None, epochs: int | None, per_class: int | None, learning_rate: float | None,
                 batch_size: int | None, init_from: str | None, train_slips: int | None, schedule: str | None,
                 real_digit_share: float | None, monoline_share: float | None,
                 real_digit_distortion: float | None, writers_apart_digits: bool | None, arch: str | None,
                 script_weight: float | None, stroke_share: float | None, threads: int) -> None:
    """Train the character CNN on synthetic handwriting + real digits, calibrate, export ONNX."""
    from dataclasses import replace

    from scanner.train.recipe import TrainConfig, train_reader

    from scanner.reader import DEFAULT_MODEL

    out = out or DEFAULT_MODEL
    cfg = TrainConfig(threads=threads)
    given = (("seed", seed), ("epochs", epochs), ("n_per_class", per_class), ("learning_rate", learning_rate),
             ("batch_size", batch_size), ("init_from", init_from), ("train_slips", train_slips),
             ("schedule", schedule), ("real_digit_share", real_digit_share),
             ("monoline_share", monoline_share), ("real_digit_distortion", real_digit_distortion),
             ("writers_apart_digits", writers_apart_digits), ("arch", arch), ("script_weight", script_weight),
             ("stroke_share", stroke_share))
    cfg = replace(cfg, **{k: v for k, v in given if v is not None})
    meta = train_reader(out, cfg, log=lambda s: click.echo(s, err=True))
    click.echo(f"{out}: threshold {meta.threshold:.6f}, metrics {meta.metrics}")


@reader.command("train-digits")
@click.option("--init-from", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The character reader's torch weights (.pt) the digit reader starts from, or a digit reader's "
                   "to teach it further; without it, random weights of --arch.")
@click.option("--arch", type=click.Choice(["charnet", "wide"]), default=None,
              help="The shape of a digit reader started from random weights (default charnet).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Default: the shipped digit reader, scanner/models/digits.onnx.")
@click.option("--seed", type=int, default=None)
@click.option("--epochs", type=int, default=None)
@click.option("--per-digit", type=int, default=None, help="Drawn training cells per digit.")
@click.option("--lr", "learning_rate", type=float, default=None)
@click.option("--slips", "train_slips", type=int, default=None,
              help="Also train on the digit boxes the scanner cuts from this many slips in the training faces.")
@click.option("--stroke-share", type=click.FloatRange(0.0, 1.0), default=None,
              help="Share of the faces' digits printed stroke by stroke by made-up writers instead.")
@click.option("--threads", type=int, default=2, show_default=True)
def reader_train_digits(init_from: str | None, arch: str | None, out: Path | None, seed: int | None, epochs: int | None,
                        per_digit: int | None, learning_rate: float | None, train_slips: int | None,
                        stroke_share: float | None, threads: int) -> None:
    """Teach the reader again on digits alone, for the score and table boxes; export ONNX."""
    from dataclasses import replace

    from scanner.reader import DEFAULT_DIGITS
    from scanner.train.digits import DigitConfig, train_digit_reader

    out = out or DEFAULT_DIGITS
    if arch and init_from:
        raise click.UsageError("--arch: the shape of a reader started from random weights; --init-from's weights have theirs")
    given = (("seed", seed), ("epochs", epochs), ("n_per_digit", per_digit), ("learning_rate", learning_rate),
             ("train_slips", train_slips), ("stroke_share", stroke_share), ("arch", arch))
    cfg = replace(DigitConfig(init_from=init_from, threads=threads), **{k: v for k, v in given if v is not None})
    meta = train_digit_reader(out, cfg, log=lambda s: click.echo(s, err=True))
    click.echo(f"{out}: temperature {meta.temperature:.3f}, metrics {meta.metrics}")


@reader.command("calibrate")
@click.option("--model", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="ONNX model whose sidecar JSON is rewritten; default: the shipped one.")
@click.option("--slips", type=click.IntRange(min=1), default=400, show_default=True)
@click.option("--target-error", type=float, default=0.0, show_default=True,
              help="Error rate allowed among accepted fields on the calibration slips.")
def reader_calibrate(model: Path | None, slips: int, target_error: float) -> None:
    """Refit temperature and acceptance threshold on slips written in the calibration fonts."""
    from scanner.reader import DEFAULT_MODEL
    from scanner.train.recipe import TrainConfig, recalibrate

    cfg = TrainConfig(calibration_slips=slips, target_error=target_error)
    meta = recalibrate(model or DEFAULT_MODEL, cfg, log=lambda s: click.echo(s, err=True))
    click.echo(f"threshold {meta.threshold:.6f}, temperature {meta.temperature:.3f}")


@reader.command("combine")
@click.argument("members", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--slips", type=click.IntRange(min=1), default=400, show_default=True, help="Calibration slips.")
def reader_combine(members: tuple[Path, ...], out: Path, slips: int) -> None:
    """Read with several trained models at once (their mean), calibrate, export one ONNX model."""
    from scanner.train.recipe import TrainConfig, combine_readers

    meta = combine_readers(list(members), out, TrainConfig(calibration_slips=slips),
                           log=lambda s: click.echo(s, err=True))
    click.echo(f"{out}: threshold {meta.threshold:.6f}, metrics {meta.metrics}")


@reader.command("quantize")
@click.argument("model", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--slips", type=click.IntRange(min=1), default=400, show_default=True, help="Calibration slips.")
def reader_quantize(model: Path, out: Path, slips: int) -> None:
    """Store a trained reader in 8-bit integers (about three times faster), calibrated again."""
    from scanner.train.quantize import quantize_reader
    from scanner.train.recipe import TrainConfig

    meta = quantize_reader(model, out, TrainConfig(calibration_slips=slips), log=lambda s: click.echo(s, err=True))
    click.echo(f"{out}: threshold {meta.threshold:.6f}, temperature {meta.temperature:.3f}")


@reader.command("finetune")
@click.argument("samples", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--base", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Model to start from; default: the shipped one.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--epochs", type=int, default=3, show_default=True)
@click.option("--threads", type=int, default=1, show_default=True)
def reader_finetune(samples: Path, base: Path, out: Path, epochs: int, threads: int) -> None:
    """Retrain on arbiter corrections stored in SAMPLES (see scanner.samples), recalibrate, export."""
    from scanner.reader import DEFAULT_MODEL
    from scanner.train.recipe import TrainConfig, finetune_reader

    meta = finetune_reader(base or DEFAULT_MODEL, samples, out, TrainConfig(threads=threads), epochs,
                           log=lambda s: click.echo(s, err=True))
    click.echo(f"{out}: threshold {meta.threshold:.6f}, metrics {meta.metrics}")


COMMANDS = [scan, template, reader]

"""Training and fine-tuning recipe of the character CNN. Needs the optional [train] extra (torch, onnx).

Everything that decides the result (seed, sample counts, epochs, font split, real-digit split) is in
TrainConfig and copied into the model's sidecar JSON, so the committed model can be rebuilt.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from scanner.calibration import choose_threshold, fit_temperature, missing_classes, simulate_fields, softmax
from scanner.errors import TrainingError
from scanner.reader import ReaderMeta, meta_path
from scanner.synth import fonts, fontsource
from scanner.train import cells, mnist


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 20261122
    n_per_class: int = 1200
    calibration_slips: int = 400
    epochs: int = 4
    batch_size: int = 256
    learning_rate: float = 4e-3
    threads: int = 1  # intra-op threads; on a shared 2-core machine a second thread mostly waits
    workers: int = 2  # processes generating cells
    target_error: float = 0.0
    calibration_fields: int = 100000  # many: with a 0.0 target the threshold sits above the worst wrong field seen
    init_from: str | None = None  # torch weights (.pt) to continue from, with fresh cells (new seed)
    train_slips: int = 0  # slips in the training fonts rendered and cut by the real scanner, added to the cells
    schedule: str = "onecycle"  # learning-rate schedule: onecycle, or cosine (warm-up then cosine decay)
    real_digit_share: float = 0.25  # share of digit cells written with real handwritten digits
    monoline_share: float = 0.0  # share of font glyphs redrawn with a round pen (scanner.synth.monoline)
    real_digit_distortion: float = 0.0  # share of real digits drawn again as another writer (cells.REAL_DIGIT_STYLE)
    writers_apart_digits: bool = False  # also MNIST's test set, by writers of no calibration or held-out digit
    arch: str = "charnet"  # scanner.train.model.ARCHITECTURES
    script_weight: float = 1.0  # how often a script face is drawn against a printing family (fonts.writers)
    stroke_share: float = 0.0  # share of font cells printed stroke by stroke instead (synth.stroke_writers)


def _require_torch():
    try:
        import torch
    except ImportError as exc:
        raise TrainingError("training needs the [train] extra (torch, onnx, scikit-learn): pip install -e '.[train]'") from exc
    return torch


def training_digits(writers_apart: bool = False) -> list[cells.RealDigits]:
    """Real handwritten digits training may see: scikit-learn's training part and MNIST's
    (`mnist.training_parts`)."""
    return [cells.load_real_digits(cells.REAL_DIGIT_TRAIN), *mnist.training_parts(writers_apart)]


def training_digit_labels(writers_apart: bool) -> list[str]:
    """How `training_digits` is named in a model's recipe."""
    return [f"sklearn {cells.part_label(cells.REAL_DIGIT_TRAIN)}", *mnist.training_labels(writers_apart)]


def _cells_job(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    split, n, seed, with_real, recipe, writers_apart, classes, script_weight = args
    real = training_digits(writers_apart) if with_real else None
    font_set = fonts.writers(split, script_weight)
    return cells.make_cells(list(font_set.paths), n, seed, recipe,
                            real_digits=real, weights=font_set.weights(), classes=classes)


def cell_recipe(cfg: TrainConfig) -> cells.CellRecipe:
    """How the training cells of `cfg` are drawn."""
    return cells.CellRecipe(real_digit_share=cfg.real_digit_share, monoline_share=cfg.monoline_share,
                            real_digit_distortion=cfg.real_digit_distortion, stroke_share=cfg.stroke_share)


def build_cells(split: str, n_per_class: int, seed: int, with_real: bool, workers: int,
                recipe: cells.CellRecipe = cells.CellRecipe(),
                writers_apart: bool = False, classes: str = cells.CLASSES,
                script_weight: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Generate cells of `classes` in `workers` processes, each with its own seed so the set is reproducible."""
    per = [n_per_class // workers + (1 if i < n_per_class % workers else 0) for i in range(workers)]
    jobs = [(split, n, seed * 100 + i, with_real, recipe, writers_apart, classes, script_weight)
            for i, n in enumerate(per)]
    with get_context("fork").Pool(workers) as pool:
        parts = pool.map(_cells_job, jobs)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _slips_job(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    split, n, seed, writers_apart = args
    from scanner.template import load_template
    from scanner.train.slipcells import slip_cells

    parts = mnist.training_parts(writers_apart)
    real = (np.concatenate([i for i, _ in parts]), np.concatenate([lab for _, lab in parts]))
    return slip_cells(load_template("duplicat"), list(fonts.writers(split).paths), n, seed, real_digits=real)


def build_slip_cells(split: str, n_slips: int, seed: int, workers: int,
                     writers_apart: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Cells cut by the scanner itself from n_slips rendered slips (same distribution as at scan time)."""
    per = [n_slips // workers + (1 if i < n_slips % workers else 0) for i in range(workers)]
    jobs = [(split, n, seed * 100 + 50 + i, writers_apart) for i, n in enumerate(per) if n]
    with get_context("fork").Pool(workers) as pool:
        parts = pool.map(_slips_job, jobs)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def fit(model, x: np.ndarray, y: np.ndarray, cfg: TrainConfig, epochs: int, lr: float, log) -> None:
    torch = _require_torch()
    torch.manual_seed(cfg.seed)
    xt = torch.from_numpy(x[:, None]).float()
    yt = torch.from_numpy(y)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((len(x) + cfg.batch_size - 1) // cfg.batch_size)
    if cfg.schedule == "cosine":
        warm = max(1, steps // 20)
        sched = torch.optim.lr_scheduler.LambdaLR(
            opt, lambda s: (s + 1) / warm if s < warm else 0.5 * (1 + np.cos(np.pi * (s - warm) / max(1, steps - warm))))
    else:
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(cfg.seed)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(x), generator=gen)
        total, t0 = 0.0, time.time()
        for i in range(0, len(x), cfg.batch_size):
            idx = perm[i:i + cfg.batch_size]
            xb = xt[idx]
            shift = torch.randint(-2, 3, (2,), generator=gen)
            xb = torch.roll(xb, shifts=(int(shift[0]), int(shift[1])), dims=(2, 3))
            opt.zero_grad()
            loss = loss_fn(model(xb), yt[idx])
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            step = i // cfg.batch_size
            if step % 50 == 0:
                log(f"  epoch {epoch + 1} step {step}: loss {loss.item():.3f}")
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f} ({time.time() - t0:.0f} s)")


def export_onnx(model, path: Path) -> None:
    torch = _require_torch()
    model.eval()
    dummy = torch.zeros(1, 1, 32, 32)
    torch.onnx.export(model, dummy, str(path), input_names=["cells"], output_names=["logits"],
                      dynamic_axes={"cells": {0: "n"}, "logits": {0: "n"}}, opset_version=17,
                      dynamo=False)


def logits_of(model, x: np.ndarray) -> np.ndarray:
    torch = _require_torch()
    model.eval()
    with torch.no_grad():
        return torch.cat([model(torch.from_numpy(x[i:i + 1024, None]).float())
                          for i in range(0, len(x), 1024)]).numpy()


def calibration_cells(cfg: TrainConfig) -> tuple[np.ndarray, np.ndarray]:
    """Cells the scanner cut from slips written in the calibration fonts (never trained on)."""
    from scanner.template import load_template
    from scanner.train.slipcells import slip_cells

    return slip_cells(load_template("duplicat"), list(fonts.writers("calibration").paths),
                      cfg.calibration_slips, cfg.seed + 1, real_digits=mnist.load("calibration"))


# What a recipe with stroke_share > 0 also drew from, besides the faces it names.
STROKE_WRITERS = ("Hershey Simplex Roman capitals and digits (scanner/synth/bundled/hershey) and the printed "
                  "variants of scanner/synth/stroke_writers.py, drawn by made-up writers")


def training_faces() -> dict:
    """The faces a training run drew in, as a recipe records them."""
    return {"fonts_train": fonts.split_entries(fonts.TRAIN), "fontsource_train": list(fontsource.TRAIN)}


def calibration_faces() -> dict:
    """The faces a calibration or check drew in, as a recipe records them."""
    return {"fonts_calibration": fonts.split_entries(fonts.CALIBRATION),
            "fontsource_calibration": list(fontsource.CALIBRATION)}


def calibration_data() -> dict:
    """What a calibration saw, as a recipe records it."""
    return {**calibration_faces(), "real_digits_calibration": mnist.label("calibration")}


def calibrate_logits(logits: np.ndarray, labels: np.ndarray, cfg: TrainConfig, log) -> tuple[float, float, dict]:
    """Temperature on the cells, then the field threshold on fields assembled from those cells.
    Calibration slips too few to hold every sign are refused in one line (exit 2), not mid-way."""
    missing = missing_classes(labels, cells.CLASSES)
    if missing:
        raise TrainingError(f"--slips {cfg.calibration_slips}: the calibration slips hold no {', '.join(missing)}; "
                            f"calibrate on more slips")
    temperature = fit_temperature(logits, labels)
    probs = softmax(logits, temperature)
    acc = float((probs.argmax(1) == labels).mean())
    samples = simulate_fields(probs, labels, cells.CLASSES, cfg.calibration_fields, cfg.seed + 2)
    threshold = choose_threshold(samples, cfg.target_error)
    accepted = [s for s in samples if s.confidence >= threshold]
    metrics = {"calibration_cells": int(len(labels)),
               "calibration_char_accuracy": round(acc, 4),
               "calibration_field_accuracy": round(float(np.mean([s.correct for s in samples])), 4),
               "calibration_fields_accepted": round(len(accepted) / len(samples), 4)}
    log(f"calibration: chars {acc:.4f}, temperature {temperature:.3f}, threshold {threshold:.6f}, "
        f"accepted {metrics['calibration_fields_accepted']:.3f}")
    return temperature, threshold, metrics


def calibrate(model, cfg: TrainConfig, log) -> tuple[float, float, dict]:
    xc, yc = calibration_cells(cfg)
    return calibrate_logits(logits_of(model, xc), yc, cfg, log)


def recalibrate(model_path: Path, cfg: TrainConfig = TrainConfig(), log=lambda s: None) -> ReaderMeta:
    """Refit temperature and threshold of an exported model (no torch needed) and rewrite its sidecar."""
    from scanner.reader import OnnxReader

    reader = OnnxReader(model_path, with_digits=False)
    xc, yc = calibration_cells(cfg)
    temperature, threshold, metrics = calibrate_logits(reader.logits(xc), yc, cfg, log)
    meta = reader.meta
    meta.temperature, meta.threshold, meta.target_error = temperature, threshold, cfg.target_error
    meta.metrics.update(metrics)
    meta.recipe["calibration"] = f"{cfg.calibration_slips} duplicate slips in the calibration fonts, seed {cfg.seed + 1}"
    meta.recipe.update(calibration_data())  # the faces of this calibration, which may differ from training's
    meta.save(meta_path(model_path))
    return meta


def real_digit_accuracy(model, digits: cells.RealDigits | None = None) -> float:
    imgs, labels = digits if digits is not None else cells.load_real_digits(cells.REAL_DIGIT_EVAL)
    rng = np.random.default_rng(0)
    from scanner import glyph
    from scanner.synth import glyphs

    x = np.stack([glyph.normalise(cells.cell_image(glyphs.real_digit_mask(im), rng)).image for im in imgs])
    pred = logits_of(model, x)[:, 26:].argmax(1)  # restricted to digits, as the digit fields are
    return float((pred == labels).mean())


def train_reader(out: Path, cfg: TrainConfig = TrainConfig(), log=lambda s: None) -> ReaderMeta:
    """Train from scratch, calibrate, export `out` (.onnx) and its sidecar JSON."""
    torch = _require_torch()
    from scanner.train.model import build

    torch.set_num_threads(cfg.threads)
    t0 = time.time()
    x, y = build_cells("train", cfg.n_per_class, cfg.seed, True, cfg.workers, cell_recipe(cfg),
                       cfg.writers_apart_digits, script_weight=cfg.script_weight)
    if cfg.train_slips:
        xs, ys = build_slip_cells("train", cfg.train_slips, cfg.seed, cfg.workers, cfg.writers_apart_digits)
        x, y = np.concatenate([x, xs]), np.concatenate([y, ys])
    log(f"{len(x)} training cells in {time.time() - t0:.0f} s")
    model = build(cfg.arch, len(cells.CLASSES))
    if cfg.init_from:
        model.load_state_dict(torch.load(cfg.init_from, map_location="cpu"))
    fit(model, x, y, cfg, cfg.epochs, cfg.learning_rate, log)
    return _finish(model, out, cfg, {"mode": "train"}, log, time.time() - t0)


def _finish(model, out: Path, cfg: TrainConfig, extra: dict, log, seconds: float) -> ReaderMeta:
    temperature, threshold, metrics = calibrate(model, cfg, log)
    metrics["real_digit_accuracy_eval_split"] = round(real_digit_accuracy(model), 4)
    log(f"real digits ({cells.part_label(cells.REAL_DIGIT_EVAL)}): {metrics['real_digit_accuracy_eval_split']:.4f}")
    metrics["mnist_digit_accuracy_test_part"] = round(real_digit_accuracy(model, mnist.load("test")), 4)
    log(f"MNIST digits (test part): {metrics['mnist_digit_accuracy_test_part']:.4f}")
    metrics["training_seconds"] = round(seconds)
    out.parent.mkdir(parents=True, exist_ok=True)
    export_onnx(model, out)
    torch = _require_torch()
    torch.save(model.state_dict(), out.with_suffix(".pt"))
    meta = ReaderMeta(cells.CLASSES, 32, temperature, threshold, cfg.target_error, recipe_of(cfg, extra), metrics)
    meta.save(meta_path(out))
    return meta


def recipe_of(cfg: TrainConfig, extra: dict) -> dict:
    """A reader's recipe: its settings and every piece of data it saw, by name (`extra` last, so an
    ensemble's union of its members' data replaces the run's own)."""
    return {**asdict(cfg), **training_faces(), "font_split": "scanner/synth/fonts.py",
            "fontsource_split": "scanner/synth/fontsource.py", **calibration_data(),
            "real_digits_train": training_digit_labels(cfg.writers_apart_digits),
            "real_digits_eval": [cells.part_label(cells.REAL_DIGIT_EVAL), mnist.label("test")],
            **({"stroke_writers": STROKE_WRITERS} if cfg.stroke_share else {}), **extra}


def combine_readers(members: list[Path], out: Path, cfg: TrainConfig = TrainConfig(),
                    log=lambda s: None) -> ReaderMeta:
    """One model of several trained readers (`model.Ensemble`), calibrated and exported as one ONNX
    file: the scanner reads it like any other. Each member's own recipe is kept in the sidecar."""
    torch = _require_torch()
    from scanner.train.model import Ensemble, build

    t0 = time.time()
    recipes = [{"model": member.name, **ReaderMeta.load(meta_path(member)).recipe} for member in members]
    shapes = [r.get("arch", "charnet") for r in recipes]
    cfg = replace(cfg, arch=ensemble_arch(shapes), init_from=None, epochs=0)  # refuses before any work
    nets = []
    for member, shape in zip(members, shapes):
        net = build(shape, len(cells.CLASSES))
        net.load_state_dict(torch.load(member.with_suffix(".pt"), map_location="cpu"))
        nets.append(net)
    seen = {key: list(dict.fromkeys(entry for r in recipes for entry in r.get(key, [])))
            for key in ("fonts_train", "fontsource_train", "real_digits_train")}  # what any member trained on
    seen["writers_apart_digits"] = any(r.get("writers_apart_digits", False) for r in recipes)
    if any("stroke_writers" in r for r in recipes):
        seen["stroke_writers"] = STROKE_WRITERS
    return _finish(Ensemble(nets), out, cfg, {"mode": "ensemble", "members": recipes, **seen}, log,
                   time.time() - t0)


def ensemble_arch(members: list[str]) -> str:
    """The shape of an ensemble of these members, as `model.build` reads it: `charnet*2` for members
    of one shape, `charnet+wide` for members of different shapes (a small and a wide reader make
    different mistakes, which is what an ensemble is for). An ensemble is not a member."""
    if any("*" in m or "+" in m for m in members):
        raise TrainingError(f"an ensemble cannot be a member of another: {', '.join(members)}")
    if len(set(members)) == 1:
        return f"{members[0]}*{len(members)}"
    return "+".join(members)


def trained_arch(model_path: Path) -> str:
    """The architecture a shipped model was trained with (models before `arch` was recorded: charnet)."""
    return ReaderMeta.load(meta_path(model_path)).recipe.get("arch", "charnet")


def finetune_reader(base: Path, samples_dir: Path, out: Path, cfg: TrainConfig = TrainConfig(),
                    epochs: int = 3, repeat: int = 20, log=lambda s: None) -> ReaderMeta:
    """Continue training `base` on arbiter corrections (repeated) mixed with fresh synthetic cells,
    so the model learns the local hands without forgetting the rest; then recalibrate."""
    torch = _require_torch()
    from scanner.samples import load_samples
    from scanner.train.model import build

    torch.set_num_threads(cfg.threads)
    t0 = time.time()
    weights = base.with_suffix(".pt")
    if not weights.exists():
        raise TrainingError(f"{weights}: fine-tuning needs the base model's torch weights next to it")
    model = build(trained_arch(base), len(cells.CLASSES))
    model.load_state_dict(torch.load(weights, map_location="cpu"))
    xs, ys = load_samples(samples_dir, cells.CLASSES)
    log(f"{len(xs)} corrected cells from {samples_dir}")
    xr, yr = build_cells("train", max(cfg.n_per_class // 8, 10), cfg.seed + 7, True, cfg.workers,
                         writers_apart=cfg.writers_apart_digits)
    x = np.concatenate([xr, np.repeat(xs, repeat, axis=0)])
    y = np.concatenate([yr, np.repeat(ys, repeat)])
    fit(model, x, y, cfg, epochs, cfg.learning_rate / 5, log)
    return _finish(model, out, cfg, {"mode": "finetune", "base": base.name, "corrected_cells": int(len(xs))},
                   log, time.time() - t0)

"""Training recipe of the dot judge (`scanner/dotjudge.py`). Needs torch and onnx (the [train] extra).

Slips are drawn in the training faces with many joker marks (dots of every way the pen module draws,
and circles and ticks, which are no dot), scanned one per page (a third as phone photos) and cut by
the real scanner: rings are searched and erased first, as at scan time, and every written box left is
one example, labelled by the way its mark was drawn. The judge is checked on slips drawn the same way
in the calibration faces, never trained on; the held-out faces are not touched.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from scanner import dotjudge, glyph
from scanner.fields import PAPER, MarkSearch, context_mm, dropout, slip_gray
from scanner.locate import find_slips, rectify
from scanner.marks import DECIDE, dot_evidence
from scanner.pipeline import PX_PER_MM
from scanner.synth import fonts
from scanner.synth.pen import CIRCLE_WAYS, DOT_WAYS, PEN_DOT_WAYS
from scanner.synth.slip import PageStyle, SlipStyle, draw_slip, render_page
from scanner.synth.values import random_values
from scanner.template import Template, load_template
from scanner.train.recipe import calibration_faces, training_faces

DOTS = DOT_WAYS + PEN_DOT_WAYS


@dataclass(frozen=True)
class DotConfig:
    seed: int = 20261126
    train_slips: int = 3000  # drawn in the training faces
    check_slips: int = 600  # drawn in the calibration faces: the figures of models/dots.json
    epochs: int = 12
    batch_size: int = 128
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    dot_weight: float = 1.0  # a missed dot against a false one, in the loss (a false dot costs a penalty too)
    threads: int = 2
    dot_share: float = 0.6  # of the joker marks drawn: dots; the rest circles (0.25) and ticks
    circle_share: float = 0.25
    jokers_per_word: int = 3  # at most
    overrun_share: float = 0.1
    workers: int = 2
    template: str = "duplicat"


@dataclass
class Examples:
    """One row per written box the dot search looks at: the judge's view, whether a dot was drawn, how
    the box's mark was drawn ('' for none) and the shape rules' score."""

    views: list[np.ndarray] = field(default_factory=list)
    dot: list[int] = field(default_factory=list)
    ways: list[str] = field(default_factory=list)
    rules: list[float] = field(default_factory=list)

    def extend(self, other: "Examples") -> None:
        self.views += other.views
        self.dot += other.dot
        self.ways += other.ways
        self.rules += other.rules


def _marks(values: dict[str, str], t: Template, cfg: DotConfig, rng: np.random.Generator) -> tuple[dict, dict]:
    """Joker indices and the way each mark is drawn, for every letter field of a slip."""
    jokers, ways = {}, {}
    for f in t.fields:
        if f.grammar.kind != "letters" or not values.get(f.name):
            continue
        word = values[f.name]
        chosen = rng.choice(len(word), size=min(len(word), int(rng.integers(0, cfg.jokers_per_word + 1))), replace=False)
        jokers[f.name] = sorted(int(i) for i in chosen)
        for i in jokers[f.name]:
            u = rng.random()
            kinds = DOTS if u < cfg.dot_share else CIRCLE_WAYS if u < cfg.dot_share + cfg.circle_share else ("tick",)
            ways[(f.name, i)] = kinds[int(rng.integers(len(kinds)))]
    return jokers, ways


def _slip_examples(t: Template, style: SlipStyle, cfg: DotConfig, rng: np.random.Generator, photo: bool) -> Examples:
    values, _ = random_values(t, rng)
    jokers, ways = _marks(values, t, cfg, rng)
    drawing = draw_slip(t, values, rng, style, jokers, marks=ways)
    page = render_page([drawing.image], rng, PageStyle(photo=photo, jpeg_quality=85 if photo else None))
    found = find_slips(cv2.cvtColor(page, cv2.COLOR_BGR2GRAY), (t,))
    out = Examples()
    if not found.slips:
        return out
    work = slip_gray(rectify(dropout(page), found.slips[0], PX_PER_MM), PX_PER_MM)
    for f in t.fields:
        if f.grammar.kind != "letters":
            continue
        search = MarkSearch(work, f, PX_PER_MM)
        search.erase_rings()
        for i in range(len(f.boxes)):
            seen = search.view(i, context_mm(("dot",))) if search.jokers[i] is None else None
            if seen is None:
                continue
            crop, inner, avoid = seen
            level = glyph.ink_map(crop, PAPER)
            evidence = dot_evidence(level > glyph.INK_LEVEL, inner, PX_PER_MM, avoid, level)
            if evidence is None:
                continue
            way = drawing.marks.get((f.name, i), "")
            out.views.append(evidence.view)
            out.dot.append(int(way.startswith("dot")))
            out.ways.append(way)
            out.rules.append(evidence.rule_score)
    return out


def _examples_job(job: tuple[str, int, int, DotConfig]) -> Examples:
    split, first, count, cfg = job
    t = load_template(cfg.template)
    style = SlipStyle(fonts=list(fonts.writers(split).paths), overrun_share=cfg.overrun_share)
    out = Examples()
    for k in range(first, first + count):
        rng = np.random.default_rng([cfg.seed, 0 if split == "train" else 1, k])
        out.extend(_slip_examples(t, style, cfg, rng, photo=k % 3 == 0))
    return out


def examples(split: str, n_slips: int, cfg: DotConfig) -> Examples:
    """Examples from n_slips slips in the faces of `split` (train or calibration), on cfg.workers processes."""
    chunk = max(1, -(-n_slips // (4 * cfg.workers)))
    jobs = [(split, k, min(chunk, n_slips - k), cfg) for k in range(0, n_slips, chunk)]
    out = Examples()
    with get_context("fork").Pool(cfg.workers) as pool:
        for part in pool.imap(_examples_job, jobs):
            out.extend(part)
    return out


def cached_examples(split: str, n_slips: int, cfg: DotConfig, cache: Path | None) -> Examples:
    """`examples`, kept in `cache` (npz) when given so that another network shape can be tried on them."""
    if cache is not None and cache.exists():
        with np.load(cache) as z:
            return Examples(list(z["views"]), [int(v) for v in z["dot"]], [str(w) for w in z["ways"]],
                            [float(r) for r in z["rules"]])
    ex = examples(split, n_slips, cfg)
    if cache is not None:
        np.savez_compressed(cache, views=np.stack(ex.views), dot=np.array(ex.dot), ways=np.array(ex.ways),
                            rules=np.array(ex.rules))
    return ex


def figures(p: np.ndarray, ex: Examples) -> dict[str, float | int]:
    """How a score separates dots from the rest: found and false at the decision line, and how many
    plain letters and dots fall in the weak band (0.05-0.5) the decoder cannot trust either way."""
    dot = np.array(ex.dot, bool)
    plain = np.array([w == "" for w in ex.ways])
    weak = (p >= 0.05) & (p < DECIDE)
    return {"dots": int(dot.sum()), "dots_found": int((p[dot] > DECIDE).sum()),
            "plain_letters": int(plain.sum()), "false_dots_on_plain": int((p[plain] > DECIDE).sum()),
            "false_dots_other_marks": int((p[~dot & ~plain] > DECIDE).sum()),
            "weak_plain": int(weak[plain].sum()), "weak_dots": int(weak[dot].sum())}


def _jitter(batch):
    """Paler or darker ink (a lighter pen, a darker scan) and a view moved by a pixel: what one page of
    the same hand does to the same letter."""
    import torch

    p = dotjudge.PATCH ** 2 + dotjudge.CONTEXT ** 2
    out = batch.clone()
    out[:, :p] = torch.clamp(out[:, :p] * torch.empty(len(out), 1).uniform_(0.8, 1.15), 0.0, 1.0)
    corner = out[:, :dotjudge.PATCH ** 2].reshape(-1, dotjudge.PATCH, dotjudge.PATCH)
    dy, dx = (int(v) for v in torch.randint(-1, 2, (2,)))
    out[:, :dotjudge.PATCH ** 2] = torch.roll(corner, (dy, dx), dims=(1, 2)).reshape(len(out), -1)
    return out


def fit(train: Examples, cfg: DotConfig, log=print):
    """The DotNet fitted on the examples (Adam, one-cycle schedule)."""
    import torch

    from scanner.train.model import DotNet

    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    x = torch.from_numpy(np.stack(train.views).astype(np.float32))
    y = torch.tensor(train.dot, dtype=torch.float32)
    net = DotNet(dotjudge.PATCH, dotjudge.CONTEXT)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay)
    steps = cfg.epochs * -(-len(y) // cfg.batch_size)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, cfg.learning_rate, total_steps=steps)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(cfg.dot_weight))
    for epoch in range(cfg.epochs):
        net.train()
        order = torch.randperm(len(y))
        total = 0.0
        for k in range(0, len(y), cfg.batch_size):
            idx = order[k:k + cfg.batch_size]
            opt.zero_grad()
            loss = loss_fn(net(_jitter(x[idx])), y[idx])
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        log(f"epoch {epoch + 1}: loss {total / len(y):.4f}")
    return net.eval()


def export(net, out: Path) -> None:
    import torch

    size = dotjudge.PATCH ** 2 + dotjudge.CONTEXT ** 2 + 2
    torch.onnx.export(net, torch.zeros(1, size), str(out), input_names=["features"], output_names=["logit"],
                      dynamic_axes={"features": {0: "n"}, "logit": {0: "n"}}, dynamo=False)


def train_judge(out: Path, cfg: DotConfig, cache: Path | None = None, log=print) -> dict:
    """Train the judge, check it on the calibration faces against the shape rules, write it (ONNX) and its
    recipe and figures (JSON beside it)."""
    start = time.time()
    train = cached_examples("train", cfg.train_slips, cfg, cache / f"dots-train-{cfg.seed}-{cfg.train_slips}.npz" if cache else None)
    check = cached_examples("calibration", cfg.check_slips, cfg,
                            cache / f"dots-check-{cfg.seed}-{cfg.check_slips}.npz" if cache else None)
    log(f"{len(train.dot)} training boxes ({sum(train.dot)} dots) in {time.time() - start:.0f} s")
    export(fit(train, cfg, log), out)
    p = dotjudge.DotJudge(out).probabilities(np.stack(check.views))
    metrics = {"judge": figures(p, check), "shape_rules": figures(np.array(check.rules), check),
               "training_boxes": len(train.dot), "training_dots": int(sum(train.dot)),
               "training_seconds": round(time.time() - start)}
    recipe = asdict(cfg) | {"fonts_trained": "scanner/synth/fonts.py and fontsource.py, split 'train'",
                            **training_faces(), "fonts_checked": "split 'calibration' (never trained on)",
                            **calibration_faces(),
                            "command": f"python -m scanner.train.dots --slips {cfg.train_slips} --seed {cfg.seed} "
                                       f"--dot-weight {cfg.dot_weight}"}
    out.with_suffix(".json").write_text(json.dumps({"recipe": recipe, "metrics": metrics}, indent=2) + "\n")
    return metrics


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="Train the dot judge (scanner/models/dots.onnx) on slips drawn in the training faces.")
    ap.add_argument("--out", type=Path, default=dotjudge.MODEL)
    ap.add_argument("--slips", type=int, default=DotConfig.train_slips)
    ap.add_argument("--check-slips", type=int, default=DotConfig.check_slips)
    ap.add_argument("--seed", type=int, default=DotConfig.seed)
    ap.add_argument("--epochs", type=int, default=DotConfig.epochs)
    ap.add_argument("--dot-weight", type=float, default=DotConfig.dot_weight,
                    help="a missed dot against a false one, in the loss")
    ap.add_argument("--cache", type=Path, default=None, help="folder keeping the drawn examples for another run")
    args = ap.parse_args()
    cfg = DotConfig(seed=args.seed, train_slips=args.slips, check_slips=args.check_slips, epochs=args.epochs,
                    dot_weight=args.dot_weight)
    print(json.dumps(train_judge(args.out, cfg, args.cache), indent=2))


if __name__ == "__main__":
    main()

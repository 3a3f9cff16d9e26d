"""What the mark judges' recipes share (`dots.py`, `rings.py`): drawing examples on several processes,
fitting the network with jitter, exporting it to ONNX. Needs torch and onnx (the [train] extra)."""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scanner.markjudge import MarkJudge

from scanner.fields import MarkSearch, dropout, slip_gray
from scanner.locate import find_slips, rectify
from scanner.marks import DECIDE
from scanner.pipeline import PX_PER_MM
from scanner.synth.pen import CIRCLE_WAYS, DOT_WAYS, PEN_DOT_WAYS
from scanner.synth.slip import PageStyle, SlipStyle, draw_slip, render_page
from scanner.synth.values import random_values
from scanner.synth import fonts
from scanner.template import Template, load_template
from scanner.train.recipe import calibration_faces, training_faces

DOTS = DOT_WAYS + PEN_DOT_WAYS


@dataclass(frozen=True)
class JudgeConfig:
    """How a judge's examples are drawn and its network fitted; each judge sets its own seed, shares
    of marks drawn and loss weight (`dots.DotConfig`, `rings.RingConfig`)."""

    seed: int = 0
    train_slips: int = 3000  # drawn in the training faces
    check_slips: int = 600  # drawn in the calibration faces: the figures of the judge's JSON
    epochs: int = 12
    batch_size: int = 128
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    threads: int = 2
    dot_share: float = 0.6  # of the joker marks drawn: dots; then circles, and ticks for the rest
    circle_share: float = 0.25
    jokers_per_word: int = 3  # at most
    overrun_share: float = 0.1
    ball_end_share: float = 0.0  # training slips only: letters whose stroke ends carry a ball (`glyphs.ball_ends`)
    workers: int = 2
    template: str = "duplicat"


@dataclass
class Examples:
    """One row per box a judge looks at: its view, whether the judge's mark was drawn there, how the
    box's mark was drawn ('' for none) and the shape rules' score."""

    views: list[np.ndarray] = field(default_factory=list)
    marked: list[int] = field(default_factory=list)
    ways: list[str] = field(default_factory=list)
    rules: list[float] = field(default_factory=list)

    def extend(self, other: "Examples") -> None:
        self.views += other.views
        self.marked += other.marked
        self.ways += other.ways
        self.rules += other.rules

    def add(self, view: np.ndarray, way: str, kind: str, rule: float) -> None:
        self.views.append(view)
        self.marked.append(int(way.startswith(kind)))
        self.ways.append(way)
        self.rules.append(rule)


def jokers_drawn(values: dict[str, str], t: Template, cfg: Any, rng: np.random.Generator) -> tuple[dict, dict]:
    """Joker indices (at most cfg.jokers_per_word a word) and the way each mark is drawn (cfg.dot_share
    dots, cfg.circle_share circles, ticks for the rest), for every letter field of a slip."""
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


def scanned_slip(t: Template, style: SlipStyle, cfg: Any, rng: np.random.Generator, photo: bool):
    """A slip drawn with jokers (`jokers_drawn`), put on a page (a photo or a scan) and rectified as the
    scanner does: (the drawing, the slip's grey work image), or None when the slip is not found."""
    values, _ = random_values(t, rng)
    jokers, ways = jokers_drawn(values, t, cfg, rng)
    drawing = draw_slip(t, values, rng, style, jokers, marks=ways)
    page = render_page([drawing.image], rng, PageStyle(photo=photo, jpeg_quality=85 if photo else None))
    found = find_slips(cv2.cvtColor(page, cv2.COLOR_BGR2GRAY), (t,))
    if not found.slips:
        return None
    return drawing, slip_gray(rectify(dropout(page), found.slips[0], PX_PER_MM), PX_PER_MM)


def searched_fields(t: Template, style: SlipStyle, cfg: Any, rng: np.random.Generator, photo: bool,
                    search: type = MarkSearch) -> Iterator[tuple[Any, Any, MarkSearch]]:
    """(drawing, field, search) for each letter field of one slip drawn by `scanned_slip`, its rings
    searched and erased by `search` (the scanner's `MarkSearch` or one that watches it) as at scan time."""
    scanned = scanned_slip(t, style, cfg, rng, photo)
    if scanned is None:
        return
    drawing, work = scanned
    for f in t.fields:
        if f.grammar.kind == "letters":
            searching = search(work, f, PX_PER_MM)
            searching.erase_rings()
            yield drawing, f, searching


def slips_drawn(slip_examples: Callable, job: tuple[str, int, int, Any]) -> Examples:
    """The examples `slip_examples(template, style, cfg, rng, photo)` finds on slips first..first+count
    drawn in the faces of `split` (`job`), each from its own seed, a third of them photographed."""
    split, first, count, cfg = job
    t = load_template(cfg.template)
    style = SlipStyle(fonts=list(fonts.writers(split).paths), overrun_share=cfg.overrun_share)
    if split == "train" and cfg.ball_end_share:
        style = replace(style, glyph=replace(style.glyph, ball_end_share=cfg.ball_end_share))
    out = Examples()
    for k in range(first, first + count):
        rng = np.random.default_rng([cfg.seed, 0 if split == "train" else 1, k])
        out.extend(slip_examples(t, style, cfg, rng, photo=k % 3 == 0))
    return out


def _drawn_in_parallel(job: Callable, split: str, n_slips: int, cfg: Any) -> Iterator[Examples]:
    """`job((split, first, count, cfg))` over n_slips slips cut in chunks, on cfg.workers processes, in order."""
    chunk = max(1, -(-n_slips // (4 * cfg.workers)))
    jobs = [(split, k, min(chunk, n_slips - k), cfg) for k in range(0, n_slips, chunk)]
    with get_context("fork").Pool(cfg.workers) as pool:
        yield from pool.imap(job, jobs)


def cached_examples(job: Callable, split: str, n_slips: int, cfg: Any, cache: Path | None) -> Examples:
    """The examples `job` draws from n_slips slips in the faces of `split` (train or calibration),
    kept in `cache` (npz) when given so that another network shape can be tried on them."""
    if cache is not None and cache.exists():
        with np.load(cache) as z:
            marked = z["marked"] if "marked" in z.files else z["dot"]
            return Examples(list(z["views"]), [int(v) for v in marked], [str(w) for w in z["ways"]],
                            [float(r) for r in z["rules"]])
    ex = Examples()
    for part in _drawn_in_parallel(job, split, n_slips, cfg):
        ex.extend(part)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)  # a new folder named by --cache: hours of drawing are not lost
        np.savez_compressed(cache, views=np.stack(ex.views), marked=np.array(ex.marked), ways=np.array(ex.ways),
                            rules=np.array(ex.rules))
    return ex


def figures(p: np.ndarray, ex: Examples, name: str) -> dict[str, float | int]:
    """How a score separates the judge's marks (`name`: dot, circle) from the rest: found and false at
    the decision line, and how many plain letters and marks fall in the weak band (0.05-0.5) the
    decoder cannot trust either way."""
    marked = np.array(ex.marked, bool)
    plain = np.array([w == "" for w in ex.ways])
    weak = (p >= 0.05) & (p < DECIDE)
    return {f"{name}s": int(marked.sum()), f"{name}s_found": int((p[marked] > DECIDE).sum()),
            "plain_letters": int(plain.sum()), f"false_{name}s_on_plain": int((p[plain] > DECIDE).sum()),
            f"false_{name}s_other_marks": int((p[~marked & ~plain] > DECIDE).sum()),
            "weak_plain": int(weak[plain].sum()), f"weak_{name}s": int(weak[marked].sum())}


def jitter(batch, patch: int, context: int):
    """Paler or darker ink (a lighter pen, a darker scan) and the near view moved by a pixel: what one
    page of the same hand does to the same letter. `batch` rows are (patch², context², numbers)."""
    import torch

    p = patch ** 2 + context ** 2
    out = batch.clone()
    out[:, :p] = torch.clamp(out[:, :p] * torch.empty(len(out), 1).uniform_(0.8, 1.15), 0.0, 1.0)
    corner = out[:, :patch ** 2].reshape(-1, patch, patch)
    dy, dx = (int(v) for v in torch.randint(-1, 2, (2,)))
    out[:, :patch ** 2] = torch.roll(corner, (dy, dx), dims=(1, 2)).reshape(len(out), -1)
    return out


def fit_judge(net, views: np.ndarray, labels: np.ndarray, weight: float, cfg: Any, jitter: Callable, log=print):
    """`net` fitted on (views, labels): Adam with a one-cycle schedule (cfg's seed, threads, epochs,
    batch size, learning rate, weight decay), a missed mark weighed `weight` against a false one in
    the loss, each batch jittered by `jitter`."""
    import torch

    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    x = torch.from_numpy(views.astype(np.float32))
    y = torch.tensor(labels, dtype=torch.float32)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay)
    steps = cfg.epochs * -(-len(y) // cfg.batch_size)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, cfg.learning_rate, total_steps=steps)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(weight))
    for epoch in range(cfg.epochs):
        net.train()
        order = torch.randperm(len(y))
        total = 0.0
        for k in range(0, len(y), cfg.batch_size):
            idx = order[k:k + cfg.batch_size]
            opt.zero_grad()
            loss = loss_fn(net(jitter(x[idx])), y[idx])
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        log(f"epoch {epoch + 1}: loss {total / len(y):.4f}")
    return net.eval()


def export_judge(net, width: int, out: Path) -> None:
    """The network as ONNX: a batch of feature rows `width` long in, one logit per row out."""
    import torch

    torch.onnx.export(net, torch.zeros(1, width), str(out), input_names=["features"], output_names=["logit"],
                      dynamic_axes={"features": {0: "n"}, "logit": {0: "n"}}, dynamo=False)


@dataclass(frozen=True)
class JudgeRecipe:
    """How one judge is trained: its name ('dot', 'circle'), the job drawing its examples from a chunk of
    slips, the sides of its near and wide views and the number of rule measures beside them (its
    network and jitter follow), its feature row width, the loss weight of a missed mark and the command."""

    name: str
    job: Callable
    views: tuple[int, int, int]  # near view side, wide view side, rule measures
    width: int
    weight: float
    command: str

    def net(self) -> Any:
        from scanner.train.model import MarkNet

        return MarkNet(*self.views)

    def jitter(self, batch):
        return jitter(batch, self.views[0], self.views[1])


def train_judge(recipe: JudgeRecipe, out: Path, cfg: Any, cache: Path | None = None, log=print) -> dict:
    """Train a judge, check it on the calibration faces against the shape rules, write it (ONNX) and its
    recipe and figures (JSON beside it)."""
    start = time.time()
    stem = f"{recipe.name}s"
    train = cached_examples(recipe.job, "train", cfg.train_slips, cfg,
                            cache / f"{stem}-train-{cfg.seed}-{cfg.train_slips}.npz" if cache else None)
    check = cached_examples(recipe.job, "calibration", cfg.check_slips, cfg,
                            cache / f"{stem}-check-{cfg.seed}-{cfg.check_slips}.npz" if cache else None)
    drawn = time.time() - start
    log(f"{len(train.marked)} training boxes ({sum(train.marked)} {stem}) in {drawn:.0f} s")
    net = fit_judge(recipe.net(), np.stack(train.views), np.array(train.marked), recipe.weight, cfg, recipe.jitter, log)
    export_judge(net, recipe.width, out)
    p = MarkJudge(out).probabilities(np.stack(check.views))
    metrics = {"judge": figures(p, check, recipe.name), "shape_rules": figures(np.array(check.rules), check, recipe.name),
               "training_boxes": len(train.marked), f"training_{stem}": int(sum(train.marked)),
               "drawing_examples_seconds": round(drawn), "training_seconds": round(time.time() - start - drawn)}
    described = asdict(cfg) | {"fonts_trained": "scanner/synth/fonts.py and fontsource.py, split 'train'",
                               **training_faces(), "fonts_checked": "split 'calibration' (never trained on)",
                               **calibration_faces(), "command": recipe.command}
    out.with_suffix(".json").write_text(json.dumps({"recipe": described, "metrics": metrics}, indent=2) + "\n")
    return metrics


def judge_main(name: str, model: Path, config: type, weight: str, recipe: Callable[[Any], JudgeRecipe]) -> None:
    """The command line of a judge's recipe (`python -m scanner.train.dots`, `.rings`): `config` is its
    configuration class, `weight` the field of the loss weight of a missed mark."""
    import argparse

    default = config()
    ap = argparse.ArgumentParser(description=f"Train the {name} judge ({model.name}) on slips drawn in the training faces.")
    ap.add_argument("--out", type=Path, default=model)
    ap.add_argument("--slips", type=int, default=default.train_slips)
    ap.add_argument("--check-slips", type=int, default=default.check_slips)
    ap.add_argument("--seed", type=int, default=default.seed)
    ap.add_argument("--epochs", type=int, default=default.epochs)
    ap.add_argument(f"--{weight.replace('_', '-')}", dest="weight", type=float, default=getattr(default, weight),
                    help=f"a missed {name} against a false one, in the loss")
    ap.add_argument("--ball-end-share", type=float, default=default.ball_end_share,
                    help="share of the training slips' letters whose stroke ends carry a ball (no mark)")
    ap.add_argument("--cache", type=Path, default=None, help="folder keeping the drawn examples for another run")
    args = ap.parse_args()
    cfg = replace(default, seed=args.seed, train_slips=args.slips, check_slips=args.check_slips, epochs=args.epochs,
                  ball_end_share=args.ball_end_share, **{weight: args.weight})
    print(json.dumps(train_judge(recipe(cfg), args.out, cfg, args.cache), indent=2))

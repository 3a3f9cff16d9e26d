"""Scanned pages of a simulated round: the slips of `arbiter.demo.simulation` drawn by the scanner's
synthetic renderer (issue 5: held-out handwriting fonts, joker circles/dots/ticks, several slips a
page, some upside down or tilted, scanner blur and noise; each player in one face the whole game),
and the way back from a scanned slip to the truth it was drawn from, so the demo can say honestly
what the scanner read right.

A slip is found again by where it lies on the page: `render_page` puts slip k in cell k of a
two-column grid, and the scanner reports each slip's outline in page pixels."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from .simulation import SlipTruth

TEMPLATE = "duplicat-v1"
FIELD_OF = {"round": "tur", "table": "masa", "position": "poz", "score": "puncte", "word": "depunere"}


@dataclass(frozen=True)
class RenderedPage:
    """One page image and the slips drawn on it, in grid order."""

    path: Path
    slips: tuple[SlipTruth, ...]
    size: tuple[int, int]  # width, height in pixels

    def truth_at(self, slip_box: list[list[float]] | None) -> SlipTruth | None:
        """The slip whose grid cell holds the centre of the scanned outline."""
        if not slip_box:
            return None
        cols = 2 if len(self.slips) > 1 else 1
        rows = -(-len(self.slips) // cols)
        cx = sum(p[0] for p in slip_box) / len(slip_box)
        cy = sum(p[1] for p in slip_box) / len(slip_box)
        col = min(cols - 1, int(cx / (self.size[0] / cols)))
        row = min(rows - 1, int(cy / (self.size[1] / rows)))
        k = row * cols + col
        return self.slips[k] if k < len(self.slips) else None


def slip_values(truth: SlipTruth) -> dict[str, str]:
    """The text in each box of the duplicate slip (templates/duplicat.json); a blank stays blank."""
    values = {"round": "" if truth.round is None else str(truth.round), "table": str(truth.table),
              "position": truth.position, "score": str(truth.score), "word": truth.word}
    return {FIELD_OF[k]: v for k, v in values.items()}


def render_round(slips: tuple[SlipTruth, ...], folder: Path, round_no: int, seed: int,
                 per_page: int = 4) -> list[RenderedPage]:
    """Draw the round's slips, `per_page` to a page, as PNG scans under `folder`."""
    import cv2

    from scanner.synth.slip import PageStyle, SlipStyle, render_page, render_slip
    from scanner.template import builtin_templates

    template = next(t for t in builtin_templates() if t.id == TEMPLATE)
    rng = np.random.default_rng([seed, round_no])
    style = SlipStyle()
    folder.mkdir(parents=True, exist_ok=True)
    pages = []
    for start in range(0, len(slips), per_page):
        batch = slips[start:start + per_page]
        images = [render_slip(template, slip_values(t), rng, replace(style, fonts=[player_face(style.fonts, seed, t.table)]),
                              jokers={FIELD_OF["word"]: list(t.jokers)}) for t in batch]
        # mostly upright, one in four upside down (a pile is never all one way up)
        page = render_page(images, rng, PageStyle(quarter_turns=(0, 0, 0, 2)))
        path = folder / f"round{round_no:02d}-page{start // per_page + 1}.png"
        cv2.imwrite(str(path), page)
        pages.append(RenderedPage(path, tuple(batch), (page.shape[1], page.shape[0])))
    return pages


def player_face(faces: list[Path], seed: int, table: int) -> Path:
    """The face the player at `table` writes every slip of the game in: a player keeps one hand,
    written again with a new pen and new strokes on each slip."""
    from scanner.synth.slip import usable_faces

    usable = usable_faces(faces)
    return usable[int(np.random.default_rng([seed, table, 7919]).integers(len(usable)))]


def truth_of(raw: dict[str, Any], pages: dict[str, RenderedPage]) -> SlipTruth | None:
    """The rendered truth behind a stored reading (`Slip.reading`: source + slip outline)."""
    page = pages.get(str(Path(str(raw.get("source", ""))).resolve()))
    return page.truth_at(raw.get("slip_box")) if page else None

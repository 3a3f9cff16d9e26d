"""The judges' drawn examples kept for another run (`--cache DIR`): drawing them takes the better
part of an hour on two cores, so a folder that does not exist yet is made, never a run lost at the
end for want of it, and a second run reads back exactly what the first drew."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scanner.train.judging import Examples, cached_examples


@dataclass(frozen=True)
class _Config:
    workers: int = 2


def _numbered_boxes(job: tuple) -> Examples:
    """One example a slip, its view filled with the slip's number, every third one marked."""
    _, first, count, _ = job
    out = Examples()
    for k in range(first, first + count):
        out.add(np.full((4, 4), k, dtype=np.float32), "dot" if k % 3 == 0 else "", "dot", k / 10)
    return out


def _never_drawn(job: tuple) -> Examples:
    raise AssertionError("the cached examples must be read back, not drawn again")


def test_examples_are_kept_in_a_cache_folder_made_for_them_and_read_back(tmp_path):
    cache = tmp_path / "not-made-yet" / "dots-train-1-10.npz"
    drawn = cached_examples(_numbered_boxes, "train", 10, _Config(), cache)
    assert cache.exists()
    kept = cached_examples(_never_drawn, "train", 10, _Config(), cache)
    assert [int(v[0, 0]) for v in kept.views] == list(range(10))
    assert kept.marked == drawn.marked == [1, 0, 0, 1, 0, 0, 1, 0, 0, 1]
    assert kept.ways == drawn.ways
    assert kept.rules == drawn.rules

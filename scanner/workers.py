"""Pages scanned by worker processes side by side, one reader each.

The scan of a pile then uses every core of the machine (a page's slips are read in one process, the
next page in another), while the readings still come out in file and page order, exactly as one
process gives them. The files are opened and decoded by the caller, in order, so an unreadable file
is reported where it lies in the pile; only the scan of each page travels to a worker.
"""
from __future__ import annotations

import multiprocessing
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol

from scanner.reader import Reader, make_reader
from scanner.reading import Reading
from scanner.source import IMAGE_SUFFIXES, Page

AHEAD = 2  # pages waiting per worker: enough to keep it busy, few enough to bound the memory they hold


class WorkerOptions(Protocol):
    reader: str
    model: Path | None
    workers: int


PageScan = Callable[[Page, Reader, Any], list[Reading]]  # a module-level function, so it travels by name

_reader: Reader | None = None
_options: WorkerOptions | None = None


ONE_PAGE_IMAGES = IMAGE_SUFFIXES - {".tif", ".tiff"}  # a TIFF may hold many pages


def workers_for(files: list[Path], cores: int) -> int:
    """One worker per core, but never more than the pages can keep busy: a single one-page image is
    scanned in the caller's own process (starting a worker costs more than the page)."""
    single_page = len(files) == 1 and files[0].suffix.lower() in ONE_PAGE_IMAGES
    return 1 if single_page or not files else cores


def _start(options: WorkerOptions) -> None:
    """A worker's own reader, and OpenCV, on one thread: the cores are shared out by the workers."""
    import cv2

    global _reader, _options
    cv2.setNumThreads(1)
    _options = options
    _reader = make_reader(options.reader, options.model, 1)


def _scan(scan: PageScan, page: Page) -> list[Reading]:
    assert _reader is not None
    return scan(page, _reader, _options)


def scan_in_workers(items: Iterable[Page | Reading], scan: PageScan, options: WorkerOptions) -> Iterator[Reading]:
    """Readings of every page of `items` by `scan`, run in `options.workers` processes, in order; a
    Reading among the items (a file that cannot be read) comes out where it lies."""
    # spawned, not forked: a forked copy of a process whose reader runs threads can hang
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(options.workers, mp_context=context, initializer=_start, initargs=(options,)) as pool:
        waiting: deque[Future | list[Reading]] = deque()
        for item in items:
            waiting.append([item] if isinstance(item, Reading) else pool.submit(_scan, scan, item))
            while len(waiting) > AHEAD * options.workers:
                yield from _done(waiting.popleft())
        while waiting:
            yield from _done(waiting.popleft())


def _done(item: Future | list[Reading]) -> list[Reading]:
    return item.result() if isinstance(item, Future) else item

"""A pile uploaded from the browser (drag and drop of PDFs and images, or a phone's camera) and
read in the background by `arbiter.slips.roundscan.scan_round`, the function `round scan` calls; the
page polls the job for its progress. The files are kept beside the store: the review queue cuts
each slip out of its page later."""
from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, g, jsonify, request
from werkzeug.utils import secure_filename

from exitcodes import FluturasError

from .. import words
from ..store.games import get_round
from ..slips.ingest import IMAGE_SUFFIXES
from ..store.validation import require_not_final
from .desk import Desk, actor, said
from .i18n import text

KEEP = ("old", "new")  # a second slip for a table already filed: as `round scan --keep`


INTERNAL = "internal"  # Job.error of a failure of the program, not of the pile

@dataclass
class Job:
    """One pile being read: the phase (reading the pages, filing the slips, done or failed), the
    slips filed so far out of those read, and what it did once done."""

    round: int
    files: int
    phase: str = "reading"
    read: int = 0  # slips read so far, from `pages` of the files
    pages: set[str] = field(default_factory=set)
    filed: int = 0
    slips: int = 0
    started: float = field(default_factory=time.monotonic)
    counts: dict[str, int] = field(default_factory=dict)
    decided: int = 0
    queued: int = 0
    missing: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    error: str | None = None

    def as_json(self, lang: str) -> dict[str, object]:
        return {"phase": self.phase, "phase_text": text(f"phase_{self.phase}", lang), "files": self.files,
                "files_read": len(self.pages), "read": self.read, "filed": self.filed, "slips": self.slips, "seconds": round(time.monotonic() - self.started),
                "counts": self.counts, "decided": self.decided, "queued": self.queued, "missing": self.missing,
                "problems": [words.scan_problem(p, lang) for p in self.problems], "error": self.said_error(lang), "summary": self.summary(lang),
                "progress_text": self.progress_text(lang)}

    def said_error(self, lang: str) -> str | None:
        """Why reading stopped, in the page's language; a failure of the program itself is named as
        such (its traceback is in the server's log), never as Python's name for it."""
        if self.error is None:
            return None
        return text("upload_internal", lang) if self.error == INTERNAL else words.refusal(self.error, lang)

    def progress_text(self, lang: str) -> str:
        where = text(f"phase_{self.phase}", lang)
        if self.phase == "reading":
            return (f"{where}: {len(self.pages)}/{self.files} {text('files', lang)} · {self.read} "
                    f"{text('slips_read', lang)} · {round(time.monotonic() - self.started)} s")
        if self.phase == "filing":
            return f"{where}: {self.filed}/{self.slips}"
        return where

    def summary(self, lang: str) -> str:
        """What the pile did, in the arbiter's words (as `round scan` prints it)."""
        if self.phase != "done":
            return ""
        filed = self.counts.get("filed", 0)
        out = (f"{filed} {text('slips_filed', lang)}, {self.decided} {text('decided', lang)}, "
               f"{self.queued} {text('in_review', lang)}")
        others = {k: v for k, v in self.counts.items() if k != "filed"}
        if others:
            out += "; " + ", ".join(f"{v} {text('outcome_' + k, lang)}" for k, v in sorted(others.items()))
        if self.missing:
            out += f"; {text('missing', lang)}: {', '.join(map(str, self.missing))}"
        return out


def pile_folder(desk: Desk, game_id: int, number: int) -> Path:
    return desk.scans / f"game{game_id}-round{number:02d}"


def save_pile(files, folder: Path) -> list[Path]:
    """Each uploaded file under a name of its own (a second upload of `scan.pdf` never overwrites
    the page a filed slip was cut from); files that are neither images nor PDFs are left out."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%H%M%S")
    out = []
    for index, upload in enumerate(files, start=1):
        if not upload.filename:  # an input left empty (the camera, when the pile was dropped)
            continue
        name = secure_filename(upload.filename) or f"pagina{index}.jpg"
        if Path(name).suffix.lower() not in IMAGE_SUFFIXES:
            continue
        path = folder / f"{stamp}-{index:03d}-{name}"
        upload.save(path)
        out.append(path)
    return out


def counting(parse, job: Job):
    """The record parser `round scan` uses, counting the slips read and the files they come from
    as the scanner hands them over, so the page can show the reading's progress file by file."""

    def run(record, where: str, threshold: float, base=None):
        job.pages.add(where.rpartition(": slip ")[0] or where)
        job.read += 1
        return parse(record, where, threshold, base)

    return run


def run_job(job: Job, desk: Desk, game_id: int, paths: list[Path], who: str, keep: str, tactic: bool) -> None:
    """The scan, in its own thread: `track` follows the slips as they are filed."""
    from ..slips.roundscan import scan_round

    def track(pile):
        pile = list(pile)  # the pages are read and decoded when the pile is listed
        job.phase, job.slips = "filing", len(pile)
        for item in pile:
            yield item
            job.filed += 1

    from ..slips.readings import parse_reading

    parse = parse_reading
    if tactic:  # D 8.6: the two-move slip, as `round scan` reads it
        from ..anticipation.slips import parse_tactic_record as parse
    try:
        done = scan_round(desk.store, game_id, job.round, paths, None, "cnn", who, lambda old, new: keep,
                          counting(parse, job), track)
        job.counts, job.decided, job.queued = dict(done.counts), done.decided, len(done.queued)
        folder = f"{paths[0].parent}/" if paths else ""  # a page is named as the arbiter sent it
        job.missing = list(done.missing)
        job.problems = [line.replace(folder, "") for line in done.problems.lines]
        job.phase = "done"
    except FluturasError as exc:
        job.error, job.phase = str(exc), "failed"
    except Exception:  # noqa: BLE001 — the page must learn the job ended; the log keeps the traceback
        import logging

        logging.getLogger(__name__).exception("upload job failed")
        job.error, job.phase = INTERNAL, "failed"


def register(app: Flask, desk: Desk) -> None:
    jobs: dict[str, Job] = {}
    app.extensions["fluturas_uploads"] = jobs

    @app.post("/day/<int:number>/upload")
    def day_upload(number: int):
        who = actor()
        keep = request.form.get("keep", "old")
        try:
            with desk.store.session() as s:
                game = desk.game(s)
                require_not_final(game, "filing slips")
                if game.kind != "duplicate":
                    return jsonify(ok=False, message=text("upload_duplicate_only", g.lang)), 400
                get_round(s, game, number)
                game_id, tactic = game.id, game.variant == "tactic"
        except FluturasError as exc:
            return jsonify(ok=False, message=said(exc)), 409
        if keep not in KEEP:
            return jsonify(ok=False, message=f"keep {keep!r}"), 400
        paths = save_pile(request.files.getlist("pile"), pile_folder(desk, game_id, number))
        if not paths:
            return jsonify(ok=False, message=text("upload_nothing", g.lang)), 400
        job_id = secrets.token_urlsafe(9)
        jobs[job_id] = job = Job(number, len(paths))
        threading.Thread(target=run_job, args=(job, desk, game_id, paths, who, keep, tactic), daemon=True,
                         name=f"scan-{job_id}").start()
        return jsonify(ok=True, job=job_id, files=len(paths))

    @app.get("/day/upload/<job_id>")
    def day_upload_state(job_id: str):
        job = jobs.get(job_id)
        if job is None:
            return jsonify(ok=False, message=text("upload_unknown", g.lang)), 404
        return jsonify(ok=True, **job.as_json(g.lang))

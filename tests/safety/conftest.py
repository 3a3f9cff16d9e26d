"""A real tournament store for the safety tests: the 16-player sample game with round 1 scanned
(one slip reviewed), built once through the real CLI and copied for each test, so every test
starts from the same file and can compare the store before and after a refused command."""
from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from tests.arbiter.conftest import store, store_url  # the two-backend store fixtures, for test_library

__all__ = ["store", "store_url", "cli", "fingerprint", "rows", "one_line_error", "reading", "jsonl"]

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def cli(db: Path, *args: str, input: str | None = None, code: int | None = 0):
    """Run `fluturas` on the store; assert the exit code unless `code` is None. The result."""
    result = CliRunner().invoke(main, [*args, "--db", str(db), "--arbiter", "ana"], input=input)
    if code is not None:
        assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    return result


def fingerprint(db: Path) -> str:
    """Every row of every table (the audit log included), hashed: equal means nothing changed."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        digest = hashlib.sha256()
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
                digest.update(json.dumps([table, *row], default=str).encode())
        return digest.hexdigest()
    finally:
        conn.close()


def rows(db: Path, sql: str, *params) -> list[tuple]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(conn.execute(sql, params))
    finally:
        conn.close()


def one_line_error(result) -> str:
    """The refusal: exactly one `error:` line on stderr, no traceback."""
    errors = [line for line in result.stderr.splitlines() if not line.startswith(("store:", "  not filed:"))]
    assert len(errors) == 1 and "Traceback" not in result.output, result.output
    return errors[0]


def build_round_one(folder: Path) -> Path:
    """Round 1 of the sample game in `folder`: scanned, the unsure slip corrected, corrected by the
    judge; the store in one file, ready to be copied (`copy_store`)."""
    words = folder / "words.txt"
    shutil.copy(SAMPLES / "words.txt", folder / "words.txt")  # its word graph cache is built beside the copy
    db = folder / "game.db"
    cli(db, "game", "new", "--tournament", "Cupa", "--name", "P1", "--words", str(words), "--seed", "7")
    cli(db, "players", "import", str(SAMPLES / "players.csv"))
    cli(db, "round", "set-rack", "AELMODR")
    cli(db, "round", "set-top", "H4 MODEL")
    cli(db, "round", "scan", str(SAMPLES / "readings" / "round01.jsonl"), "--keep", "new")
    cli(db, "review", input="c poz=H4 depunere=MODEL\nread from the image\n")
    cli(db, "round", "correct")
    cli(db, "review", input="a\nthe decision stands\n")
    cli(db, "round", "correct")
    checkpoint(db)
    return db


def checkpoint(db: Path) -> None:
    """Everything in the one file that is copied."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def copy_store(template: Path, folder: Path) -> Path:
    """The store and its word list (and word-graph cache, when built) in `folder`, the game pointed at the copy."""
    for path in template.parent.iterdir():
        if path.name.startswith("words.txt"):
            shutil.copy(path, folder / path.name)
    db = folder / "game.db"
    shutil.copy(template, db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE game SET wordlist_path = ?", (str(folder / "words.txt"),))
    conn.commit()
    conn.close()
    return db


@pytest.fixture(scope="session")
def round_one(tmp_path_factory) -> Path:
    """Round 1 of the sample game: scanned, the unsure slip corrected, corrected by the judge."""
    return build_round_one(tmp_path_factory.mktemp("template"))


@pytest.fixture
def game(round_one, tmp_path) -> Path:
    """A fresh copy of the round-1 store (and its word list) for one test."""
    for name in ("words.txt", "words.txt.ro.dawg.cache"):
        shutil.copy(round_one.parent / name, tmp_path / name)
    db = tmp_path / "game.db"
    shutil.copy(round_one, db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE game SET wordlist_path = ?", (str(tmp_path / "words.txt"),))
    conn.commit()
    conn.close()
    return db


def reading(table: int | None, rnd: int = 1, word: str = "MODEL", score: int = 26, position: str = "H4",
            sha: str | None = None, table_confidence: float = 0.99, word_confidence: float = 0.99,
            source: str | None = None) -> dict:
    """A scanner reading record as `round scan` takes it (scanner/README.md)."""
    return {"source": source or f"scans/r{rnd}-t{table}.png", "sha256": sha or hashlib.sha256(
                json.dumps([table, rnd, word, score, position, source]).encode()).hexdigest(),
            "slip_index": 0,
            "fields": {"round": {"text": f"{rnd:02d}", "confidence": 0.99},
                       "table": {"text": "" if table is None else f"{table:03d}", "confidence": table_confidence},
                       "score": {"text": str(score), "confidence": 0.99},
                       "position": {"text": position, "confidence": 0.99},
                       "word": {"text": word, "confidence": word_confidence, "jokers": []}}}


def jsonl(path: Path, *records: dict) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path

"""Generated input to every form and parameter of the web app, on a real store: whatever is
typed, the answer is a page (never a 5xx, never a traceback), a refused write leaves the store as
it was, and the preview of a typed correction is refused exactly when its save is, in the same
words. CI runs 20 fixed examples a form (each on a fresh copy of the store);
FLUTURAS_FUZZ_EXAMPLES=200 explores further, with fresh random examples each run."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import tempfile
from html import unescape
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.store.store import open_store
from arbiter.web.app import create_app

from .test_review_one_path import file_tables

EXAMPLES = int(os.environ.get("FLUTURAS_FUZZ_EXAMPLES", "20"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="FLUTURAS_FUZZ_EXAMPLES" not in os.environ,
                database=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

weird = st.sampled_from(["", " ", "²", "٣", "nan", "-1", "0", "1", "2", "3", "1e3", "99999999999999999999",
                         "2147483648", "3.5", "H4", "8H", "Z9", "?", "'", '"', "\\", "\x00", "\n", "ș", "MODEL",
                         "M0DEL", "ECT0PIC", "a" * 300, "--", "=", "/\t/evil.example", "//evil.example"])
text = st.one_of(weird, st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20))
KEYS = ["masa", "tur", "poz", "puncte", "depunere", "table", "round", "score", "position", "word", "jokers",
        "cuvant", "moves", "total", "verify"]
typed = st.one_of(text, st.lists(st.tuples(st.sampled_from(KEYS), text), max_size=4).map(
    lambda pairs: " ".join(f"{k}={json.dumps(v) if ' ' in v or not v else v}" for k, v in pairs)))


def essentials(db: Path) -> str:
    """What a refused write must not change: slips, review items' state and version, decisions,
    appeals, players, rounds, and the audit log but its record of lost races (claims aside)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        digest = hashlib.sha256()
        for sql in ("SELECT id, round_id, table_no, state, content FROM slip ORDER BY id",
                    "SELECT id, state, version, resolution FROM review_item ORDER BY id",
                    "SELECT * FROM decision ORDER BY 1", "SELECT * FROM appeal ORDER BY 1",
                    "SELECT * FROM player ORDER BY 1", "SELECT * FROM round ORDER BY 1",
                    "SELECT action, entity, entity_id, after FROM audit_log WHERE action != 'review.conflict' ORDER BY id"):
            for row in conn.execute(sql):
                digest.update(json.dumps(row, default=str).encode())
        return digest.hexdigest()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def template_db(tmp_path_factory) -> Path:
    """A round with two slips in review: table 1's word unsure, table 2's table unreadable."""
    folder = tmp_path_factory.mktemp("web-fuzz")
    store = open_store(folder / "store.db")
    file_tables(store, folder, 3, {1: "M0DEL"})
    file_tables_more(store, folder)
    store.close()
    conn = sqlite3.connect(folder / "store.db")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return folder / "store.db"


def file_tables_more(store, folder: Path) -> None:
    from arbiter.slips.ingest import file_reading
    from arbiter.slips.readings import parse_reading
    from tests.arbiter.helpers import ARBITER, reading

    record = reading(2, sha=f"{2:064x}")
    record["fields"]["table"]["confidence"] = 0.2
    file_reading(store, 1, 1, parse_reading(record, "t2", 0.9), ARBITER, lambda o, n: "new")


class Fresh:
    """A copy of the template store, the app on it, an arbiter signed in."""

    def __init__(self, template: Path) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="fluturas-web-fuzz-"))
        self.db = self.folder / "store.db"
        shutil.copy(template, self.db)
        self.store = open_store(self.db)
        self.client = create_app(self.store).test_client()
        page = self.client.get("/login").data
        self.csrf = re.search(rb'name="csrf-token" content="([^"]+)"', page).group(1).decode()
        assert self.client.post("/login", data={"csrf": self.csrf, "name": "fuzz"}).status_code == 302

    def close(self) -> None:
        self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def send(self, method: str, path: str, data: dict | None = None, query: dict | None = None):
        """The answer (redirects followed) and whether the arbiter was told it was refused;
        asserts a page, no 5xx, no traceback, and an unchanged store when refused."""
        before = essentials(self.db)
        if method == "GET":
            answer = self.client.get(path, query_string=query or {}, follow_redirects=True)
        else:
            answer = self.client.post(path, data={"csrf": self.csrf, **(data or {})}, follow_redirects=True)
        body = answer.get_data(as_text=True)
        assert answer.status_code < 500, (method, path, data, query, answer.status_code)
        assert "Traceback" not in body, (method, path, data, query)
        refused = answer.status_code >= 400 or 'class="flash error"' in body
        if refused or method == "GET":
            assert essentials(self.db) == before, (method, path, data, query)
        return answer, refused, flash_of(body)


def flash_of(body: str) -> str:
    found = re.search(r'class="flash error"[^>]*>(.*?)</', body, re.S)
    return unescape(found.group(1)).strip() if found else ""


@FUZZ
@given(fields=typed)
def test_preview_is_refused_exactly_when_save_is(template_db, fields):
    app = Fresh(template_db)
    try:
        _answer, refused, said = app.send("POST", "/queue/1/preview", {"version": 1, "fields": fields})
        _answer, save_refused, save_said = app.send("POST", "/queue/1/save", {"version": 1, "fields": fields})
        assert refused == save_refused, (fields, said, save_said)
        assert said == save_said, (fields, said, save_said)
    finally:
        app.close()


@FUZZ
@given(item=st.sampled_from(["1", "2", "999", "99999999999"]), version=text, candidate=text, round_=text, kind=text)
def test_item_forms(template_db, item, version, candidate, round_, kind):
    app = Fresh(template_db)
    try:
        for action, form in (("accept", {"version": version, "candidate": candidate}),
                             ("accept", {"version": version}), ("skip", {"round": round_}),
                             ("claim", {}), ("move", {"version": version, "round": round_}),
                             ("discard", {"version": version, "as": kind})):
            app.send("POST", f"/queue/{item}/{action}", form)
    finally:
        app.close()


@FUZZ
@given(table=text, round_=text, kind=st.one_of(text, st.sampled_from(["total", "reading", "score", "penalty"])),
       score=text, cap=text, fields=typed, reason=text)
def test_appeal_form(template_db, table, round_, kind, score, cap, fields, reason):
    app = Fresh(template_db)
    try:
        app.send("POST", "/appeal", {"table": table, "round": round_, "kind": kind, "score": score, "cap": cap,
                                     "fields": fields, "reason": reason})
    finally:
        app.close()


@FUZZ
@given(name=text, token=text, target=text, number=text)
def test_login_round_and_pages(template_db, name, token, target, number):
    app = Fresh(template_db)
    try:
        answer, _refused, _said = app.send("POST", "/login", {"name": name, "token": token, "next": target})
        assert answer.request.host in ("localhost", "localhost:80")  # followed only inside the app
        for path in ("/queue", "/round", "/results", "/hall", "/audit", "/export/csv"):
            app.send("GET", path, query={"round": number, "item": number, "tables": number, "next": target})
        app.send("POST", f"/round/{number if number.isascii() and number.isdigit() else 1}/correct", {})
    finally:
        app.close()

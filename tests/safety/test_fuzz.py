"""Generated bad input to every arbiter command (issue 12): whatever is typed, the command ends
with a documented exit code, never a traceback, says what is wrong on one line, and a refused
command leaves the store exactly as it was. Bounded examples, no deadline: it runs in CI."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import string
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from exitcodes import ExitCode

from .conftest import copy_store, fingerprint, jsonl, reading

DOCUMENTED = {int(c) for c in ExitCode} - {int(ExitCode.INTERNAL), int(ExitCode.INTERRUPTED)}
# CI: 50 fixed examples a command (about half a minute on 2 cores); FLUTURAS_FUZZ_EXAMPLES=500
# explores further, with fresh random examples each run.
EXAMPLES = int(os.environ.get("FLUTURAS_FUZZ_EXAMPLES", "50"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="FLUTURAS_FUZZ_EXAMPLES" not in os.environ,
                database=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# Text an arbiter might type: digits of other scripts, signs, blanks, quotes, long runs.
weird = st.sampled_from(["", " ", "²", "٣", "nan", "-1", "0", "1e3", "99999999999999999999", "3.5", "H4", "?",
                         "'", '"', "\\", "\x00", "ș", "ZZZZZZZZZZZZ", "a" * 300, "--", "=", "c", "masa=2"])
text = st.one_of(weird, st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20))
number = st.one_of(st.integers(-5, 20).map(str), weird, st.integers().map(str))


def check(db: Path, args: list[str], input: str | None = None, may_change: bool = False):
    """Run one command; assert a documented code, no traceback, one error line, an unchanged
    store when refused (or always, unless the command may legitimately change it)."""
    before = fingerprint(db)
    result = CliRunner().invoke(main, [*args, "--db", str(db), "--arbiter", "fuzz"], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.output)
    assert result.exit_code in DOCUMENTED, (args, result.output)
    assert "Traceback" not in result.output, (args, result.output)
    if result.exit_code not in (0, ExitCode.CHECK_FAILED):
        errors = [line for line in result.stderr.splitlines() if not line.startswith(("store:", "  not filed:"))]
        assert len(errors) == 1 and errors[0].startswith("error:"), (args, result.output)
        assert fingerprint(db) == before, (args, result.output)
    elif not may_change:
        assert fingerprint(db) == before, (args, result.output)
    return result


@pytest.fixture(scope="module")
def with_items(round_one, tmp_path_factory) -> Path:
    """Round 1 with two slips waiting in review: an unsure word, and a table not read."""
    folder = tmp_path_factory.mktemp("items")
    db = copy_store(round_one, folder)
    pile = jsonl(folder / "p.jsonl", reading(16, word="M0DEL", word_confidence=0.3),
                 reading(None, table_confidence=0.1, source="x.png"))
    assert CliRunner().invoke(main, ["round", "scan", str(pile), "--db", str(db)]).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db


def fresh(template: Path):
    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    return folder, copy_store(template, folder)


@FUZZ
@given(table=number, rnd=st.one_of(st.none(), number), kind=st.sampled_from(
    ["reading", "warning", "penalty", "incorrect", "total", "repeated", "bogus"]), score=st.one_of(st.none(), number),
       reason=text, setting=st.one_of(st.none(), text), reject=st.booleans())
def test_appeal(round_one, table, rnd, kind, score, reason, setting, reject):
    folder, db = fresh(round_one)
    args = ["appeal", table, "--kind", kind, "--reason", reason]
    args += [] if rnd is None else ["--round", rnd]
    args += [] if score is None else ["--score", score]
    args += [] if setting is None else ["--set", setting]
    args += ["--reject"] if reject else []
    check(db, args, may_change=True)
    check(db, ["round", "correct"], may_change=True)  # whatever was stored, the game is still correctable
    shutil.rmtree(folder)


@FUZZ
@given(table=number, how=st.sampled_from(["--disciplinary", "--eliminate", None]), reason=text,
       rnd=st.one_of(st.none(), number))
def test_sanction(round_one, table, how, reason, rnd):
    folder, db = fresh(round_one)
    args = ["sanction", table, "--reason", reason] + ([how] if how else []) + ([] if rnd is None else ["--round", rnd])
    check(db, args, may_change=True)
    check(db, ["round", "correct"], may_change=True)
    shutil.rmtree(folder)


@FUZZ
@given(letters=st.one_of(text, st.text(alphabet="AEIOUZXQ?", max_size=14)), rnd=st.one_of(st.none(), number),
       move=st.one_of(st.none(), text))
def test_round_set_rack_and_top(round_one, letters, rnd, move):
    folder, db = fresh(round_one)
    check(db, ["round", "set-rack", letters] + ([] if rnd is None else ["--round", rnd]), may_change=True)
    if move is not None:
        check(db, ["round", "set-top", move], may_change=True)
    check(db, ["round", "correct"], may_change=True)
    shutil.rmtree(folder)


answer = st.one_of(weird, st.sampled_from(["s", "q", "Q", "skip", "quit", "no", "y", "ok", "c", "cc", "c masa=",
                                           "c masa=²", "c tur=0", "c tur=99", "c puncte=-3", "c poz=Z0",
                                           "c depunere=M0D3L", "c jokers=9", "c culoare=rosu", 'c "x']),
                   st.text(alphabet=string.printable, max_size=15))


@FUZZ
@given(lines=st.lists(answer, max_size=6))
def test_review_never_accepts_by_accident(with_items, lines):
    folder, db = fresh(with_items)
    before = fingerprint(db)
    result = check(db, ["review"], input="\n".join(lines) + "\n", may_change=True)
    typed = "\n".join(lines).splitlines()  # as the terminal splits them (a \r ends a line too)
    explicit = any(line.strip().lower() in ("a", "accept", *"123456789") or line.strip().lower().startswith("c ")
                   for line in typed)  # a candidate's number accepts that candidate, as on the web page
    if not explicit:
        assert fingerprint(db) == before, (lines, result.output)
    shutil.rmtree(folder)


csv_cell = st.one_of(weird, st.text(alphabet=string.printable, max_size=10))


@FUZZ
@given(rows=st.lists(st.lists(csv_cell, min_size=0, max_size=6), max_size=5), replace=st.booleans(),
       header=st.booleans(), raw=st.one_of(st.none(), st.binary(max_size=60)))
def test_players_import(round_one, rows, replace, header, raw):
    folder, db = fresh(round_one)
    seats = folder / "seats.csv"
    if raw is not None:
        seats.write_bytes(raw)
    else:
        lines = (["masa;nume;prenume;club;categorie"] if header else []) + [";".join(r) for r in rows]
        seats.write_text("\n".join(lines) + "\n", encoding="utf-8")
    check(db, ["players", "import", str(seats)] + (["--replace"] if replace else []), may_change=True)
    shutil.rmtree(folder)


field_value = st.one_of(weird, st.integers(), st.none(), st.floats(allow_nan=True),
                        st.fixed_dictionaries({"text": weird, "confidence": st.one_of(st.floats(), weird)}),
                        st.lists(st.integers(), max_size=3))
record = st.one_of(
    st.dictionaries(st.sampled_from(["source", "sha256", "slip_index", "page", "fields", "qr", "error", "jokers",
                                     "template_id", "table", "round"]), field_value, max_size=6),
    st.fixed_dictionaries({"fields": st.dictionaries(st.sampled_from(["round", "table", "score", "position", "word",
                                                                      "masa", "tur", "puncte"]), field_value,
                                                     max_size=5),
                           "qr": st.one_of(st.none(), weird, st.just("fluturas:v1;game=x;round=1;table=2"))}),
    st.one_of(st.integers(), st.lists(st.integers(), max_size=2), weird))


@FUZZ
@given(records=st.lists(record, max_size=4), junk=st.one_of(st.none(), st.binary(max_size=80)),
       threshold=st.one_of(st.none(), st.sampled_from(["nan", "-1", "2", "0.3", "inf", "x"])),
       suffix=st.sampled_from([".jsonl", ".json", ".png", ".pdf"]))
def test_round_scan(round_one, records, junk, threshold, suffix):
    folder, db = fresh(round_one)
    pile = folder / f"pile{suffix}"
    if junk is not None or suffix in (".png", ".pdf"):
        pile.write_bytes(junk or b"")
    elif suffix == ".json":
        pile.write_text(json.dumps(records), encoding="utf-8")
    else:
        pile.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    args = ["round", "scan", str(pile), "--keep", "old"] + ([] if threshold is None else ["--threshold", threshold])
    check(db, args, may_change=True)
    check(db, ["round", "correct"], may_change=True)
    shutil.rmtree(folder)


@FUZZ
@given(deadline=text, out_is_file=st.booleans(), final=st.booleans(), force=st.one_of(st.none(), text))
def test_results(round_one, deadline, out_is_file, final, force):
    folder, db = fresh(round_one)
    out = folder / "out"
    if out_is_file:
        out.write_text("x")
    check(db, ["round", "close"], may_change=True)
    check(db, ["results", "provisional", "--deadline", deadline, "--out", str(out)], may_change=True)
    if final:
        check(db, ["results", "final", "--out", str(out)] + ([] if force is None else ["--force", force]),
              may_change=True)
    shutil.rmtree(folder)


@FUZZ
@given(what=st.sampled_from([["undo", "appeal"], ["undo", "sanction"], ["undo", "review"], ["slip", "discard"],
                             ["slip", "move"], ["results", "reopen"]]), ident=number, reason=text,
       extra=st.sampled_from([[], ["--as", "not-a-slip"], ["--as", "duplicate"], ["--as", "x"], ["--round", "1"],
                              ["--round", "0"], ["--round", "2"]]))
def test_undo_commands(with_items, what, ident, reason, extra):
    folder, db = fresh(with_items)
    args = [*what] + ([] if what[0] == "results" else [ident]) + ["--reason", reason, *extra]
    check(db, args, may_change=True)
    shutil.rmtree(folder)


@FUZZ
@given(content=st.one_of(st.binary(max_size=60), st.recursive(st.one_of(st.integers(), weird, st.none()),
                                                              lambda kids: st.lists(kids, max_size=3)
                                                              | st.dictionaries(weird, kids, max_size=3),
                                                              max_leaves=10).map(lambda v: json.dumps(v).encode())))
def test_round_correct_with_a_judge_output(round_one, content):
    folder, db = fresh(round_one)
    output = folder / "judge.json"
    output.write_bytes(content)
    check(db, ["round", "correct", "--judge-output", str(output)], may_change=True)
    shutil.rmtree(folder)


@FUZZ
@given(name=text, variant=st.one_of(weird, st.sampled_from(["classic", "top"])), rules=st.one_of(weird, st.just("ro")),
       seed=st.one_of(st.none(), number), words=st.one_of(st.none(), st.binary(max_size=40)), game=number)
def test_game_new_and_a_game_that_is_not_there(round_one, name, variant, rules, seed, words, game):
    folder, db = fresh(round_one)
    args = ["game", "new", "--tournament", "T", "--name", name, "--variant", variant, "--rules", rules]
    if seed is not None:
        args += ["--seed", seed]
    if words is not None:
        (folder / "w.txt").write_bytes(words)
        args += ["--words", str(folder / "w.txt")]
    check(db, args, may_change=True)
    check(db, ["round", "correct", "--game", game], may_change=True)
    shutil.rmtree(folder)

"""Scanned anticipation slips through `round scan`: the sample game's slips are drawn on the
`anticipatie-v1` form by the scanner's synthetic renderer (held-out handwriting, a joker circled,
the "Verificare" box ticked), one page per round, and read by the real scanner. Each slip must
come out either read right or in the review queue; once the queue is cleared with the truth
(through `arbiter.review.review.resolve`), `round correct` must give `fluturas judge`'s totals for the
typed game file."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import select

from arbiter.anticipation.slips import parse_anticipation_scan
from arbiter.store.models import ReviewItem, Round, Slip, Standing
from arbiter.review.review import queue, resolve
from arbiter.demo.slipimages import RenderedPage
from arbiter.store.store import open_store

from .test_anticipation import _cli, _judge, _open_sample_game, _setup

cv2 = pytest.importorskip("cv2")


def _as_scanned(slip: dict) -> dict:
    """A typed slip in the form a scanned one takes: always `moves`, blanks as None/False."""
    moves = slip.get("moves") or [{k: slip.get(k) for k in ("position", "word", "jokers", "score")}]
    return {"table": slip["table"], "round": slip["round"],
            "moves": [{"position": m["position"], "word": m["word"], "jokers": list(m.get("jokers") or []),
                       "score": m["score"]} for m in moves],
            "total": slip.get("total"), "cancel_round": slip.get("cancel_round"), "verify": bool(slip.get("verify"))}


def _boxes(slip: dict) -> tuple[dict[str, str], dict[str, list[int]]]:
    """What the player writes in each box of templates/anticipatie.json."""
    s = _as_scanned(slip)
    values = {"tur": str(s["round"]), "masa": str(s["table"]), "verificare": "X" if s["verify"] else "",
              "total": "" if s["total"] is None else str(s["total"]),
              "anulez_tur": "" if s["cancel_round"] is None else str(s["cancel_round"])}
    jokers = {}
    for k, m in enumerate(s["moves"], start=1):
        values |= {f"poz_{k}": m["position"], f"depunere_{k}": m["word"], f"puncte_{k}": str(m["score"])}
        jokers[f"depunere_{k}"] = m["jokers"]
    return values, jokers


def _render(slips: list[dict], path: Path, seed: int) -> Path:
    from scanner.synth.slip import PageStyle, SlipStyle, render_page, render_slip
    from scanner.template import load_template

    template = load_template("anticipatie")
    rng = np.random.default_rng(seed)
    images = []
    for slip in slips:
        values, jokers = _boxes(slip)
        images.append(render_slip(template, values, rng, SlipStyle(), jokers=jokers,
                                  marks={(f, i): "circle" for f, js in jokers.items() for i in js}))
    cv2.imwrite(str(path), render_page(images, rng, PageStyle(quarter_turns=(0, 2))))
    return path


def test_scanned_slips_are_read_right_or_reviewed_and_correct_like_the_judge(tmp_path):
    case, words, seats = _setup(tmp_path)
    truth = [dict(s) for s in case["slips"]]
    truth[3]["moves"] = [{"position": "8H", "word": "CASE", "jokers": [3], "score": 10}]  # a circled joker
    truth[3] = {k: v for k, v in truth[3].items() if k not in ("position", "word", "score")}
    typed = tmp_path / "typed.json"
    typed.write_text(json.dumps({**case, "slips": truth}), encoding="utf-8")

    db = tmp_path / "store.db"
    _open_sample_game(db, case, words, seats, "Anticipație")
    by_round: dict[int, list[dict]] = {}
    pages: dict[int, RenderedPage] = {}
    for slip in truth:
        by_round.setdefault(slip["round"], []).append(slip)
    for rnd, slips in sorted(by_round.items()):  # the arbiter scans each round's pile
        page = _render(slips, tmp_path / f"round{rnd}.png", seed=rnd)
        pages[rnd] = RenderedPage(page, tuple(slips), cv2.imread(str(page)).shape[1::-1])
        out = _cli(db, "round", "scan", str(page), "--round", str(rnd), "--keep", "old")
        assert f"{len(slips)} filed" in out, out
        assert f"{len(slips)} duplicate" in _cli(db, "round", "scan", str(page), "--round", str(rnd))

    expected = {(s["table"], s["round"]): _as_scanned(s) for s in truth}
    store = open_store(db)
    with store.session() as s:
        filed = s.execute(select(Slip, Round.number).join(Round, Round.id == Slip.round_id)
                          .where(Slip.state == "filed")).all()
        assert len(filed) == len(truth)
        flagged = {i.slip_id for i in s.scalars(select(ReviewItem).where(ReviewItem.kind == "reading"))}
        for slip, number in filed:
            want = expected.get((slip.table_no, number))
            right = want is not None and slip.content == want
            assert right or slip.id in flagged, (number, slip.table_no, slip.content, want)  # never a silent misread
        entries = queue(s, s.scalar(select(Round.game_id)))

    by_id = {slip.id: slip for slip, _ in filed}
    for e in entries:
        assert e.kind == "reading"
        # whose slip it is, from where it lies on its page (a table may be unread)
        raw = by_id[e.slip_id].reading
        slip = pages[e.round].truth_at(raw.get("slip_box"))
        resolve(store, e.item_id, e.version, "ana", _as_scanned(slip), reason="read from the slip image")
    store.close()

    assert "wait in the review queue" not in _cli(db, "round", "correct")
    want = {p["table"]: p for p in _judge(typed)["players"]}
    store = open_store(db)
    with store.session() as s:
        assert not s.scalars(select(ReviewItem).where(ReviewItem.kind == "reading", ReviewItem.state == "open")).all()
        got = {st.table_no: st for st in s.scalars(select(Standing))}
    store.close()
    assert {t: (st.total, st.rank) for t, st in got.items()} == {t: (p["total"], p["rank"]) for t, p in want.items()}


def test_an_unsure_field_or_a_partial_move_sends_the_slip_to_review():
    def field(text, accepted=True):
        return {"text": text, "confidence": 0.99 if accepted else 0.6, "accepted": accepted, "valid": True,
                "jokers": [], "warnings": [] if text else ["empty"]}

    fields = {"tur": field("1"), "masa": field("2"), "poz_1": field("8H"), "depunere_1": field("CASE"),
              "puncte_1": field("10"), "poz_2": field(""), "depunere_2": field(""), "puncte_2": field(""),
              "total": field(""), "anulez_tur": field(""), "verificare": field("")}
    record = {"format": "fluturas.reading/1", "template_id": "anticipatie-v1", "source": "p.png",
              "sha256": "a" * 64, "slip_index": 0, "fields": fields}
    sure = parse_anticipation_scan(record, "p.png", 0.95)
    assert sure.unsure == ()
    assert sure.content()["moves"] == [{"position": "8H", "word": "CASE", "jokers": [], "score": 10}]
    assert sure.content()["total"] is None and sure.content()["verify"] is False

    unsure = parse_anticipation_scan({**record, "fields": {**fields, "puncte_1": field("10", accepted=False)}},
                                     "p.png", 0.95)
    assert unsure.unsure == ("puncte_1",)
    partial = parse_anticipation_scan({**record, "fields": {**fields, "poz_2": field("H8")}}, "p.png", 0.95)
    assert partial.unsure == ("depunere_2", "puncte_2")
    blank = parse_anticipation_scan({**record, "fields": {**fields, **{f: field("") for f in
                                                                      ("poz_1", "depunere_1", "puncte_1")}}},
                                    "p.png", 0.95)
    assert blank.unsure == ("moves",)


def test_the_word_to_verify_is_read_from_its_own_box(tmp_path):
    """RULES.md §7 "Verificare" with an adjacent word listed: the form's CUVÂNT DE VERIFICAT box,
    drawn by the scanner's renderer and read by the real scanner, gives `verify_words`; the other
    boxes read as before (the new box moves none of them)."""
    from scanner import ScanOptions, scan_paths
    from scanner.synth.slip import PageStyle, SlipStyle, render_page, render_slip
    from scanner.template import load_template

    slip = {"table": 2, "round": 2, "position": "J7", "word": "LAC", "score": 3, "verify": True}
    values, jokers = _boxes(slip)
    values["verificare_cuvinte"] = "CASE"
    rng = np.random.default_rng(5)
    from scanner.synth import fonts

    hand = SlipStyle(fonts=[p for p in fonts.resolve(fonts.CALIBRATION).paths if "dkg" in p.name])  # as tests/scanner
    image = render_slip(load_template("anticipatie"), values, rng, hand, jokers=jokers)
    path = tmp_path / "verify.png"
    cv2.imwrite(str(path), render_page([image], rng, PageStyle(quarter_turns=(0,))))
    [record] = [r.to_dict() for r in scan_paths([path], ScanOptions())]
    reading = parse_anticipation_scan(record, str(path), 0.95)
    assert reading.content()["verify_words"] == ["CASE"]  # read right (sure or not: unsure goes to review)
    for key, value in _as_scanned(slip).items():  # every other box: read right, or sent to review
        assert reading.content()[key] == value or reading.unsure

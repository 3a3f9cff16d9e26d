"""Issue 21, slips lost or wrongly filed: a rescan is recognised from the image (the ink of the
slip's boxes, `arbiter.slips.paper`), never from its reading. Two players who wrote the same move, one of
them with a misread table, are two slips: none is dropped, the one set aside waits in review. The
same paper in other bytes is kept set aside with an item `undo review` reopens. A page of blank
printed slips is reported, not filed; `--keep ask` with no terminal names `--keep old|new`.
Real images through the real scanner, real CLI, real SQLite store."""
from __future__ import annotations

import numpy as np
import pytest

from exitcodes import ExitCode

from .conftest import cli, fingerprint, jsonl, reading, rows

cv2 = pytest.importorskip("cv2")

TOP = {"tur": "01", "masa": "012", "poz": "C6", "puncte": "106", "depunere": "NEAZURIU"}


def render(values: dict, seed: int) -> np.ndarray:
    from scanner.synth.slip import render_slip
    from scanner.template import builtin_templates

    template = next(t for t in builtin_templates() if t.id.startswith("duplicat"))
    return render_slip(template, values, np.random.default_rng(seed))


def rescanned(image: np.ndarray, angle: float = 2.0, scale: float = 0.9) -> np.ndarray:
    """The same paper through the scanner again: turned, scaled, blurred (saved as JPEG by the caller)."""
    big = cv2.copyMakeBorder(image, 80, 80, 80, 80, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    h, w = big.shape[:2]
    turned = cv2.warpAffine(big, cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale), (w, h),
                            borderValue=(255, 255, 255))
    return cv2.GaussianBlur(turned, (3, 3), 0.8)


def prints(*paths) -> list[str]:
    from arbiter.slips.scanchecks import Problems, scan_records

    return [r["ink"] for p in paths for r in scan_records(p, "cnn", None, Problems())]


def test_the_print_tells_the_same_paper_from_another_writer_of_the_same_move(tmp_path):
    from arbiter.slips.paper import SAME, SUSPECT, distance

    paths = []
    for seed in (1, 2, 3):
        image = render(TOP, seed)
        cv2.imwrite(str(tmp_path / f"w{seed}.png"), image)
        cv2.imwrite(str(tmp_path / f"w{seed}.jpg"), rescanned(image, angle=seed - 2.5), [cv2.IMWRITE_JPEG_QUALITY, 45])
        paths += [tmp_path / f"w{seed}.png", tmp_path / f"w{seed}.jpg"]
    ink = dict(zip(paths, prints(*paths)))
    for seed in (1, 2, 3):
        assert distance(ink[tmp_path / f"w{seed}.png"], ink[tmp_path / f"w{seed}.jpg"]) <= SAME
    for a, b in ((1, 2), (1, 3), (2, 3)):
        for ka in ("png", "jpg"):
            for kb in ("png", "jpg"):
                assert distance(ink[tmp_path / f"w{a}.{ka}"], ink[tmp_path / f"w{b}.{kb}"]) > SUSPECT


def test_two_players_who_wrote_the_same_move_are_two_slips_even_with_a_misread_table(game, tmp_path):
    """Both wrote H4 MODEL 26; the second slip's table was misread as the first one's (16).
    Yesterday `same_paper` dropped it as a duplicate: never filed, its player missing."""
    cli(game, "round", "close")
    cli(game, "round", "set-rack", "AEIRSTU")  # round 2: no slip filed yet
    first = reading(16, rnd=2, sha="a" * 64, source="scans/p1.png")
    second = reading(16, rnd=2, sha="b" * 64, source="scans/p2.png")  # table 9's slip, table misread as 16
    out = cli(game, "round", "scan", str(jsonl(tmp_path / "p.jsonl", first, second)), "--keep", "old").output
    assert "duplicate" not in out
    states = dict(rows(game, "SELECT source, state FROM slip WHERE source LIKE 'scans/p%'"))
    assert states == {"scans/p1.png": "filed", "scans/p2.png": "superseded"}
    (reason,) = rows(game, "SELECT r.reason FROM review_item r JOIN slip s ON s.id = r.slip_id "
                           "WHERE s.source = 'scans/p2.png' AND r.state = 'open'")
    assert "table 16 has two slips" in reason[0] and "c masa=N" in reason[0]
    cli(game, "round", "correct", code=ExitCode.BAD_INPUT)  # nothing judged while a slip waits
    cli(game, "review", input="c masa=9\nit is table 9's slip\n")
    assert rows(game, "SELECT state, table_no FROM slip WHERE source = 'scans/p2.png'") == [("filed", 9)]


def test_the_same_paper_in_other_bytes_is_set_aside_with_an_item_that_brings_it_back(game, tmp_path):
    image = render({**TOP, "masa": "016", "poz": "H4", "puncte": "26", "depunere": "MODEL"}, 5)
    png, jpg = tmp_path / "scan.png", tmp_path / "again.jpg"
    cv2.imwrite(str(png), image)
    cv2.imwrite(str(jpg), rescanned(image), [cv2.IMWRITE_JPEG_QUALITY, 50])
    cli(game, "round", "scan", str(png), "--keep", "new")
    out = cli(game, "round", "scan", str(jpg), "--keep", "new").output
    assert "1 duplicate" in out and "scanned again: " in out and "(item " in out
    ((state, item),) = rows(game, "SELECT s.state, r.id FROM slip s JOIN review_item r ON r.slip_id = s.id "
                                  "WHERE s.source = ? AND r.state = 'resolved'", str(jpg))
    assert state == "discarded"
    cli(game, "undo", "review", str(item), "--reason", "two slips after all")
    assert rows(game, "SELECT state FROM slip WHERE source = ?", str(jpg)) in ([("filed",)], [("superseded",)])
    assert rows(game, "SELECT state FROM review_item WHERE id = ?", item) == [("open",)]


def test_two_writers_of_the_same_move_on_images_are_both_filed(game, tmp_path):
    """The image path of the first finding: the same words in two hands, both for table 16 as
    read, are two papers; the second is set aside in review, not dropped."""
    values = {**TOP, "masa": "016", "poz": "H4", "puncte": "26", "depunere": "MODEL"}
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    cv2.imwrite(str(a), render(values, 11))
    cv2.imwrite(str(b), render(values, 12))
    cli(game, "round", "scan", str(a), str(b), "--keep", "old")
    states = sorted(s for (s,) in rows(game, "SELECT state FROM slip WHERE source IN (?, ?)", str(a), str(b)))
    assert len(states) == 2 and "discarded" not in states
    assert rows(game, "SELECT count(*) FROM review_item r JOIN slip s ON s.id = r.slip_id WHERE s.source IN (?, ?) "
                      "AND r.state = 'open'", str(a), str(b))[0][0] >= 1


def test_a_page_of_blank_printed_slips_is_reported_not_filed(game, tmp_path):
    from scanner.synth.slip import render_page

    page = tmp_path / "blank-forms.png"
    cv2.imwrite(str(page), render_page([render({}, k) for k in range(4)], np.random.default_rng(3)))
    before = fingerprint(game)
    result = cli(game, "round", "scan", str(page), code=ExitCode.CHECK_FAILED)
    assert result.stderr.count("is blank (nothing written in it); not filed") == 4, result.stderr
    assert "4 files or pages not filed" in result.stderr
    assert fingerprint(game) == before


def test_keep_ask_without_a_terminal_names_keep_old_or_new(game, tmp_path):
    other = reading(3, sha="c" * 64, source="scans/second-for-3.png", word="MODELA", score=28)
    result = cli(game, "round", "scan", str(jsonl(tmp_path / "k.jsonl", other)), code=None)
    assert result.exit_code == ExitCode.CHECK_FAILED, result.output
    assert "--keep old or --keep new" in result.stderr and "Traceback" not in result.output
    assert rows(game, "SELECT count(*) FROM slip WHERE source = 'scans/second-for-3.png'") == [(0,)]


def test_two_slips_of_one_page_are_never_one_paper_scanned_again(game, tmp_path):
    """A page holds a paper once: two slips cut from one image are two papers however alike their
    ink (here the very same drawing twice), never a rescan dropped as a duplicate."""
    from scanner.synth.slip import render_page

    slip = render({**TOP, "masa": "007"}, 21)
    page = tmp_path / "twice.png"
    cv2.imwrite(str(page), render_page([slip, slip.copy()], np.random.default_rng(4)))
    cli(game, "round", "scan", str(page), "--keep", "old")
    states = sorted(s for (s,) in rows(game, "SELECT state FROM slip WHERE source = ?", str(page)))
    assert len(states) == 2 and "discarded" not in states, states

"""Issue 12, scans: real images through the real scanner. A file that cannot be read and a page
with no slip are reported and never filed, and the batch goes on (exit 1, CHECK_FAILED); the same
paper scanned again is recognised; a page too large to decode is refused from its header; an
explicit --threshold rules images too."""
from __future__ import annotations

import json
import struct
import zlib

import numpy as np
import pytest

from exitcodes import ExitCode

from .conftest import cli, fingerprint, rows

cv2 = pytest.importorskip("cv2")


def slip_image(path, table=16, word="MODEL", seed=7):
    from scanner.synth.slip import render_slip
    from scanner.template import builtin_templates

    template = next(t for t in builtin_templates() if t.id.startswith("duplicat"))
    values = {"tur": "01", "masa": f"{table:03d}", "poz": "H4", "puncte": "26", "depunere": word}
    image = render_slip(template, values, np.random.default_rng(seed))
    cv2.imwrite(str(path), image)
    return image


def blank(path, shape=(1400, 1000)):
    cv2.imwrite(str(path), np.full((*shape, 3), 255, np.uint8))
    return path


def filed_sources(db):
    return {s for (s,) in rows(db, "SELECT source FROM slip")}


def test_a_blank_page_and_a_photo_of_something_else_are_reported_not_filed(game, tmp_path):
    noise = tmp_path / "photo.png"
    cv2.imwrite(str(noise), np.random.default_rng(1).integers(0, 255, (900, 1200, 3), dtype=np.uint8))
    before = filed_sources(game)
    result = cli(game, "round", "scan", str(blank(tmp_path / "blank.png")), str(noise), code=ExitCode.CHECK_FAILED)
    assert "blank.png: no slip on the page" in result.stderr and "photo.png: no slip on the page" in result.stderr
    assert filed_sources(game) == before
    assert rows(game, "SELECT count(*) FROM review_item WHERE state = 'open'") == [(0,)]


def test_a_blank_pdf_makes_no_review_items(game, tmp_path):
    from PIL import Image

    pdf = tmp_path / "blank.pdf"
    pages = [Image.new("RGB", (827, 1169), "white") for _ in range(30)]
    pages[0].save(pdf, save_all=True, append_images=pages[1:])
    before = fingerprint(game)
    result = cli(game, "round", "scan", str(pdf), code=ExitCode.CHECK_FAILED)
    assert result.stderr.count("no slip on the page") == 30 and "30 files or pages not filed" in result.stderr
    assert fingerprint(game) == before
    cli(game, "round", "close")  # nothing blocks the round


def test_a_truncated_jpeg_is_reported_and_the_rest_is_filed(game, tmp_path):
    good = tmp_path / "a-good.png"
    slip_image(good)
    broken = tmp_path / "b-broken.jpg"
    ok, data = cv2.imencode(".jpg", cv2.imread(str(good)))
    broken.write_bytes(data.tobytes()[:300])
    result = cli(game, "round", "scan", str(broken), str(good), code=ExitCode.CHECK_FAILED)
    assert "b-broken.jpg" in result.stderr and "not filed" in result.stderr
    assert str(good) in filed_sources(game) and str(broken) not in filed_sources(game)


def test_the_same_paper_scanned_again_is_a_duplicate(game, tmp_path):
    first = tmp_path / "scan1.png"
    image = slip_image(first)
    again = tmp_path / "scan2.png"  # the same paper saved again by the scanner: other bytes, same slip
    cv2.imwrite(str(again), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    assert first.read_bytes() != again.read_bytes()
    cli(game, "round", "scan", str(first), "--keep", "new")
    items = rows(game, "SELECT count(*) FROM review_item WHERE state = 'open'")
    out = cli(game, "round", "scan", str(again), "--keep", "new").output
    assert "1 duplicate" in out  # kept set aside (discarded, with a resolved item `undo review` reopens)
    assert rows(game, "SELECT state FROM slip WHERE source = ?", str(again)) == [("discarded",)]
    assert rows(game, "SELECT count(*) FROM review_item WHERE state = 'open'") == items


def test_a_page_too_large_is_refused_from_its_header(game, tmp_path):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    huge = tmp_path / "huge.png"  # 30000 × 30000 pixels claimed; never decoded
    huge.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\x00" * 100)) + chunk(b"IEND", b""))
    before = fingerprint(game)
    result = cli(game, "round", "scan", str(huge), code=ExitCode.CHECK_FAILED)
    assert "huge.png: 30000×30000 pixels" in result.stderr and "at most 80 million" in result.stderr
    assert fingerprint(game) == before


def test_an_explicit_threshold_rules_images_too(game, tmp_path):
    image = tmp_path / "slip.png"
    slip_image(image)
    cli(game, "round", "scan", str(image), "--threshold", "1", "--keep", "new")
    ((reading,),) = rows(game, "SELECT reading FROM slip WHERE source = ?", str(image))
    fields = json.loads(reading)["fields"]
    below = {name for name, f in fields.items() if f["confidence"] < 1}
    reasons = " ".join(r for (r,) in rows(game, "SELECT reason FROM review_item WHERE state = 'open'"))
    names = {"tur": "round", "masa": "table", "poz": "position", "puncte": "score", "depunere": "word"}
    assert below and all(names[n] in reasons or (n == "masa" and "table" in reasons) for n in below)


def test_a_prefilled_slip_of_another_game_is_not_filed(game, tmp_path):
    from .conftest import jsonl, reading

    record = {**reading(16), "qr": "fluturas:v1;game=Cupa Altceva;round=1;table=16"}
    before = fingerprint(game)
    result = cli(game, "round", "scan", str(jsonl(tmp_path / "q.jsonl", record)), code=ExitCode.CHECK_FAILED)
    assert "printed for game 'Cupa Altceva'" in result.stderr and fingerprint(game) == before
    record = {**reading(16), "qr": "fluturas:v1;game=1;round=2;table=16"}
    cli(game, "round", "scan", str(jsonl(tmp_path / "r.jsonl", record)))
    (reason,) = rows(game, "SELECT reason FROM review_item WHERE state = 'open'")
    assert "the QR says round 2, filed in round 1" in reason[0]

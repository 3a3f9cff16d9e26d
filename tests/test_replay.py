"""`fluturas replay`: the engine's scores against real recorded games (issue acceptance: 100%)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from corrector.errors import RecordError
from corrector.gamelogs.records import read_record
from corrector.gamelogs.replay import replay
from corrector.rulepack import load_pack
from tests.conftest import REPO

GCG_DIR = REPO / "tests" / "data" / "gcg"  # copies kept in the project, licence and source beside them
GCG_FILES = sorted(GCG_DIR.glob("*.gcg"))


def pack_for(path: Path) -> str:
    return "pl" if "polish" in path.name else "en"


def test_the_public_game_records_are_there():
    assert len(GCG_FILES) >= 9, f"expected the public GCG files in {GCG_DIR}"
    assert (GCG_DIR / "LICENCE-GPL-3.0").is_file() and "Macondo" in (GCG_DIR / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", GCG_FILES, ids=lambda p: p.name)
def test_every_recorded_placement_score_agrees(path):
    result = replay(read_record(path), load_pack(pack_for(path)))
    assert result.rows, "a game record with no placement"
    assert [row for row in result.rows if not row.agrees] == []


def test_withdrawn_plays_exchanges_and_passes_are_skipped_and_counted():
    result = replay(read_record(GCG_DIR / "polish_endgame.gcg"), load_pack("pl"))
    assert result.skipped == {"withdrawn": 2, "pass": 4, "exchange": 3, "adjustment": 1}
    assert len(result.rows) == 41


def test_frs_log_with_jokers_accents_and_markers_replays():
    out = CliRunner().invoke(main, ["replay", str(REPO / "samples/logs/frs-example.log"), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["agreements"] == 3 and data["disagreements"] == 0
    assert [m["word"] for m in data["moves"]] == ["BACAL", "ULEI", "aRT"]


def test_a_wrong_recorded_score_exits_1(tmp_path):
    log = tmp_path / "game.log"
    log.write_text("BACALEI H4 BACAL 45\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(log)])
    assert out.exit_code == 1
    assert "NO" in out.output and "0 agree, 1 differ" in out.output


def test_letters_not_in_the_group_are_a_disagreement(tmp_path):
    log = tmp_path / "game.log"
    log.write_text("BACXLEI H4 BACAL 44\n", encoding="utf-8")
    result = replay(read_record(log), load_pack("ro"))
    assert not result.rows[0].agrees and "LETTERS_NOT_IN_GROUP" in result.rows[0].problem


@pytest.mark.parametrize("line,field", [
    ("BACALEI Z4 BACAL 44", "field position"),
    ("BACALEI H4 BAC4L 44", "field word"),
    ("BACALEI H4 BACAL x", "field score"),
    ("BACALEI H4 BACAL", "expected 'RACK POSITION WORD SCORE'"),
    ("BACALEI H13 BACAL 44", "field word: H13 BACAL does not fit: the word runs off the board"),
    ("BAC1LEI H4 BACAL 44", "field rack"),
])
def test_bad_input_is_one_line_naming_file_line_and_field(tmp_path, line, field):
    log = tmp_path / "bad.log"
    log.write_text("# header\n" + line + "\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(REPO / "cli.py"), "replay", str(log)],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and f"{log}:2" in proc.stderr and field in proc.stderr


def test_a_move_that_does_not_fit_the_board_names_its_line(tmp_path):
    log = tmp_path / "game.log"
    log.write_text("BACALEI H4 BACAL 44\nEI+RSTUN H4 ULEI 4\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"game.log:2: field word: H4 ULEI does not fit: .*BOARD_TILE_MISMATCH"):
        replay(read_record(log), load_pack("ro"))


def test_latin1_gcg_is_read(tmp_path):
    path = tmp_path / "old.gcg"
    path.write_bytes("#player1 André André\n>André: CASAEIR 8H CASA +8 8\n".encode("latin-1"))
    record = read_record(path)
    assert record.events[0].player == "André"
    assert replay(record, load_pack("ro")).rows[0].computed == 8


def test_unreadable_record_is_a_clear_error(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.gcg")

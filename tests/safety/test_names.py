"""Issue 21: names and free text reach the store only as text the sheets can print — no NUL or
other control character (seating, player names, reasons, arbiter names), and no name read in the
wrong encoding ('ªtefan' is Ştefan of a cp1250 file read as latin-1)."""
from __future__ import annotations

import pytest

from arbiter.errors import WorkflowError
from arbiter.store.games import get_game, seat_players
from arbiter.store.seating import Seat
from arbiter.store.store import open_store

from .conftest import SAMPLES, cli, fingerprint, one_line_error, rows

HEADER = "masa,nume,prenume,club\n"


def seating(tmp_path, text: str, encoding: str = "utf-8"):
    path = tmp_path / "masa.csv"
    path.write_bytes((HEADER + text).encode(encoding))
    return path


@pytest.fixture
def fresh(tmp_path):
    db = tmp_path / "g.db"
    words = tmp_path / "words.txt"
    words.write_text((SAMPLES / "words.txt").read_text(encoding="utf-8"), encoding="utf-8")
    cli(db, "game", "new", "--tournament", "T", "--name", "N", "--words", str(words))
    return db


def test_a_cp1250_seating_read_as_latin1_is_refused_with_the_encoding_to_use(fresh, tmp_path):
    path = seating(tmp_path, "1,Popescu,Ştefan,CS Ţara\n2,Ionescu,Ana,\n", "cp1250")
    before = fingerprint(fresh)
    line = one_line_error(cli(fresh, "players", "import", str(path), "--encoding", "latin-1", code=2))
    assert "ªtefan" in line and "--encoding cp1250" in line and "row 2" in line
    assert fingerprint(fresh) == before
    cli(fresh, "players", "import", str(path), "--encoding", "cp1250")
    assert rows(fresh, "SELECT name, club FROM player WHERE table_no = 1") == [("Popescu Ştefan", "CS Ţara")]


def test_a_utf8_seating_read_as_a_code_page_is_refused(fresh, tmp_path):
    path = seating(tmp_path, "1,Popescu,Ștefan,\n")
    line = one_line_error(cli(fresh, "players", "import", str(path), "--encoding", "cp1252", code=2))
    assert "UTF-8" in line and "without --encoding" in line


@pytest.mark.parametrize("bad", ["\x00", "\x1b[31m", "\x07", "\x85", "\r"])
def test_a_name_with_a_control_character_is_refused_at_import(fresh, tmp_path, bad):
    path = seating(tmp_path, f'1,"Pop{bad}escu",Ana,\n')
    before = fingerprint(fresh)
    line = one_line_error(cli(fresh, "players", "import", str(path), code=2))
    assert "control character" in line and "row 2" in line
    assert fingerprint(fresh) == before


def test_a_name_with_a_control_character_is_refused_by_the_library(fresh):
    store = open_store(fresh)
    try:
        with pytest.raises(WorkflowError, match="control character U\\+0000"):
            with store.session() as s:
                seat_players(s, get_game(s), [Seat(1, "Pop\x00escu", None, None, 2)], "ana", "web")
        with store.session() as s:
            assert seat_players(s, get_game(s), [Seat(1, "Popescu Ştefan", "CS Ţara", None, 2)], "ana", "web") == 1
    finally:
        store.close()


@pytest.mark.parametrize("command", [
    ["sanction", "3", "--disciplinary", "--reason", "tele\x00fon"],
    ["appeal", "3", "--round", "1", "--kind", "penalty", "--reason", "semne\x07"],
])
def test_reasons_and_arbiter_names_with_control_characters_are_refused(game, command):
    before = fingerprint(game)
    line = one_line_error(cli(game, *command, code=2))
    assert "control character" in line
    assert fingerprint(game) == before


def test_an_arbiter_name_with_a_control_character_is_refused(game):
    from click.testing import CliRunner

    from cli import main

    before = fingerprint(game)
    result = CliRunner().invoke(main, ["sanction", "3", "--disciplinary", "--reason", "telefon", "--db", str(game),
                                       "--arbiter", "an\x1ba"])
    assert result.exit_code == 2 and "--arbiter: control character U+001B" in one_line_error(result)
    assert fingerprint(game) == before

"""Word lists: formats, folding (Annex 1), errors naming file and line, the cache, the demo list."""
from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from corrector.errors import LexiconError
from corrector.words import lexicon as lexicon_module
from corrector.words.lexicon import Lexicon, cache_path, load_lexicon, user_cache_path
from corrector.rulepack import load_pack
from corrector.tiles import Tile

RO = load_pack("ro")
CA = load_pack("ca")
from samples import DEMO_WORDS as DEMO  # noqa: E402  (the bundled demo list, not LOC)


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def test_plain_list_membership_and_record(tmp_path):
    path = write(tmp_path / "words.txt", "CASA\nmasă\n\nAB\nCASA\n")
    lex = load_lexicon(path, RO, label="test list")
    assert lex.info.label == "test list"
    assert lex.info.word_count == 3  # duplicates counted once
    assert lex.info.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert "CASA" in lex and "casa" in lex and "MASA" in lex and "masă" in lex
    assert ["C", "A", "S", "A"] in lex
    assert (Tile("C"), Tile("A", True), Tile("S"), Tile("A")) in lex
    assert "CAS" not in lex and "CASAS" not in lex and "" not in lex and "X1" not in lex
    assert sorted(lex.words()) == ["AB", "CASA", "MASA"]


def test_gzip_crlf_and_bom(tmp_path):
    path = tmp_path / "words.txt.gz"
    path.write_bytes(gzip.compress("\ufeffCASA\r\nMERE\r\n".encode("utf-8")))
    lex = load_lexicon(path, RO)
    assert lex.info.word_count == 2 and "CASA" in lex and "MERE" in lex


def test_loc_flexiuni_folds_diacritics(tmp_path):
    # Annex 1: Ă=Â=A, Î=I, Ș=Ş=S, Ț=Ţ=T.
    path = write(tmp_path / "loc-flexiuni-5.0.txt", "ţară\nșoșea\nÎNTÂI\nŞTIŢI\n")
    lex = load_lexicon(path, RO)
    assert lex.info.format == "loc-flexiuni"
    assert sorted(lex.words()) == ["INTAI", "SOSEA", "STITI", "TARA"]


def test_cp1250_file(tmp_path):
    path = write(tmp_path / "loc-flexiuni.txt", "ţară\nşoşea\n", "cp1250")
    assert sorted(load_lexicon(path, RO).words()) == ["SOSEA", "TARA"]


def test_length_outside_2_to_15_is_left_out(tmp_path):
    path = write(tmp_path / "words.txt", "A\nAB\nABCDEFGHIJKLMNOP\n")
    lex = load_lexicon(path, RO)
    assert list(lex.words()) == ["AB"]


def test_loc_reduse_is_taken_as_is(tmp_path):
    ok = load_lexicon(write(tmp_path / "loc-reduse-5.0.txt", "TARA\nSOSEA\n"), RO)
    assert ok.info.format == "loc-reduse" and ok.info.word_count == 2
    with pytest.raises(LexiconError, match=r"loc-reduse-bad\.txt: line 2: invalid character 'Ţ'"):
        load_lexicon(write(tmp_path / "loc-reduse-bad.txt", "TARA\nŢARĂ\n"), RO)


def test_invalid_character_names_file_and_line(tmp_path):
    path = write(tmp_path / "bad.txt", "CASA\nMERE\nCA SA\n")
    with pytest.raises(LexiconError, match=r"bad\.txt: line 3: invalid character ' ' in word 'CA SA'"):
        load_lexicon(path, RO)
    with pytest.raises(LexiconError, match=r"line 1: invalid character '1'"):
        load_lexicon(write(tmp_path / "bad2.txt", "AB1\n"), RO)


def test_missing_file_is_a_lexicon_error(tmp_path):
    with pytest.raises(LexiconError, match="cannot read word list"):
        load_lexicon(tmp_path / "absent.txt", RO)


def test_letters_only_jokers_stand_for_are_words_too(tmp_path):
    # RULES.md §1: no K Q W Y tiles, but a joker may stand for them.
    lex = load_lexicon(write(tmp_path / "w.txt", "KG\nWC\n"), RO)
    assert "KG" in lex and "WC" in lex


def test_catalan_digraphs_are_single_tiles(tmp_path):
    lex = load_lexicon(write(tmp_path / "ca.txt", "COL·LEGA\nANY\nQUE\nCOL.LEGI\n"), CA)
    assert "COL·LEGA" in lex and "COL·LEGI" in lex
    assert ["C", "O", "L·L", "E", "G", "A"] in lex
    assert ["C", "O", "L", "·", "L", "E", "G", "A"] not in lex
    assert ["A", "NY"] in lex and ["A", "N", "Y"] not in lex
    assert ["QU", "E"] in lex


def test_cache_is_written_reused_and_keyed(tmp_path):
    path = write(tmp_path / "words.txt", "CASA\nMERE\n")
    load_lexicon(path, RO)
    cache = cache_path(path, RO)
    assert cache.exists()
    stamp = cache.stat().st_mtime_ns
    assert "CASA" in load_lexicon(path, RO)
    assert cache.stat().st_mtime_ns == stamp  # read, not rebuilt
    write(path, "PERE\n")  # a changed list: the old cache is stale and must not be trusted
    lex = load_lexicon(path, RO)
    assert "PERE" in lex and "CASA" not in lex and lex.info.word_count == 1


def test_unwritable_list_folder_caches_in_the_user_cache(tmp_path, monkeypatch):
    path = write(tmp_path / "words.txt", "CASA\nMERE\n")
    blocker = write(tmp_path / "a-file", "")  # a folder below a file cannot be created, even by root
    monkeypatch.setattr(lexicon_module, "cache_path", lambda p, pack: blocker / "sub" / "x.cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    lex = load_lexicon(path, RO)
    fallback = user_cache_path(lex.info.sha256, RO)
    assert fallback.is_relative_to(tmp_path / "user-cache") and fallback.exists()
    stamp = fallback.stat().st_mtime_ns
    assert "MERE" in load_lexicon(path, RO) and fallback.stat().st_mtime_ns == stamp


def test_corrupt_cache_is_rebuilt(tmp_path):
    path = write(tmp_path / "words.txt", "CASA\nMERE\n")
    load_lexicon(path, RO)
    cache = cache_path(path, RO)
    data = bytearray(cache.read_bytes())
    data[len(data) // 2] ^= 0xFF
    cache.write_bytes(bytes(data))
    assert sorted(load_lexicon(path, RO).words()) == ["CASA", "MERE"]
    cache.write_bytes(b"not a cache")
    assert sorted(load_lexicon(path, RO).words()) == ["CASA", "MERE"]


def test_cache_is_per_pack(tmp_path):
    path = write(tmp_path / "words.txt", "CASA\nMERE\n")
    load_lexicon(path, RO)
    assert cache_path(path, RO) != cache_path(path, CA)
    assert sorted(load_lexicon(path, CA).words()) == ["CASA", "MERE"]


def test_dawg_is_minimal_for_shared_suffixes():
    lex = Lexicon.from_words(["CASA", "MASA", "CASE", "MASE"], RO)
    # root -C/M-> one node -A-> -S-> -A/E-> final: 5 nodes when suffixes are shared.
    assert lex.dawg.node_count == 5


def test_demo_list():
    """The bundled demo list (demo list, not LOC): size and fingerprint as its README says."""
    lex = load_lexicon(DEMO, RO)
    assert lex.info.word_count == 1308342
    assert lex.info.sha256 == "2044b8a23820e63dc9d2e2172feee742fe37a2380c8ccd3b1316b7317dcc972e"
    for word in ("CASA", "casă", "ÎNTÂI", "ȘOSEA", "ZI", "XEROX"):
        assert word in lex, word
    assert "ABBA" not in lex  # capitalised Hunspell entries (proper nouns) are left out


def test_cli_exits_2_naming_the_word_list_line(tmp_path):
    from click.testing import CliRunner

    from cli import main

    words = write(tmp_path / "bad-words.txt", "CASA\nMER3\n")
    board = write(tmp_path / "board.txt", ("." * 15 + "\n") * 15)
    out = CliRunner().invoke(main, ["top", "--board", str(board), "--rack", "CASAMER", "--words", str(words)])
    assert out.exit_code == 2
    assert f"{words}: line 2: invalid character" in out.output and out.output.count("\n") == 1

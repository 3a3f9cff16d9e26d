"""Issue 21: every value the game stands on — the top, the group, the word list, the rule pack —
is checked when set and pinned by hash; a change after play is refused or re-judges what it
touches, audited."""
from __future__ import annotations

import json

from .conftest import cli, fingerprint, one_line_error, rows


def round_two(db, rack: str = "CEIOPTC"):
    cli(db, "round", "close")
    cli(db, "round", "set-rack", rack)
    return db


def test_a_top_that_is_not_a_word_is_refused(game):
    """D 5.3.7: the continuation is a valid move; I4 CIOPTCE is legal on the board with the group
    (78 points) but CIOPTCE is no word of the list."""
    round_two(game)
    before = fingerprint(game)
    result = cli(game, "round", "set-top", "I4 CIOPTCE", code=2)
    line = one_line_error(result)
    assert "I4 CIOPTCE" in line and "CIOPTCE, MC" in line and "not in the word list" in line
    assert fingerprint(game) == before
    assert rows(game, "SELECT continuation FROM round WHERE number = 2") == [(None,)]


def test_a_new_group_drops_the_continuation_found_for_the_old_one(game):
    """`set-rack` after the top: the continuation checked against the old group is dropped (audited,
    with the old one in the log) and the round waits for `round set-top` again."""
    cli(game, "round", "close")
    cli(game, "round", "set-rack", "ARSUTE?")
    cli(game, "round", "set-top")
    assert rows(game, "SELECT continuation, top_score FROM round WHERE number = 2") == [("7C SAlUTE", 7)]
    cli(game, "round", "set-rack", "AELMODR", "--round", "2", "--reason", "the group was misread")
    assert rows(game, "SELECT rack, continuation, top_score FROM round WHERE number = 2") == [("AELMODR", None, None)]
    (before, after), = rows(game, "SELECT before, after FROM audit_log WHERE action = 'round.rack' "
                                  "ORDER BY id DESC LIMIT 1")
    assert json.loads(before)["continuation"] == "7C SAlUTE" and json.loads(after)["continuation"] is None
    result = cli(game, "round", "close", code=2)
    assert "set-top" in one_line_error(result)
    cli(game, "round", "set-top")


def test_a_new_group_of_a_corrected_round_judges_it_again(game):
    """Round 1 is corrected with group AELMODR (H4 MODEL, 26 points). Entered again as another
    group without M, the decisions are judged anew in the same transaction, each change audited: the stored
    decisions are never those of the old group."""
    credited = rows(game, "SELECT table_no, credited FROM decision ORDER BY table_no")
    assert (1, 26) in credited
    changes = len(rows(game, "SELECT id FROM audit_log WHERE action = 'decision.set'"))
    cli(game, "round", "set-rack", "AELRODS", "--round", "1", "--reason", "the M was an S")
    after = dict(rows(game, "SELECT table_no, credited FROM decision ORDER BY table_no"))
    assert after[1] == 0  # H4 MODEL cannot be played without an M
    assert len(rows(game, "SELECT id FROM audit_log WHERE action = 'decision.set'")) > changes
    # the judge now finds the top of the new group by itself, and the continuation waits for set-top
    assert rows(game, "SELECT continuation FROM round WHERE number = 1") == [(None,)]


# --- the rule pack -------------------------------------------------------------------------------

def custom_pack_game(tmp_path):
    from .conftest import ROOT, SAMPLES

    pack = tmp_path / "club" / "pack.toml"
    pack.parent.mkdir()
    pack.write_text((ROOT / "rules" / "ro" / "pack.toml").read_text(encoding="utf-8").replace(
        'name = "ro"', 'name = "club"'), encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text((SAMPLES / "words.txt").read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "club.db"
    cli(db, "game", "new", "--tournament", "Club", "--name", "P1", "--words", str(words), "--rules", str(pack))
    cli(db, "players", "import", str(SAMPLES / "players.csv"))
    cli(db, "round", "set-rack", "AELMODR")
    return db, pack


def test_a_rule_pack_edited_after_game_new_is_refused(tmp_path):
    """The pack's merged content is pinned by sha256 at `game new`: a letter's value changed since
    (Z from 10 to 1) is refused at the next command with both hashes, never used silently."""
    db, pack = custom_pack_game(tmp_path)
    (pinned,), = rows(db, "SELECT rules_sha256 FROM game")
    original = pack.read_text(encoding="utf-8")
    assert "Z = [1, 10]" in original
    pack.write_text(original.replace("Z = [1, 10]", "Z = [1, 1]"), encoding="utf-8")
    before = fingerprint(db)
    for command in (["round", "set-top", "H4 MODEL"], ["status"], ["round", "correct"]):
        line = one_line_error(cli(db, *command, code=2))
        assert "changed since `game new`" in line and pinned in line and str(pack) in line
    assert fingerprint(db) == before
    pack.write_text(original.replace("Z = [1, 10]", "Z = [1, 10]  # a comment changes nothing"), encoding="utf-8")
    cli(db, "round", "set-top", "H4 MODEL")


def test_a_base_pack_change_is_seen_through_extends(tmp_path):
    from corrector.rulepack import pack_sha256

    db, pack = custom_pack_game(tmp_path)
    base = tmp_path / "base" / "pack.toml"  # `extends = "base"` looks beside the pack first
    base.parent.mkdir()
    from .conftest import ROOT

    base.write_text((ROOT / "rules" / "base" / "pack.toml").read_text(encoding="utf-8").replace(
        "bingo_bonus = 50", "bingo_bonus = 60"), encoding="utf-8")
    assert pack_sha256(str(pack)) != rows(db, "SELECT rules_sha256 FROM game")[0][0]
    assert "changed since `game new`" in one_line_error(cli(db, "status", code=2))


# --- the word list ---------------------------------------------------------------------------------

def test_an_empty_or_binary_word_list_is_refused_at_game_new(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.txt"
    blank.write_text("\n  \n", encoding="utf-8")
    binary = tmp_path / "list.bin"
    binary.write_bytes(bytes(range(256)) * 40)
    single = tmp_path / "letters.txt"
    single.write_text("A\nE\n", encoding="utf-8")
    for path, why in ((empty, "empty"), (blank, "empty"), (binary, "binary"), (single, "no word")):
        db = tmp_path / f"{path.stem}.db"
        line = one_line_error(cli(db, "game", "new", "--tournament", "T", "--name", "N", "--words", str(path), code=2))
        assert str(path) in line and why in line
        assert not db.exists()  # nothing made, not even an empty store


def forge_cache(cache, extra: str, pack) -> None:
    """Rewrite a cached graph by hand as a hostile tester would: the same key, one more word, the
    graph digest recomputed so the old check passes."""
    import io

    import numpy as np

    from corrector.words.dawg import build_dawg
    from corrector.words.lexicon import _encode_lines

    with np.load(cache, allow_pickle=False) as data:
        meta = json.loads(bytes(data["meta"]).decode("utf-8"))
    words = ["AMOR", "DOR", "LOT", "MODEL", "MOL", "ROD", "SALUT", "SALUTA", "SALUTE", extra]
    dawg = build_dawg(sorted(_encode_lines(words, pack.tiles, "plain", "forged")))
    meta["digest"], meta["word_count"] = dawg.digest(), len(words)
    buffer = io.BytesIO()
    np.savez(buffer, meta=np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8), start=dawg.start,
             letter=dawg.letter, target=dawg.target, final=dawg.final)
    cache.write_bytes(buffer.getvalue())


def test_a_word_list_cache_rewritten_by_hand_is_not_trusted(game):
    """The graph cached next to the list carries a keyed seal: rewritten by hand (one more word, its
    digest recomputed), it is rebuilt from the list, and the forged word is no word."""
    from corrector.rulepack import load_pack
    from corrector.words.lexicon import cache_path, load_lexicon

    pack = load_pack("ro")
    words = game.parent / "words.txt"
    assert "MODEL" in load_lexicon(words, pack)  # writes a sealed cache
    cache = cache_path(words, pack)
    forge_cache(cache, "CIOPTCE", pack)
    lexicon = load_lexicon(words, pack)
    assert "CIOPTCE" not in lexicon and len(lexicon) == 9
    assert "CIOPTCE" not in load_lexicon(words, pack)  # the rebuilt cache was written sealed again
    # through the arbiter: the forged word is no continuation
    forge_cache(cache, "CIOPTCE", pack)
    round_two(game)
    assert "CIOPTCE" in one_line_error(cli(game, "round", "set-top", "I4 CIOPTCE", code=2))


def test_a_cache_sealed_by_another_key_is_rebuilt(tmp_path, monkeypatch):
    from corrector.rulepack import load_pack
    from corrector.words.lexicon import cache_path, load_lexicon

    pack = load_pack("ro")
    words = tmp_path / "w.txt"
    words.write_text("MODEL\nDOR\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "one"))
    load_lexicon(words, pack)
    sealed = cache_path(words, pack).read_bytes()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "two"))
    assert len(load_lexicon(words, pack)) == 2
    assert cache_path(words, pack).read_bytes() != sealed  # resealed under this user's key
    assert oct((tmp_path / "two" / "fluturas" / "cache.key").stat().st_mode & 0o777) == "0o600"

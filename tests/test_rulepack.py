"""Rule packs as data (RULES.md §1 and appendix): loading, validation, clear errors."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from corrector.errors import RulePackError
from corrector.rulepack import RULES_DIR, available_packs, load_pack

# RULES.md §1, premium squares as the digest lists them.
TRIPLE_WORD = "A1 A8 A15 H1 H15 O1 O8 O15".split()
DOUBLE_WORD = "B2 C3 D4 E5 H8 K11 L12 M13 N14 B14 C13 D12 E11 K5 L4 M3 N2".split()
TRIPLE_LETTER = "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10".split()
DOUBLE_LETTER = ("A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12").split()


def test_every_pack_loads_with_its_tile_total():
    totals = {name: load_pack(name).tiles.total for name in available_packs()}
    assert totals == {"ca": 100, "en": 100, "fr": 102, "pl": 100, "ro": 100}


def test_section_1_romanian_tiles(ro):
    tiles = ro.tiles
    assert (tiles.counts["A"], tiles.values["A"]) == (11, 1)
    assert (tiles.counts["X"], tiles.values["X"]) == (1, 10)
    assert (tiles.counts["B"], tiles.values["B"]) == (2, 9)
    assert tiles.jokers == 2
    assert not {"K", "Q", "W", "Y"} & set(tiles.counts), "no K Q W Y tiles in Romanian"
    assert {"K", "Q", "W", "Y"} <= set(tiles.joker_letters), "a joker may stand for K Q W Y"
    assert tiles.vowels == frozenset("AEIOU")
    assert ro.rack_size == 7 and ro.bingo_bonus == 50


def test_section_1_premium_layout_matches_the_digest(ro):
    from corrector.rulepack import parse_square

    expected = {}
    for names, premium in ((TRIPLE_WORD, (1, 3)), (DOUBLE_WORD, (1, 2)), (TRIPLE_LETTER, (3, 1)), (DOUBLE_LETTER, (2, 1))):
        for name in names:
            expected[parse_square(name)] = premium
    for row in range(15):
        for col in range(15):
            assert ro.board.premium(row, col) == expected.get((row, col), (1, 1)), (row, col)
    assert ro.board.start == (7, 7)


def test_polish_tiles_from_the_appendix():
    pl = load_pack("pl").tiles
    assert (pl.counts["Ź"], pl.values["Ź"]) == (1, 9)
    assert (pl.counts["Ń"], pl.values["Ń"]) == (1, 7)
    assert pl.counts["Ą"] == 1 and pl.fold("ą") == "Ą", "Polish diacritics are letters, not folded"


def test_catalan_digraph_tiles_are_single_tiles():
    ca = load_pack("ca").tiles
    assert ca.tokenize(ca.fold("col·legues")) == ["C", "O", "L·L", "E", "G", "U", "E", "S"]
    assert ca.tokenize(ca.fold("QUANYS")) == ["QU", "A", "NY", "S"]
    assert ca.tokenize(ca.fold("COL.LEGA")) == ["C", "O", "L·L", "E", "G", "A"]
    assert (ca.counts["L·L"], ca.values["L·L"]) == (1, 10)


def _copy_pack(tmp_path: Path, name: str = "ro") -> Path:
    """A copy of a pack beside a copy of base, so it can be broken without touching the real one."""
    for folder in ("base", name):
        shutil.copytree(RULES_DIR / folder, tmp_path / folder)
    return tmp_path / name / "pack.toml"


def test_wrong_tile_count_names_file_and_field(tmp_path):
    path = _copy_pack(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("A = [11, 1]", "A = [12, 1]"), encoding="utf-8")
    with pytest.raises(RulePackError) as err:
        load_pack(path)
    message = str(err.value)
    assert str(path) in message and "tiles.total" in message and "101" in message


def test_unknown_key_is_rejected_with_its_path(tmp_path):
    path = _copy_pack(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + "\n[policies]\nsolo_basiss = \"raw_score\"\n", encoding="utf-8")
    with pytest.raises(RulePackError, match=r"field policies: Additional properties .*solo_basiss"):
        load_pack(path)


def test_all_schema_errors_reported_at_once(tmp_path):
    path = _copy_pack(tmp_path)
    text = path.read_text(encoding="utf-8").replace("rack_size = 7", "").replace("bingo_bonus = 50", "")
    base = tmp_path / "base" / "pack.toml"
    base.write_text(base.read_text(encoding="utf-8").replace("rack_size = 7", "rack_size = \"seven\""), encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulePackError) as err:
        load_pack(path)
    assert "tiles.rack_size" in str(err.value)


def test_bad_board_row_is_named(tmp_path):
    path = _copy_pack(tmp_path)
    base = tmp_path / "base" / "pack.toml"
    base.write_text(base.read_text(encoding="utf-8").replace('"T..d...T...d..T",', '"T..d...X...d..T",', 1), encoding="utf-8")
    with pytest.raises(RulePackError, match=r"field board\.grid\.0"):
        load_pack(path)


def test_unknown_pack_lists_the_available_ones():
    with pytest.raises(RulePackError, match=r"available: ca, en, fr, pl, ro"):
        load_pack("xx")


@pytest.mark.parametrize("policy,values", [
    ("one_wrong_sign_choice", ["declared_then_lowest", "lowest"]),
    ("unmarked_joker_choice", ["declared_then_lowest", "lowest"]),
    ("joker_mark_without_joker", ["real_letter_with_warning", "incorrect"]),
    ("solo_basis", ["raw_score", "credited"]),
    ("one_warning_per_slip_multi_move", [True, False]),
])
def test_every_decision_policy_is_switchable(ro, policy, values):
    for value in values:
        assert getattr(ro.with_policies(**{policy: value}).policies, policy) == value
    with pytest.raises(RulePackError):
        ro.with_policies(**{policy: "no-such-setting"})


def test_cli_names_the_broken_pack_and_exits_2(tmp_path):
    from click.testing import CliRunner

    from cli import main
    from tests.conftest import REPO

    path = _copy_pack(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("Z = [1, 10]", "Z = [2, 10]"), encoding="utf-8")
    out = CliRunner().invoke(main, ["replay", str(REPO / "samples/logs/frs-example.log"), "--rules", str(path)])
    assert out.exit_code == 2
    assert out.output.startswith(f"error: {path}: field tiles.total") and out.output.count("\n") == 1

"""Variants (RULES.md §6, D 8): group sizes, which letters a move may use, the racks a top
search tries, and the duplicate rules file."""
from __future__ import annotations

from collections import Counter

import pytest

from corrector.errors import RulePackError
from corrector.reasons import Reason, Violation
from corrector.tiles import Tile
from corrector.game.variants import RackUse, _load, load_duplicate_rules, rack_options, use_rack


@pytest.fixture(scope="module")
def rules(ro):
    return load_duplicate_rules(ro)


def tiles(text: str) -> list[Tile]:
    """Placed tiles; a lowercase letter is a joker."""
    return [Tile(ch.upper(), ch.islower()) for ch in text]


@pytest.mark.parametrize("name, drawn, chosen, use_max, groups, swaps", [
    ("classic", 7, 0, 7, 1, 0),       # D 8.1
    ("completiv", 6, 1, 7, 1, 0),     # D 8.2
    ("eliptic", 8, 0, 7, 1, 0),       # D 8.3
    ("top", 7, 0, 7, 1, 0),           # D 8.4
    ("super_joker", 5, 2, 7, 1, 0),   # D 8.5
    ("tactic", 7, 0, 7, 2, 0),        # D 8.6
    ("metagrama", 7, 0, 7, 1, 1),     # D 8.7
])
def test_D_8_variant_sizes_come_from_the_rules_file(rules, name, drawn, chosen, use_max, groups, swaps):
    v = rules.variant(name)
    assert (v.drawn, v.chosen, v.use_max, v.groups, v.swaps) == (drawn, chosen, use_max, groups, swaps)
    assert v.article.startswith("D 8.")


def test_variant_names_accept_dashes(rules):
    assert rules.variant("super-joker").name == "super_joker"
    with pytest.raises(RulePackError, match="unknown variant"):
        rules.variant("scrabble_only")


def test_D_5_3_1_draw_rule_of_each_variant_by_round(rules):
    d = rules.draw
    assert (lambda r: (r.min_vowels, r.min_consonants))(rules.variant("classic").draw_rule_for(15, d)) == (2, 2)
    assert (lambda r: (r.min_vowels, r.min_consonants))(rules.variant("classic").draw_rule_for(16, d)) == (1, 1)
    assert (lambda r: (r.min_vowels, r.min_consonants))(rules.variant("eliptic").draw_rule_for(1, d)) == (2, 2)
    assert (lambda r: (r.min_vowels, r.min_consonants))(rules.variant("completiv").draw_rule_for(1, d)) == (1, 1)
    assert rules.variant("completiv").draw_rule_for(16, d).kind == "short"
    assert (lambda r: (r.min_vowels, r.min_consonants))(rules.variant("tactic").draw_rule_for(1, d)) == (1, 1)


# --- rack legality, one test per variant -------------------------------------------------------

def test_D_8_1_classic_uses_the_group_only(rules):
    v = rules.variant("classic")
    use = use_rack(v, list("CASAT?E"), Counter("XYZ"), tiles("CAsA"))
    assert isinstance(use, RackUse) and use.leave == ("S", "T", "E")
    bad = use_rack(v, list("CASATRE"), Counter("MMM"), tiles("CASAM"))
    assert isinstance(bad, Violation) and bad.reason is Reason.LETTERS_NOT_IN_GROUP and bad.detail == "M"
    joker = use_rack(v, list("CASATRE"), Counter("?"), tiles("CASAm"))
    assert isinstance(joker, Violation)  # a joker tile needs a joker in the group


def test_D_8_2_completiv_takes_one_letter_from_the_stock(rules):
    v = rules.variant("completiv")
    use = use_rack(v, list("CASATR"), Counter("EEM"), tiles("CASTRAM"))
    assert isinstance(use, RackUse) and use.from_stock == ("M",) and use.leave == ()
    joker = use_rack(v, list("CASATR"), Counter("E?"), tiles("CASTRAm"))
    assert isinstance(joker, RackUse) and joker.from_stock == ("?",)
    two = use_rack(v, list("CASATR"), Counter("EM"), tiles("CASTRAME"))
    assert isinstance(two, Violation)
    gone = use_rack(v, list("CASATR"), Counter("EE"), tiles("CASTRAM"))
    assert isinstance(gone, Violation) and gone.detail == "M"


def test_D_8_3_eliptic_places_at_most_seven_of_eight(rules):
    v = rules.variant("eliptic")
    ok = use_rack(v, list("CASATREI"), Counter(), tiles("CASTREA"))
    assert isinstance(ok, RackUse) and ok.leave == ("I",)
    eight = use_rack(v, list("CASATREI"), Counter(), tiles("CASTREIA"))
    assert isinstance(eight, Violation) and eight.reason is Reason.TOO_MANY_TILES


def test_D_8_5_super_joker_takes_two_letters_from_the_stock(rules):
    v = rules.variant("super_joker")
    ok = use_rack(v, list("CASAT"), Counter("RME"), tiles("CASTRAM"))
    assert isinstance(ok, RackUse) and sorted(ok.from_stock) == ["M", "R"]
    three = use_rack(v, list("CASA"), Counter("RMTE"), tiles("CASTRAME"))
    assert isinstance(three, Violation)


def test_D_8_6_tactic_each_move_uses_its_own_group(rules):
    v = rules.variant("tactic")
    first, second = list("CASATRE"), list("MODELIU")
    assert isinstance(use_rack(v, first, Counter(), tiles("CASA")), RackUse)
    assert isinstance(use_rack(v, second, Counter(), tiles("MODEL")), RackUse)
    assert isinstance(use_rack(v, first, Counter(), tiles("MODEL")), Violation)


def test_D_8_7_metagrama_swaps_one_letter_with_the_stock(rules):
    v = rules.variant("metagrama")
    ok = use_rack(v, list("CASATRX"), Counter("EM"), tiles("CASTRAM"))
    assert isinstance(ok, RackUse)
    assert ok.from_stock == ("M",) and ok.given_up == ("X",) and ok.leave == ()
    two = use_rack(v, list("CASAXXZ"), Counter("EMT"), tiles("CASTEM"))
    assert isinstance(two, Violation)
    # A joker is given up only when nothing else is left unused.
    keep = use_rack(v, list("CAS?TRX"), Counter("M"), tiles("CASM"))
    assert isinstance(keep, RackUse) and "?" not in keep.given_up


# --- racks a top search tries ------------------------------------------------------------------

def test_D_8_2_completiv_tops_are_searched_over_every_stock_letter(rules):
    options = rack_options(rules.variant("completiv"), list("ABCDEF"), Counter("AAEIXZ??"))
    assert [o.from_stock for o in options] == [("A",), ("E",), ("I",), ("X",), ("Z",), ("?",)]
    assert all(len(o.rack) == 7 for o in options)


def test_D_8_5_super_joker_tops_are_searched_over_every_pair(rules):
    options = rack_options(rules.variant("super_joker"), list("ABCDE"), Counter({"A": 2, "E": 1, "?": 2}))
    picks = {o.from_stock for o in options}
    assert picks == {("A", "A"), ("A", "E"), ("A", "?"), ("E", "?"), ("?", "?")}


def test_super_joker_chooses_fewer_when_the_group_keeps_six(rules):
    options = rack_options(rules.variant("super_joker"), list("ABCDEF"), Counter("XZ"))
    assert {o.from_stock for o in options} == {("X",), ("Z",)}


def test_D_8_3_eliptic_tops_are_searched_over_every_seven_of_eight(rules):
    options = rack_options(rules.variant("eliptic"), list("AABCDEFG"), Counter())
    assert len(options) == 7  # the two As make two of the eight subsets equal


def test_D_8_7_metagrama_tops_are_searched_over_every_swap(rules):
    options = rack_options(rules.variant("metagrama"), list("ABCDEFG"), Counter("AXZ"))
    assert options[0].rack == tuple("ABCDEFG") and options[0].from_stock == ()
    # 7 letters out x 3 letters in, less the swaps of A for A
    assert len(options) == 1 + 7 * 3 - 1


def test_classic_tries_the_group_alone(rules):
    assert rack_options(rules.variant("classic"), list("ABCDEFG"), Counter("XZ")) == \
        rack_options(rules.variant("classic"), list("ABCDEFG"), Counter())


# --- the rules file ------------------------------------------------------------------------------

def test_rules_file_errors_name_the_file_and_field(tmp_path):
    pack_dir = tmp_path / "xx"
    pack_dir.mkdir()
    (pack_dir / "duplicate.toml").write_text('[draw]\nearly_rounds = -1\nmystery = 3\n', encoding="utf-8")
    with pytest.raises(RulePackError) as info:
        _load(str(pack_dir))
    text = str(info.value)
    assert "duplicate.toml" in text and "draw" in text and "mystery" in text and "-1" in text


def test_a_pack_file_overrides_the_base_key_by_key(tmp_path):
    pack_dir = tmp_path / "yy"
    pack_dir.mkdir()
    (pack_dir / "duplicate.toml").write_text('[draw]\nearly_rounds = 10\n[variants.classic]\nswaps = 2\n',
                                           encoding="utf-8")
    loaded = _load(str(pack_dir))
    assert loaded.draw.early_rounds == 10 and loaded.draw.early_min_vowels == 2
    assert loaded.variant("classic").swaps == 2 and loaded.variant("classic").drawn == 7


def test_romanian_letter_names_follow_annex_2(rules):
    assert rules.letter_names["E"] == "ELENA" and rules.letter_names["?"] == "JOKER"
    assert "K" not in rules.letter_names

"""Builders for anticipation tests: tiny word lists, groups that fit the tile set, slips."""
from __future__ import annotations

from collections import Counter

from corrector.anticipation import AnticipationGame, AnticipationSlip, Player, Variant
from corrector.anticipation.groups import GROUP_COUNT, GroupSet, classic_rules, parse_groups
from corrector.game.bag import Composition
from corrector.words.lexicon import Lexicon
from corrector.rulepack import RulePack
from corrector.judging.slip import Slip, WrittenMove
from corrector.tiles import JOKER

WORDS = ["AS", "SA", "CASA", "CAS", "CASE", "ACASA", "MASA", "LAC", "LAS", "CAL", "CALE", "ALE", "ARE",
         "RAC", "RACE", "ARC", "CER", "SAC", "SACI", "ACE", "ACI", "CAI", "MAI", "MARE", "AER", "CARE",
         "SARE", "ERA", "ERAM", "RAMA", "ARMA", "MAS", "TRAS", "RATA", "ATAC", "TAC", "CAT", "CARTE", "AC"]


def lexicon(pack: RulePack, extra: list[str] | tuple[str, ...] = ()) -> Lexicon:
    return Lexicon.from_words(sorted(set(WORDS) | set(extra)), pack)


def groups_with(pack: RulePack, words: Lexicon, *texts: str) -> GroupSet:
    """Group 1 and the first groups as given; the others filled from the tiles left, each with a
    vowel and a consonant (the fixture does not care what they hold)."""
    used = Counter(x for t in texts for x in pack.tiles.parse_rack(t))
    left = Counter(pack.tiles.counts) + Counter({JOKER: pack.tiles.jokers}) - used
    vowels = [x for x in sorted(left.elements()) if x != JOKER and pack.tiles.is_vowel(x)]
    others = [x for x in sorted(left.elements()) if x == JOKER or not pack.tiles.is_vowel(x)]
    groups = list(texts)
    while len(groups) < GROUP_COUNT:
        need = 7
        g = [vowels.pop(0), others.pop(0)]
        pool = vowels + others
        while len(g) < need:
            x = (vowels if len(vowels) > len(others) else others).pop(0)
            g.append(x)
        groups.append("".join(g))
        assert Composition.of(g, pack.tiles).shortfall(1, 1) == 0, pool
    return parse_groups(groups, pack, classic_rules(pack, words))


def move(position: str | None, word: str | None, score: int | None = None, jokers: tuple[int, ...] = ()) -> WrittenMove:
    return WrittenMove(position, word, jokers, score)


def slip(table: int, rnd: int, *moves: WrittenMove, total: int | None = None, cancel: int | None = None,
         verify: bool = False, verify_words: tuple[str, ...] = (), back_ok: bool = True,
         table_written: bool = True) -> AnticipationSlip:
    return AnticipationSlip(Slip(table, rnd, tuple(moves), total, table_written, True, back_ok),
                            cancel, verify, verify_words)


def game(pack: RulePack, words: Lexicon, groups: GroupSet, *slips: AnticipationSlip,
         variant: Variant = Variant.CLASSIC, order: tuple[int, ...] = tuple(range(2, GROUP_COUNT + 1)),
         players: int = 1, disciplinary: tuple[tuple[int, int], ...] = (), player_groups=None) -> AnticipationGame:
    return AnticipationGame(pack, words, variant, groups, order,
                            tuple(Player(t, f"Player {t}") for t in range(1, players + 1)), slips,
                            player_groups or {}, disciplinary)


def standard_groups(pack: RulePack, words: Lexicon) -> GroupSet:
    """Group 1 AS; rounds 1–4 (groups 2–5) hold the letters the hand-checked boards need."""
    return groups_with(pack, words, "AS", "ACEMRST", "ACEILRT", "AACELST", "ADEIRTU")

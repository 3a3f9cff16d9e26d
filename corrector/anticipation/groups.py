"""The letters of an anticipation game (RULES.md §7; A 1.1, A 5.2.d–f, A 5.3, A 8.1, A 8.4):
group 1 of 2 letters whose both orders are words, groups 2–15 of 7 letters with a vowel and a
consonant, the end-of-draw repair of A 5.2.e, groups entered by the arbiter, and the round→group
order drawn by lot. Draws use `bag.Bag`, so the same seed always gives the same game."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from itertools import product

from corrector.game.bag import Bag, Composition, sort_letters
from corrector.errors import AnticipationInputError, NotationError
from corrector.rulepack import RulePack
from corrector.tiles import JOKER

FIRST_SIZE, GROUP_SIZE, GROUP_COUNT = 2, 7, 15  # A 1.1: one group of 2 letters and 14 of 7
_MAX_TRIES = 10_000
AVOCALIC_FORBIDDEN = frozenset({"G", "J"})  # A 8.1: group 1 needs a consonant other than G and J

Group = tuple[str, ...]
GroupCheck = Callable[[Sequence[str]], "str | None"]


@dataclass(frozen=True)
class Redraw:
    """A drawn group put back in the bag, and why (A 5.2.d/e ask that the draw be repeated)."""

    group: int
    letters: Group
    reason: str


@dataclass(frozen=True)
class Repair:
    """A 5.2.e: the last groups returned together, because the last one(s) could not get a
    vowel and a consonant; they are drawn again under supervision."""

    groups: tuple[int, ...]
    letters: tuple[Group, ...]


@dataclass(frozen=True)
class GroupSet:
    """The 15 groups of a game (index 0 is group 1), how they were obtained, and their draw log."""

    groups: tuple[Group, ...]
    source: str  # "drawn" or "entered"
    redraws: tuple[Redraw, ...] = ()
    repairs: tuple[Repair, ...] = ()
    seed: int | None = None

    def group(self, number: int) -> Group:
        if not 1 <= number <= len(self.groups):
            raise AnticipationInputError(f"group {number} does not exist (groups are 1–{len(self.groups)})")
        return self.groups[number - 1]


def both_orders_are_words(letters: Sequence[str], lexicon: Container[str], pack: RulePack) -> bool:
    """A 5.2.d: XY and YX must both be words; a joker may stand for any letter of the pack."""
    options = [pack.tiles.alphabet if letter == JOKER else (letter,) for letter in letters]
    for first, second in product(*options):
        if first + second in lexicon and second + first in lexicon:
            return True
    return False


def has_vowel_and_consonant(letters: Sequence[str], pack: RulePack) -> bool:
    """RULES.md §1: a joker counts as whichever the group needs."""
    return Composition.of(letters, pack.tiles).shortfall(1, 1) == 0


def _can_split(letters: Sequence[str], groups: int, pack: RulePack) -> bool:
    """Whether these letters can form `groups` groups each holding a vowel and a consonant."""
    comp = Composition.of(letters, pack.tiles)
    return max(0, groups - comp.vowels) + max(0, groups - comp.consonants) <= comp.jokers


@dataclass(frozen=True)
class DrawRules:
    """What each group must satisfy: classic (A 5.2.d–e) or avocalic (A 8.1, no vowel rule).
    `extra` adds a condition on 7-letter groups (A 8.2: each must allow an independent bingo)."""

    first: GroupCheck
    seven: GroupCheck
    repair: bool
    extra: GroupCheck | None = None


def classic_rules(pack: RulePack, lexicon: Container[str], extra: GroupCheck | None = None) -> DrawRules:
    def first(letters: Sequence[str]) -> str | None:
        return None if both_orders_are_words(letters, lexicon, pack) else "A 5.2.d: not both orders are words"

    def seven(letters: Sequence[str]) -> str | None:
        return None if has_vowel_and_consonant(letters, pack) else "A 5.2.e: no vowel or no consonant"

    return DrawRules(first, seven, repair=True, extra=extra)


def avocalic_rules(pack: RulePack) -> DrawRules:
    def first(letters: Sequence[str]) -> str | None:
        ok = any(letter == JOKER or (not pack.tiles.is_vowel(letter) and letter not in AVOCALIC_FORBIDDEN)
                 for letter in letters)
        return None if ok else "A 8.1: group 1 needs a consonant other than G and J"

    return DrawRules(first, lambda letters: None, repair=False)


def _check_seven(letters: Sequence[str], rules: DrawRules) -> str | None:
    problem = rules.seven(letters)
    if problem is None and rules.extra is not None:
        problem = rules.extra(letters)
    return problem


def draw_groups(pack: RulePack, rules: DrawRules, seed: int) -> GroupSet:
    """Draw group 1, then groups 2–15 from the rest of the bag (A 5.2.d–e), each repeated until
    it satisfies `rules`; when the bag cannot give a valid group any more, A 5.2.e returns the
    fewest last groups that can all be made valid and draws them again under supervision."""
    rng = random.Random(seed)
    bag = Bag.full(pack.tiles)
    redraws: list[Redraw] = []
    repairs: list[Repair] = []
    first = _draw_until(bag, FIRST_SIZE, 1, rules.first, rng, redraws)
    groups: list[list[str]] = [first]
    count = len(bag) // GROUP_SIZE
    while len(groups) < 1 + count:
        number = len(groups) + 1
        if not rules.repair or _can_split(bag.letters(), 1, pack):
            groups.append(_draw_until(bag, GROUP_SIZE, number, lambda g: _check_seven(g, rules), rng, redraws))
            continue
        failing = bag.draw(GROUP_SIZE, rng)
        groups.append(failing)
        left = count + 1 - len(groups)
        back = repair_span(groups[1:], bag.letters(), left, pack)
        returned = groups[-back:]
        del groups[-back:]
        repairs.append(Repair(tuple(range(len(groups) + 1, len(groups) + back + 1)),
                              tuple(tuple(sort_letters(g, pack.tiles)) for g in returned)))
        for g in returned:
            bag.put_back(g)
        for _ in range(back):  # supervised: each group valid and the rest still able to be
            number = len(groups) + 1
            still = count + 1 - number

            def supervised(g: Sequence[str], still: int = still) -> str | None:
                problem = _check_seven(g, rules)
                if problem is None and not _can_split(bag.letters(), still, pack):
                    problem = "A 5.2.e: the groups after it could not all be valid"
                return problem

            groups.append(_draw_until(bag, GROUP_SIZE, number, supervised, rng, redraws))
    return GroupSet(tuple(tuple(sort_letters(g, pack.tiles)) for g in groups), "drawn",
                    tuple(redraws), tuple(repairs), seed)


def repair_span(drawn: Sequence[Sequence[str]], bag: Sequence[str], left: int, pack: RulePack) -> int:
    """A 5.2.e: how many of the last drawn 7-letter groups go back to the bag: the fewest,
    taken strictly from the end, whose letters with the bag's can make every group still to
    draw valid (the rulebook's example: 0, 1 and 2 vowels in the last three groups -> 3)."""
    for t in range(1, len(drawn) + 1):
        if _can_split([x for g in drawn[-t:] for x in g] + list(bag), t + left, pack):
            return t
    raise AnticipationInputError("A 5.2.e: no run of last groups can be made valid")


def _draw_until(bag: Bag, size: int, number: int, check: GroupCheck, rng: random.Random,
                redraws: list[Redraw]) -> list[str]:
    """Draw `size` letters; while `check` names a problem, put them back and draw again.
    `check` sees the bag as it is after the draw (the supervised redraw of A 5.2.e needs it)."""
    for _ in range(_MAX_TRIES):
        letters = bag.draw(size, rng)
        problem = check(letters)
        if problem is None:
            return letters
        redraws.append(Redraw(number, tuple(sort_letters(letters, bag.tiles)), problem))
        bag.put_back(letters)
    raise AnticipationInputError(f"group {number}: no valid group after {_MAX_TRIES} draws")


def parse_groups(texts: Sequence[str], pack: RulePack, rules: DrawRules, who: str = "groups") -> GroupSet:
    """Groups entered by the arbiter (A 5.2, announced in advance) or composed by a player in
    the blind variant (A 8.4): all problems are reported at once, naming the group."""
    problems: list[str] = []
    groups: list[Group] = []
    if len(texts) != GROUP_COUNT:
        problems.append(f"{who}: expected {GROUP_COUNT} groups, found {len(texts)}")
    for number, text in enumerate(texts, start=1):
        try:
            letters = tuple(sort_letters(pack.tiles.parse_rack(text), pack.tiles))
        except NotationError as exc:
            problems.append(f"{who}: group {number}: {exc}")
            continue
        size = FIRST_SIZE if number == 1 else GROUP_SIZE
        if len(letters) != size:
            problems.append(f"{who}: group {number} {text!r}: {len(letters)} letters, expected {size} (A 1.1)")
        problem = rules.first(letters) if number == 1 else _check_seven(letters, rules)
        if problem:
            problems.append(f"{who}: group {number} {text!r}: {problem}")
        groups.append(letters)
    used = Counter(x for g in groups for x in g)
    available = Counter(pack.tiles.counts) + Counter({JOKER: pack.tiles.jokers})
    for letter, n in sorted(used.items()):
        if n > available[letter]:
            problems.append(f"{who}: {n} × {letter!r}, the set holds {available[letter]} (A 3.1)")
    if problems:
        raise AnticipationInputError("\n".join(problems))
    return GroupSet(tuple(groups), "entered")


def draw_round_order(seed: int, numbers: Sequence[int] = tuple(range(2, GROUP_COUNT + 1))) -> tuple[int, ...]:
    """A 5.3: the 7-letter group of each round is drawn by lot among those left (round 1 plays
    group 1 and the first number drawn)."""
    rng = random.Random(seed)
    left = list(numbers)
    order = []
    while left:
        order.append(left.pop(rng.randrange(len(left))))
    return tuple(order)


def check_round_order(order: Sequence[int], groups: GroupSet) -> None:
    """Every round names a different existing 7-letter group."""
    seen: set[int] = set()
    for rnd, number in enumerate(order, start=1):
        if not 2 <= number <= len(groups.groups):
            raise AnticipationInputError(f"order: round {rnd} names group {number}, expected 2–{len(groups.groups)}")
        if number in seen:
            raise AnticipationInputError(f"order: group {number} is played twice (A 5.3: one remaining group a round)")
        seen.add(number)

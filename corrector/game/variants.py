"""Duplicate variants (RULES.md §6, D 8) and the duplicate rules data they share.

Numbers live in `rules/base/duplicate.toml` (a pack may add `rules/<pack>/duplicate.toml`);
what a variant changes in an algorithm is code here, selected by the variant's data:
how big the group is, which letters a move may take from the stock, which D 5.3.1 clause
judges a group.
"""
from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jsonschema

from corrector.game.bag import DrawRule
from corrector.errors import RulePackError
from corrector.reasons import Reason, Violation
from corrector.rulepack import RULES_DIR, RulePack, merge_tables, read_toml
from corrector.tiles import JOKER, Tile


@dataclass(frozen=True)
class DrawRules:
    """The numbers of D 5.3.1 (see duplicate.toml)."""

    early_rounds: int
    early_min_vowels: int
    early_min_consonants: int
    late_min_vowels: int
    late_min_consonants: int
    short_min_vowels: int
    short_min_consonants: int
    tactic_min_vowels: int
    tactic_min_consonants: int
    short_stock: str
    max_redraws: int


@dataclass(frozen=True)
class EndRules:
    """D 5.3.8: what bag + group must still hold for the game to go on."""

    min_vowels: int
    min_consonants: int


@dataclass(frozen=True)
class ContinuationRules:
    """D 5.3.7: the preference order among equal tops and the balance measure."""

    order: tuple[str, ...]
    balance_basis: str


@dataclass(frozen=True)
class Variant:
    """One D 8 variant. `rack_size` letters are in play each round: `drawn` by the arbiter plus
    `chosen` by each player from the stock; a move places at most `use_max` tiles."""

    name: str
    article: str
    drawn: int
    chosen: int
    use_max: int
    groups: int
    swaps: int
    draw_rule: str

    @property
    def rack_size(self) -> int:
        return self.drawn + self.chosen

    def draw_rule_for(self, round_no: int, rules: DrawRules) -> DrawRule:
        """The D 5.3.1 clause for this round (1-based)."""
        early = round_no <= rules.early_rounds
        if self.draw_rule == "tactic":  # D 8.6
            return DrawRule(rules.tactic_min_vowels, rules.tactic_min_consonants, rules.short_stock)
        if self.draw_rule == "short":
            if early:
                return DrawRule(rules.short_min_vowels, rules.short_min_consonants, rules.short_stock)
            return DrawRule(0, 0, rules.short_stock, kind="short")
        if early:
            return DrawRule(rules.early_min_vowels, rules.early_min_consonants, rules.short_stock)
        return DrawRule(rules.late_min_vowels, rules.late_min_consonants, rules.short_stock)


@dataclass(frozen=True)
class DuplicateRules:
    draw: DrawRules
    end: EndRules
    continuation: ContinuationRules
    variants: Mapping[str, Variant]
    letter_names: Mapping[str, str]
    source: str

    def variant(self, name: str) -> Variant:
        key = name.replace("-", "_").lower()
        if key not in self.variants:
            raise RulePackError(f"{self.source}: unknown variant {name!r} (available: {', '.join(sorted(self.variants))})")
        return self.variants[key]


@lru_cache(maxsize=16)
def _load(pack_dir: str) -> DuplicateRules:
    base = RULES_DIR / "base" / "duplicate.toml"
    data, sources = read_toml(base), [str(base)]
    own = Path(pack_dir) / "duplicate.toml"
    if own.exists() and own != base:
        data, sources = merge_tables(data, read_toml(own)), sources + [str(own)]
    source = " + ".join(sources)
    schema = json.loads((RULES_DIR / "duplicate.schema.json").read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(map(str, e.path)))
    if errors:
        raise RulePackError("\n".join(
            f"{source}: field {'.'.join(map(str, e.path)) or '(top level)'}: {e.message}" for e in errors))
    variants = {name: Variant(name=name, **v) for name, v in data["variants"].items()}
    for v in variants.values():
        if v.use_max > v.rack_size:
            raise RulePackError(f"{source}: field variants.{v.name}.use_max: more than drawn + chosen")
    c = data["continuation"]
    return DuplicateRules(
        draw=DrawRules(**data["draw"]),
        end=EndRules(**data["end"]),
        continuation=ContinuationRules(tuple(c["order"]), c["balance_basis"]),
        variants=variants,
        letter_names=dict(data.get("letter_names", {})),
        source=source,
    )


def load_duplicate_rules(pack: RulePack) -> DuplicateRules:
    """The duplicate rules for a pack: the base file, then the pack's own if it has one."""
    return _load(str(Path(pack.source).parent))


# --- which letters a move uses ------------------------------------------------------------------

@dataclass(frozen=True)
class RackUse:
    """Where the tiles of a move come from, and what is left.

    from_group: group letters used ('?' for a joker); from_stock: letters taken from the stock
    (completiv and super joker choices, metagramă swaps); given_up: group letters swapped back
    into the stock (metagramă); leave: the group letters kept for the next round (D 5.3.1).
    """

    from_group: tuple[str, ...]
    from_stock: tuple[str, ...]
    given_up: tuple[str, ...]
    leave: tuple[str, ...]


def use_rack(variant: Variant, group: Sequence[str], stock: Mapping[str, int], tiles: Iterable[Tile]) -> RackUse | Violation:
    """Check that the new tiles of a move may come from `group` (and, where the variant allows
    it, from `stock`, the letters still in the bag) and say where each comes from.

    A tile is matched to the group first: a letter to itself, a joker tile to a '?'. Classic,
    top, tactic: the group only. Eliptic (D 8.3): at most `use_max` tiles. Completiv and super
    joker (D 8.2, 8.5): up to `chosen` more letters from the stock. Metagramă (D 8.7): up to
    `swaps` letters from the stock, each replacing an unused group letter, which goes back.
    The D 8.2 marking cases (an unmarked letter that only a joker can give) are the
    correction's concern: this function sees tiles as marked.
    """
    placed = list(tiles)
    if len(placed) > variant.use_max:
        return Violation(Reason.TOO_MANY_TILES, f"{len(placed)} > {variant.use_max}")
    left = Counter(group)
    stock_left = Counter({k: v for k, v in stock.items() if v > 0})
    from_group: list[str] = []
    from_stock: list[str] = []
    outside: list[Tile] = []
    for tile in placed:
        key = JOKER if tile.joker else tile.letter
        if left[key] > 0:
            left[key] -= 1
            from_group.append(key)
        else:
            from_stock.append(key)
            outside.append(tile)
    extra = variant.chosen + variant.swaps
    missing_tiles: list[Tile] = []
    if from_stock:
        if len(from_stock) > extra:
            missing_tiles = outside
        else:
            short = Counter(from_stock) - stock_left
            missing_tiles = [t for t, k in zip(outside, from_stock) if short[k] > 0]
    if missing_tiles:
        shown = "".join(f"?({t.letter.lower()})" if t.joker else t.letter for t in missing_tiles)
        return Violation(Reason.LETTERS_NOT_IN_GROUP, shown)
    unused = _unused(group, from_group)
    given_up: list[str] = []
    if variant.swaps and from_stock:
        if len(unused) < len(from_stock):
            return Violation(Reason.TOO_MANY_TILES, f"{len(placed)} > {len(group)}")
        # **Decision** (D 8.7 does not say which letter a top gives up): the last unused letters
        # in announcement order go back, so the choice is reproducible.
        # A joker is never given up while another letter can be.
        ordered = sorted(unused, key=lambda letter: (letter != JOKER, letter))
        given_up = ordered[len(ordered) - len(from_stock):]
        for letter in given_up:
            unused.remove(letter)
    return RackUse(tuple(from_group), tuple(from_stock), tuple(given_up), tuple(unused))


def _unused(group: Sequence[str], used: Sequence[str]) -> list[str]:
    """Group letters not used, in the group's own order."""
    left = Counter(used)
    out: list[str] = []
    for letter in group:
        if left[letter] > 0:
            left[letter] -= 1
        else:
            out.append(letter)
    return out


# --- the racks a top search must try --------------------------------------------------------------

@dataclass(frozen=True)
class RackOption:
    """One set of letters a player may hold this round: the group, plus letters chosen from the
    stock, less letters swapped away. The top of the round is the best over every option."""

    rack: tuple[str, ...]
    from_stock: tuple[str, ...] = ()
    given_up: tuple[str, ...] = ()


def rack_options(variant: Variant, group: Sequence[str], stock: Mapping[str, int]) -> list[RackOption]:
    """Every distinct rack a player may form this round, in a fixed order.

    Classic/top/tactic: the group. Eliptic: each distinct `use_max`-letter subset (a move never
    places more). Completiv/super joker: the group plus every multiset of `chosen` stock letters
    (fewer when the stock runs short). Metagramă: the group, and the group with up to `swaps`
    letters exchanged for distinct stock letters.
    """
    group = tuple(sorted(group, key=lambda letter: (letter == JOKER, letter)))
    available = sorted((k for k, v in stock.items() if v > 0), key=lambda letter: (letter == JOKER, letter))
    if variant.chosen:
        n = min(variant.chosen, sum(stock.values()), max(0, variant.rack_size - len(group)))
        picks = [c for c in itertools.combinations_with_replacement(available, n)
                 if all(c.count(k) <= stock[k] for k in set(c))]
        return [RackOption(group + pick, from_stock=pick) for pick in picks]
    if len(group) > variant.use_max:
        subsets = sorted(set(itertools.combinations(group, variant.use_max)))
        return [RackOption(subset) for subset in subsets]
    options = [RackOption(group)]
    for k in range(1, variant.swaps + 1):
        seen: set[tuple[str, ...]] = {group}
        for out in sorted(set(itertools.combinations(group, k))):
            for into in itertools.combinations_with_replacement(available, k):
                if any(into.count(x) > stock[x] for x in set(into)) or set(into) & set(out):
                    continue
                rest = list(group)
                for letter in out:
                    rest.remove(letter)
                rack = tuple(sorted(rest + list(into), key=lambda letter: (letter == JOKER, letter)))
                if rack not in seen:
                    seen.add(rack)
                    options.append(RackOption(rack, from_stock=into, given_up=out))
    return options

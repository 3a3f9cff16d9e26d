"""Tile sets: which letters exist, how many, what they are worth, and how words split into tiles.

Words are tokenised into tiles, never one character = one tile: Catalan has the digraph
tiles L·L, NY and QU (RULES.md appendix), so "COL·LEGA" is C O L·L E G A.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from corrector.errors import NotationError

JOKER = "?"


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile on the board or in a word: its letter and whether a joker stands for it."""

    letter: str
    joker: bool = False

    def __str__(self) -> str:
        return self.letter.lower() if self.joker else self.letter


@dataclass(frozen=True)
class TileSet:
    """The letters of a rule pack (RULES.md §1): counts, values, vowels, joker range, folding."""

    letters: tuple[str, ...]
    counts: dict[str, int]
    values: dict[str, int]
    vowels: frozenset[str]
    jokers: int
    joker_letters: tuple[str, ...]
    folding: dict[str, str] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values()) + self.jokers

    @property
    def alphabet(self) -> tuple[str, ...]:
        """Every letter a word may contain: real tiles and those only a joker can stand for."""
        extra = tuple(letter for letter in self.joker_letters if letter not in self.counts)
        return self.letters + extra

    def value(self, tile: Tile) -> int:
        """A joker scores 0 (Annex 1); a letter without tiles can only be a joker."""
        return 0 if tile.joker else self.values.get(tile.letter, 0)

    def is_vowel(self, letter: str) -> bool:
        return letter in self.vowels

    def fold(self, text: str) -> str:
        """Uppercase and fold diacritics as the pack says (Annex 1: Ă=Â=A, Î=I, Ș=S, Ț=T)."""
        out = text.upper()
        for source in sorted(self.folding, key=len, reverse=True):
            out = out.replace(source.upper(), self.folding[source])
        return out

    def tokenize(self, word: str) -> list[str]:
        """Split a folded, uppercase word into tile letters, longest tile first.

        Raises NotationError naming the first character that is no letter of the pack.
        """
        alphabet = sorted(self.alphabet, key=len, reverse=True)
        tiles: list[str] = []
        i = 0
        while i < len(word):
            for letter in alphabet:
                if word.startswith(letter, i):
                    tiles.append(letter)
                    i += len(letter)
                    break
            else:
                raise NotationError(f"letter {word[i]!r} (position {i + 1} of {word!r}) is not in this tile set")
        return tiles

    def parse_word(self, text: str, joker_indices: tuple[int, ...] | list[int] = ()) -> tuple[Tile, ...]:
        """Parse a written word into tiles; lowercase letters, or the given 0-based tile
        indices, are jokers (the slip marks them by a circle or a dot, RULES.md §2)."""
        raw = text.strip()
        if not raw:
            raise NotationError("the word is empty")
        tiles: list[Tile] = []
        pos = 0
        folded = self.fold(raw)
        for letter in self.tokenize(folded):
            # Map back to the raw text to see whether the written letters were lowercase.
            width = _raw_width(raw, pos, letter, self)
            chunk = raw[pos:pos + width]
            pos += width
            is_joker = chunk.islower() if any(ch.isalpha() for ch in chunk) else False
            tiles.append(Tile(letter, is_joker))
        for index in joker_indices:
            if not 0 <= index < len(tiles):
                raise NotationError(f"joker index {index} is outside the word {text!r} ({len(tiles)} tiles)")
            tiles[index] = Tile(tiles[index].letter, True)
        return tuple(tiles)

    def parse_rack(self, text: str) -> list[str]:
        """A group of letters as written by the arbiter ('?' is a joker; '+', '-', spaces ignored)."""
        cleaned = "".join(ch for ch in text if ch not in "+- \t")
        out: list[str] = []
        for i, part in enumerate(cleaned.split(JOKER)):
            if i:
                out.append(JOKER)
            out.extend(self.tokenize(self.fold(part)))
        for letter in out:
            if letter != JOKER and letter not in self.counts:
                raise NotationError(f"letter {letter!r} of the group {text!r} has no tile in this set")
        return out


def _raw_width(raw: str, pos: int, letter: str, tileset: TileSet) -> int:
    """How many characters of the raw text spell the folded tile letter starting at `pos`."""
    for width in range(1, len(raw) - pos + 1):
        if tileset.fold(raw[pos:pos + width]) == letter:
            return width
    return len(letter)

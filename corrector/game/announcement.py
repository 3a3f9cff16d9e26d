"""What the arbiter announces (D 5.3.2, D 5.3.7): the group drawn, and the warnings that go with
the top ("atenție la poziția depunerii top", "atenție la poziția jokerului", "atenție la soluția
reținută"). Texts only; the choice of the top is `continuation`'s."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from corrector.game.bag import Draw, sort_letters
from corrector.game.continuation import Candidate
from corrector.tiles import TileSet

_ORDINALS = ("prima", "a doua", "a treia", "a patra", "a cincea", "a șasea", "a șaptea", "a opta", "a noua",
             "a zecea", "a unsprezecea", "a douăsprezecea", "a treisprezecea", "a paisprezecea",
             "a cincisprezecea")


class Flag(Enum):
    """A warning announced with the top (D 5.3.7): (Romanian, English)."""

    POSITION = ("atenție la poziția depunerii top!", "mind the position of the top")
    JOKER = ("atenție la poziția jokerului", "mind where the joker stands")
    SOLUTION = ("atenție la soluția reținută!", "mind the move retained")

    def message(self, language: str = "ro") -> str:
        return self.value[0] if language == "ro" else self.value[1]


@dataclass(frozen=True)
class Announcement:
    """A flag and its full text (the joker flag names each joker's place in the word)."""

    flag: Flag
    text: str


def _letters(move_tiles) -> tuple[str, ...]:
    return tuple(t.letter for t in move_tiles)


def letter_name(letter: str, names: Mapping[str, str]) -> str:
    """`E ELENA` (Annex 2); a letter without a name is read as written."""
    name = names.get(letter)
    return f"{letter} {name}" if name else letter


def top_flags(retained: Candidate, tops: Sequence[Candidate], names: Mapping[str, str]) -> list[Announcement]:
    """The D 5.3.7 warnings for the retained top among all the round's tops (one per deposit):

    - POSITION: the same word reaches the top score at another position;
    - JOKER: the same word at the same position reaches it with the joker on other letters
      (the text says which letter of the word the joker is: "jokerul este a doua literă (E ELENA)");
    - SOLUTION: another word reaches the top score.
    """
    word = _letters(retained.move.tiles)
    others = [c for c in tops if c.deposit != retained.deposit]
    out: list[Announcement] = []
    if any(_letters(c.move.tiles) == word and c.move.position != retained.move.position for c in others):
        out.append(Announcement(Flag.POSITION, Flag.POSITION.message()))
    if any(_letters(c.move.tiles) == word and c.move.position == retained.move.position for c in others):
        board_squares = {(r, c) for r, c, _ in retained.placement.new_tiles}
        places = [i for i, tile in enumerate(retained.move.tiles)
                  if tile.joker and retained.move.position.square(i) in board_squares]
        parts = [f"jokerul este {_ORDINALS[i]} literă ({letter_name(retained.move.tiles[i].letter, names)})"
                 for i in places]
        text = Flag.JOKER.message() + (", " + " și ".join(parts) if parts else "") + " în cadrul depunerii"
        out.append(Announcement(Flag.JOKER, text))
    if any(_letters(c.move.tiles) != word for c in others):
        out.append(Announcement(Flag.SOLUTION, Flag.SOLUTION.message()))
    return out


def draw_text(round_no: int, draw: Draw, tiles: TileSet, names: Mapping[str, str]) -> list[str]:
    """The arbiter's lines for a round's draw (D 5.3.2): each group given up with its reason,
    then "pentru turul X [au rămas literele ... și] am extras literele ...", alphabetical in each part."""

    def spell(letters: Sequence[str]) -> str:
        return ", ".join(letter_name(letter, names) for letter in sort_letters(letters, tiles))

    lines = []
    for rejected in draw.rejected:
        given_up = spell(rejected.kept + rejected.drawn)
        lines.append(f"pentru turul {round_no} se renunță la literele {given_up}: {rejected.problem.message('ro')}")
    if draw.kept:
        lines.append(f"pentru turul {round_no} au rămas literele {spell(draw.kept)} și am extras literele {spell(draw.drawn)}")
    else:
        lines.append(f"pentru turul {round_no} am extras literele {spell(draw.drawn)}")
    return lines

"""Rule packs: the data of `rules/<pack>/pack.toml`, merged with the packs it extends,
validated against `rules/schema.json` (all errors at once, sorted by path), then checked
for consistency (tile total, vowels, start square)."""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from corrector.errors import RulePackError
from corrector.tiles import TileSet

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
SIZE = 15
ROW_LETTERS = "ABCDEFGHIJKLMNO"
_PREMIUMS = {".": (1, 1), "d": (2, 1), "t": (3, 1), "D": (1, 2), "T": (1, 3)}


@dataclass(frozen=True)
class BoardLayout:
    """Premium squares and the start square (which belongs to the layout, not to the code)."""

    grid: tuple[str, ...]
    start: tuple[int, int]

    def premium(self, row: int, col: int) -> tuple[int, int]:
        """(letter multiplier, word multiplier) of a square."""
        return _PREMIUMS[self.grid[row][col]]


@dataclass(frozen=True)
class Sanctions:
    """Numbers of RULES.md §3–4 (D 6.2–6.4, D 5.3.8)."""

    free_warnings: int
    warning_cost: int
    warning_exempt_max_score: int
    technical_penalty: int
    disciplinary_deduction: int
    disciplinary_eliminates_at: int
    solo_bonus: int
    solo_min_players: int


@dataclass(frozen=True)
class Policies:
    """The **Decision** points of RULES.md, each switchable by the arbiter."""

    one_wrong_sign_choice: str
    unmarked_joker_choice: str
    joker_mark_without_joker: str
    solo_basis: str
    one_warning_per_slip_multi_move: bool
    inverted_signs_senior: str
    inverted_signs_youth: str


@dataclass(frozen=True)
class RulePack:
    name: str
    description: str
    tiles: TileSet
    board: BoardLayout
    rack_size: int
    bingo_bonus: int
    sanctions: Sanctions
    policies: Policies
    source: str

    def with_policies(self, **changes: Any) -> "RulePack":
        """The same pack with some policies switched (validated like the file)."""
        unknown = set(changes) - set(Policies.__dataclass_fields__)
        if unknown:
            raise RulePackError(f"{self.source}: unknown policy {sorted(unknown)[0]!r}")
        data = {**self.policies.__dict__, **changes}
        _validate(data, self.source, _schema()["properties"]["policies"], prefix="policies")
        return replace(self, policies=Policies(**data))


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    return json.loads((RULES_DIR / "schema.json").read_text(encoding="utf-8"))


def available_packs() -> list[str]:
    return sorted(p.parent.name for p in RULES_DIR.glob("*/pack.toml") if p.parent.name != "base")


def _pack_path(name_or_path: str | Path) -> Path:
    path = Path(name_or_path)
    if path.suffix == ".toml" and path.exists():
        return path
    candidate = RULES_DIR / str(name_or_path) / "pack.toml"
    if candidate.exists():
        return candidate
    raise RulePackError(f"rule pack {str(name_or_path)!r} not found (available: {', '.join(available_packs())})")


def read_toml(path: Path) -> dict[str, Any]:
    """A rule file as a dict; a syntax error names the file, line and column."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise RulePackError(f"{path}: {exc}") from exc


def merge_tables(base: dict[str, Any], override: dict[str, Any], whole: tuple[str, ...] = ()) -> dict[str, Any]:
    """Deep-merge an extending pack over its base; tables named in `whole` are replaced, not merged
    (a pack's letter table is its own, never a mix with the base's)."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in whole:
            out[key] = merge_tables(out[key], value, whole)
        else:
            out[key] = value
    return out


def _load_merged(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    if path in seen:
        raise RulePackError(f"{path}: 'extends' forms a cycle")
    data = read_toml(path)
    parent = data.get("extends")
    if parent is None:
        return data
    parent_path = path.parent.parent / parent / "pack.toml"
    if not parent_path.exists():
        parent_path = _pack_path(parent)
    return merge_tables(_load_merged(parent_path, seen + (path,)), data, whole=("letters",))


def _validate(data: dict[str, Any], source: str, schema: dict[str, Any], prefix: str = "") -> None:
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(map(str, e.path)))
    if errors:
        lines = []
        for err in errors:
            where = ".".join([prefix] * bool(prefix) + [str(p) for p in err.path]) or "(top level)"
            lines.append(f"{source}: field {where}: {err.message}")
        raise RulePackError("\n".join(lines))


def parse_square(text: str) -> tuple[int, int]:
    """'H8' -> (7, 7): a square named row letter then column number."""
    return ROW_LETTERS.index(text[0]), int(text[1:]) - 1


def _build(data: dict[str, Any], source: str) -> RulePack:
    t = data["tiles"]
    letters = tuple(t["letters"])
    counts = {k: v[0] for k, v in t["letters"].items()}
    values = {k: v[1] for k, v in t["letters"].items()}
    tiles = TileSet(
        letters=letters,
        counts=counts,
        values=values,
        vowels=frozenset(),
        jokers=t["jokers"],
        joker_letters=(),
        folding=dict(data.get("folding", {})),
    )
    joker_letters = tuple(t["joker_letters"]) + tuple(t.get("joker_digraphs", ()))
    tiles = replace(tiles, joker_letters=joker_letters)
    vowels = frozenset(tiles.tokenize(t["vowels"]))
    tiles = replace(tiles, vowels=vowels)
    if tiles.total != t["total"]:
        raise RulePackError(
            f"{source}: field tiles.total: letter counts plus jokers make {tiles.total}, the pack says {t['total']}"
        )
    missing = [v for v in vowels if v not in counts]
    if missing:
        raise RulePackError(f"{source}: field tiles.vowels: {missing[0]!r} is not a letter of tiles.letters")
    start = parse_square(data["board"]["start"])
    return RulePack(
        name=data["name"],
        description=data["description"],
        tiles=tiles,
        board=BoardLayout(grid=tuple(data["board"]["grid"]), start=start),
        rack_size=t["rack_size"],
        bingo_bonus=t["bingo_bonus"],
        sanctions=Sanctions(**data["sanctions"]),
        policies=Policies(**data["policies"]),
        source=source,
    )


def pack_sha256(name_or_path: str | Path = "ro") -> str:
    """The sha256 of a pack as it applies: its file merged with every pack it extends, as
    canonical JSON. A game pins it at `game new`, so a pack edited since (its own file or a base
    it extends) is seen, while a change of comments or layout is not."""
    data = _load_merged(_pack_path(name_or_path))
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=32)
def load_pack(name_or_path: str | Path = "ro") -> RulePack:
    """Load a pack by name (`ro`, `pl`, `ca`, `en`, `fr`) or by the path of a pack.toml."""
    path = _pack_path(name_or_path)
    source = str(path)
    data = _load_merged(path)
    _validate(data, source, _schema())
    try:
        return _build(data, source)
    except ValueError as exc:  # a letter list that does not tokenise into the pack's tiles
        raise RulePackError(f"{source}: {exc}") from exc

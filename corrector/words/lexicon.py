"""Word lists: read a plain list, a `.gz`, or the federation's LOC files; keep them as a word graph.

Words are tile sequences tokenised by the rule pack (Catalan L·L, NY, QU are one tile each), so
the list, the board and the move generator agree on what one letter is. The graph is built once
and cached next to the list, keyed by the list's sha256 and the pack and sealed with a keyed
hash (HMAC-SHA256 under a secret kept in the user's cache folder, `cache_key`); a stale, corrupt
or hand-rewritten cache is rebuilt, never trusted. Every game records the list's label, word count and sha256.
"""
from __future__ import annotations

import gzip
import hashlib
import hmac
import io
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from corrector.words.dawg import MAX_LETTERS, Dawg, build_dawg, from_arrays
from corrector.errors import LexiconError
from corrector.rulepack import RulePack
from corrector.tiles import Tile, TileSet

MIN_LENGTH, MAX_LENGTH = 2, 15  # a word shorter than 2 tiles is no word; the board has 15 squares
CACHE_VERSION = 2  # 2: sealed (`_seal`)
FORMATS = ("plain", "loc-reduse", "loc-flexiuni")


@dataclass(frozen=True)
class LexiconInfo:
    """What a game record keeps about the list it was corrected with."""

    label: str
    word_count: int
    sha256: str
    source: str
    pack: str
    format: str


class Lexicon:
    """A set of words over a pack's tiles. `word in lexicon` takes a folded string or a
    sequence of tile letters (or Tiles)."""

    def __init__(self, dawg: Dawg, tiles: TileSet, info: LexiconInfo):
        if len(tiles.alphabet) > MAX_LETTERS:
            raise LexiconError(f"{info.source}: the pack has more than {MAX_LETTERS} letters")
        self.dawg = dawg
        self.tiles = tiles
        self.info = info
        self.alphabet: tuple[str, ...] = tiles.alphabet
        self.index: dict[str, int] = {letter: i for i, letter in enumerate(self.alphabet)}

    def __len__(self) -> int:
        return self.info.word_count

    def __contains__(self, word: object) -> bool:
        indices = self.indices(word)
        return indices is not None and MIN_LENGTH <= len(indices) <= MAX_LENGTH and self.dawg.contains(indices)

    def __repr__(self) -> str:
        i = self.info
        return f"Lexicon({i.label!r}, {i.word_count} words, pack {i.pack}, sha256 {i.sha256[:12]}…)"

    def indices(self, word: object) -> list[int] | None:
        """Tile indices of a word, or None when it holds something that is no letter of the pack."""
        if isinstance(word, str):
            try:
                letters: Sequence = self.tiles.tokenize(self.tiles.fold(word))
            except ValueError:
                return None
        elif isinstance(word, Iterable):
            letters = [t.letter if isinstance(t, Tile) else t for t in word]
        else:
            return None
        out = []
        for letter in letters:
            i = self.index.get(letter)
            if i is None:
                return None
            out.append(i)
        return out

    def words(self) -> Iterator[str]:
        """Every word, tiles joined, in the pack's letter order."""
        for seq in self.dawg.sequences():
            yield "".join(self.alphabet[i] for i in seq)

    @classmethod
    def from_words(cls, words: Iterable[str], pack: RulePack, label: str = "in-memory list") -> "Lexicon":
        """A list built in memory (tests, small custom lists); no cache."""
        lines = list(words)
        data = ("\n".join(lines) + "\n").encode("utf-8")
        encoded = _encode_lines(lines, pack.tiles, "plain", label)
        info = LexiconInfo(label, len(encoded), hashlib.sha256(data).hexdigest(), label, pack.name, "plain")
        return cls(build_dawg(sorted(encoded)), pack.tiles, info)


def detect_format(path: Path) -> str:
    """The federation's files are named `loc-reduse-*` and `loc-flexiuni-*`; anything else is plain."""
    name = path.name.lower()
    if "flexiuni" in name:
        return "loc-flexiuni"
    if "reduse" in name:
        return "loc-reduse"
    return "plain"


def load_lexicon(path: str | Path, pack: RulePack, label: str | None = None, fmt: str | None = None,
                 use_cache: bool = True) -> Lexicon:
    """Load a word list; read the cached graph when its key matches, else build and cache it."""
    path = Path(path)
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise LexiconError(f"{path}: unknown word-list format {fmt!r} (expected one of {', '.join(FORMATS)})")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LexiconError(f"{path}: cannot read word list: {exc.strerror or exc}") from exc
    sha = hashlib.sha256(raw).hexdigest()
    key = {"version": CACHE_VERSION, "sha256": sha, "pack": pack.name, "alphabet": list(pack.tiles.alphabet),
           "format": fmt}
    caches = (cache_path(path, pack), user_cache_path(sha, pack))
    info = LexiconInfo(label or path.name, 0, sha, str(path), pack.name, fmt)
    if use_cache:
        for cache in caches:
            cached = _read_cache(cache, key)
            if cached is not None:
                dawg, count = cached
                return Lexicon(dawg, pack.tiles, _with_count(info, count))
    encoded = _encode_lines(_decode(raw, path).splitlines(), pack.tiles, fmt, str(path))
    dawg = build_dawg(sorted(encoded))
    if use_cache:
        # Next to the list if its folder is writable, else in the user's cache folder.
        any(_write_cache(cache, key, dawg, len(encoded)) for cache in caches)
    return Lexicon(dawg, pack.tiles, _with_count(info, len(encoded)))


def cache_path(path: Path, pack: RulePack) -> Path:
    return path.with_name(f"{path.name}.{pack.name}.dawg.cache")


def user_cache_path(sha256: str, pack: RulePack) -> Path:
    """Fallback cache for a list in a read-only folder: $XDG_CACHE_HOME/fluturas (or ~/.cache)."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "fluturas"
    return root / f"{sha256}.{pack.name}.dawg.cache"


def _with_count(info: LexiconInfo, count: int) -> LexiconInfo:
    return LexiconInfo(info.label, count, info.sha256, info.source, info.pack, info.format)


def _decode(raw: bytes, path: Path) -> str:
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise LexiconError(f"{path}: damaged gzip file: {exc}") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Older federation files are in the Windows Central European code page.
        try:
            return raw.decode("cp1250")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise LexiconError(f"{path}: line {line}: neither UTF-8 nor cp1250 text") from exc


def _encode_lines(lines: Iterable[str], tiles: TileSet, fmt: str, source: str) -> set[bytes]:
    """Validate and tokenise every line into a byte string of tile indices.

    plain and loc-flexiuni are folded by the pack (Annex 1); loc-reduse is already folded and is
    taken as is (uppercased). Words outside 2–15 tiles cannot be played and are left out; any
    other character is an error naming the file and line.
    """
    alphabet = tiles.alphabet
    single = all(len(a) == 1 for a in alphabet)
    table = {ord(a): i for i, a in enumerate(alphabet)} if single else {}
    alternatives = "|".join(re.escape(a) for a in sorted(alphabet, key=len, reverse=True))
    token = re.compile(alternatives)
    whole = re.compile(f"(?:{alternatives})+")
    fold = (lambda w: w.upper()) if fmt == "loc-reduse" else tiles.fold
    # Folding the whole text at once is ~20x faster than word by word; no rule touches a newline.
    lines = list(lines)
    folded = fold("\n".join(lines)).split("\n")
    if len(folded) != len(lines):
        folded = [fold(line) for line in lines]
    out: set[bytes] = set()
    for number, (line, word) in enumerate(zip(lines, folded), 1):
        text = line.strip()
        if not text:
            continue
        word = word.strip()
        if whole.fullmatch(word) is None:
            bad = _first_bad(word, token)
            raise LexiconError(f"{source}: line {number}: invalid character {bad!r} in word {text!r}")
        if single:
            if MIN_LENGTH <= len(word) <= MAX_LENGTH:
                out.add(word.translate(table).encode("latin-1"))
        else:
            seq = token.findall(word)
            if MIN_LENGTH <= len(seq) <= MAX_LENGTH:
                out.add(bytes(alphabet.index(t) for t in seq))
    return out


def _first_bad(word: str, token: re.Pattern) -> str:
    i = 0
    while i < len(word):
        m = token.match(word, i)
        if m is None:
            return word[i]
        i = m.end()
    return word


def cache_key() -> bytes | None:
    """The secret that seals this user's caches: 32 random bytes in the user cache folder (mode
    0600), made once. A cache rewritten by hand, even with its graph digest recomputed, does not
    carry the seal and is rebuilt. None where the folder cannot be written: no cache is trusted."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "fluturas"
    path = root / "cache.key"
    try:
        key = path.read_bytes()
        if len(key) == 32:
            return key
    except OSError:
        pass
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp = root / f"cache.key.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(32))
        try:
            os.link(tmp, path)  # atomic, and never over a key another process made first
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
        key = path.read_bytes()
        return key if len(key) == 32 else None
    except OSError:
        return None


def _seal(key: bytes, meta: dict, dawg: Dawg) -> str:
    """HMAC-SHA256 over the cache's key, word count and every array of the graph."""
    mac = hmac.new(key, json.dumps([meta["key"], meta["word_count"]], sort_keys=True).encode("utf-8"), hashlib.sha256)
    for array in (dawg.start, dawg.letter, dawg.target, dawg.final):
        mac.update(np.ascontiguousarray(array).tobytes())
    return mac.hexdigest()


def _read_cache(cache: Path, key: dict) -> tuple[Dawg, int] | None:
    """The cached graph if it was built from this very list and pack, is intact and carries this
    user's seal, else None."""
    secret = cache_key()
    if secret is None:
        return None
    try:
        with np.load(cache, allow_pickle=False) as data:
            meta = json.loads(bytes(data["meta"]).decode("utf-8"))
            if meta.get("key") != key:
                return None
            dawg = from_arrays(data["start"], data["letter"], data["target"], data["final"])
        if dawg.digest() != meta.get("digest") or not hmac.compare_digest(str(meta.get("seal")),
                                                                          _seal(secret, meta, dawg)):
            return None
        return dawg, int(meta["word_count"])
    except (OSError, ValueError, KeyError, TypeError, EOFError, json.JSONDecodeError, UnicodeDecodeError):
        return None
    except Exception:  # a zip archive damaged in any other way: rebuild rather than trust it
        return None


def _write_cache(cache: Path, key: dict, dawg: Dawg, count: int) -> bool:
    """Write atomically, sealed; False where the folder cannot be written or no key can be kept."""
    secret = cache_key()
    if secret is None:
        return False
    meta = {"key": key, "digest": dawg.digest(), "word_count": count}
    meta["seal"] = _seal(secret, meta, dawg)
    data = json.dumps(meta).encode("utf-8")
    buffer = io.BytesIO()
    np.savez(buffer, meta=np.frombuffer(data, dtype=np.uint8), start=dawg.start, letter=dawg.letter,
             target=dawg.target, final=dawg.final)
    tmp = cache.with_name(cache.name + f".{os.getpid()}.tmp")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(buffer.getvalue())
        os.replace(tmp, cache)
        return True
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        return False

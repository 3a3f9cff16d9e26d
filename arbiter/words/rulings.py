"""Rulings in the arbiter's words: the judge's codes (VALID, SCORE_WRONG, ONE_SIGN_WRONG …) as the
rulebook names them (D 6.1 "depunere incorectă", D 6.2 "avertisment", D 6.3 "penalizare"), the
articles as "art. D 6.2.d", in Romanian or English."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

from corrector.anticipation.outcome import Outcome as Revised
from corrector.judging.rulings import Flag, PenaltyKind, Status, WarningKind

RO, EN = "ro", "en"

# Short names for a grid cell; the enums hold the rulebook's full sentence (shown as the title).
_WARNING_SHORT: dict[WarningKind, tuple[str, str]] = {
    WarningKind.BACK_DETAILS: ("nume sau masă greșite pe spatele fluturașului", "name or table wrong on the slip's back"),
    WarningKind.TABLE_OR_ROUND_MISSING: ("lipsește masa sau turul", "table or round missing"),
    WarningKind.JOKER_NOT_MARKED: ("joker nemarcat", "joker not marked"),
    WarningKind.SCORE_WRONG: ("punctaj greșit", "wrong score"),
    WarningKind.INVERTED_SIGNS: ("semne inversate", "signs inverted"),
    WarningKind.JOKER_MARKED_WITHOUT_JOKER: ("joker marcat greșit", "joker wrongly marked"),
}
_PENALTY_SHORT: dict[PenaltyKind, tuple[str, str]] = {
    PenaltyKind.INVERTED_SIGNS: ("semne inversate", "signs inverted"),
    PenaltyKind.ONE_SIGN_WRONG: ("un semn greșit", "one sign wrong"),
}
_ROUND_STATE = {"open": ("deschis", "open"), "closed": ("închis", "closed"), "drawn": ("extras", "drawn")}
_WORDS = {  # the few stored values (states, kinds, outcomes) said as words
    "filed": ("depus", "filed"), "superseded": ("înlocuit", "replaced"), "discarded": ("scos", "set aside"),
    "resolved": ("rezolvat", "resolved"), "open": ("deschis", "open"), "closed": ("închis", "closed"),
    "not-a-slip": ("nu e fluturaș", "not a slip"), "duplicate": ("duplicat", "duplicate"),
    "senior": ("seniori", "seniors"), "youth": ("tineret", "youth"), "accept": ("acceptat", "accepted"),
    "correct": ("corectat", "corrected"), "classic": ("clasic", "classic"), "draw": ("extrasă", "drawn"),
    "typed": ("introdusă de arbitru", "typed by the arbiter"), "anticipation": ("anticipație", "anticipation"),
    "upheld": ("admisă", "upheld"), "rejected": ("respinsă", "rejected"), "provisional": ("provizorii", "provisional"),
    "final": ("finale", "final"), "running": ("în desfășurare", "running"), "played": ("jucat", "played"),
}


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == EN else pair[0]


def _member(enum: type[Enum], code: Any) -> Any:
    """The member named `code` (any case), else None: stored names are upper, the decoder's lower."""
    name = str(code or "").strip().upper()
    return enum.__members__.get(name)


def _plain(code: Any) -> str:
    """An unknown code as lower-case words: never an upper-case rule code on screen."""
    return str(code).replace("_", " ").replace(".", " ").lower()


def status(code: Any, lang: str = RO) -> str:
    """The ruling's name (D 6.1–6.3): "depunere corectă", "depunere incorectă", "fluturaș lipsă"."""
    member = _member(Status, code) or _member(Revised, code)
    if member:
        return member.message(lang).partition(",")[0]
    return _pick(_WORDS[code], lang) if code in _WORDS else _plain(code)


def status_class(code: Any) -> str:
    member = _member(Status, code)
    return member.name.lower() if member else "other"


def warning(code: Any, lang: str = RO) -> str:
    """A technical warning (D 6.2): "avertisment: punctaj greșit"."""
    member = _member(WarningKind, code)
    what = _pick(_WARNING_SHORT[member], lang) if member in _WARNING_SHORT else _plain(code)
    return f"{'warning' if lang == EN else 'avertisment'}: {what}"


def penalty(code: Any, lang: str = RO) -> str:
    """A technical penalty (D 6.3): "penalizare: un semn greșit"."""
    member = _member(PenaltyKind, code)
    what = _pick(_PENALTY_SHORT[member], lang) if member in _PENALTY_SHORT else _plain(code)
    return f"{'penalty' if lang == EN else 'penalizare'}: {what}"


def full(code: Any, kind: str, lang: str = RO) -> str:
    """The rulebook's whole sentence for a warning, penalty, status or flag (a title, a note)."""
    enum = {"warning": WarningKind, "penalty": PenaltyKind, "status": Status, "flag": Flag}[kind]
    member = _member(enum, code)
    return member.message(lang) if member else _plain(code)


_ARTICLE = re.compile(r"\b([DA] \d+(?:\.\d+)*(?:\.[a-z])?)\b")


def articles(cited: Iterable[Any] | None) -> str:
    """"art. D 6.2.d, D 6.3.b": the rulebook's articles of every citation, each once; the digest's
    own section numbers (`RULES.md §3`) are the program's, not the arbiter's."""
    found: list[str] = []
    for item in cited or ():
        for art in _ARTICLE.findall(str(item)):
            if art not in found:
                found.append(art)
    # a chapter ("D 6", cited by every ruling) says less than any precise article beside it
    general = [a for a in found if "." not in a or any(b != a and b.startswith(a + ".") for b in found)]
    found = [a for a in found if a not in general] or found
    return ("art. " + ", ".join(found)) if found else ""


def flag(code: Any, lang: str = RO) -> str:
    if str(code).lower() == "solo":
        return "solo"
    return full(code, "flag", lang)


def round_state(code: Any, lang: str = RO) -> str:
    return _pick(_ROUND_STATE[code], lang) if code in _ROUND_STATE else _plain(code)


def ruling(d: Mapping[str, Any] | Any | None, lang: str = RO) -> dict[str, str]:
    """One decision (a store row, or a candidate's outcome) as the cells a page shows: the ruling,
    its warning and penalty, the articles, each in words."""
    if d is None:
        return {}
    get = d.get if isinstance(d, Mapping) else (lambda k, default=None: getattr(d, k, default))
    return {"status": status(get("status"), lang), "class": status_class(get("status")),
            "warning": warning(get("warning"), lang) if get("warning") else "",
            "warning_full": full(get("warning"), "warning", lang) if get("warning") else "",
            "penalty": penalty(get("penalty"), lang) if get("penalty") else "",
            "penalty_full": full(get("penalty"), "penalty", lang) if get("penalty") else "",
            "articles": articles(get("articles") or ()),
            "flags": "; ".join(flag(f, lang) for f in get("flags") or () if str(f).upper() != "APPEAL_APPLIED")}


def marked_word(word: str | None, jokers: Iterable[int] | None = (), lang: str = RO) -> str:
    """The word as the board shows it: a joker's letter in lower case (jokers are 0-based offsets)."""
    spots = {j for j in jokers or () if isinstance(j, int)}
    return "".join(ch.lower() if i in spots else ch for i, ch in enumerate(word or ""))


_APPEAL_KIND = {  # what a contestation is about (D 6.5)
    "reading": ("fluturaș citit greșit", "slip read wrongly"), "warning": ("avertisment tehnic", "technical warning"),
    "penalty": ("penalizare tehnică", "technical penalty"), "incorrect": ("depunere incorectă", "incorrect move"),
    "total": ("punctaj total", "total score"), "repeated": ("depunere incorectă repetată", "repeated incorrect move"),
}


def appeal_kind(code: str, lang: str = RO) -> str:
    return _pick(_APPEAL_KIND[code], lang) if code in _APPEAL_KIND else _plain(code)


_CODE = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")


def scrub(text: str | None, lang: str = RO) -> str:
    """A sentence the judge wrote (an explanation, an appeal's note) with any rule code in it said
    in words: "warning cancelled: SCORE_WRONG" → "… punctaj greșit"."""
    def say(m: re.Match[str]) -> str:
        code = m[0]
        for enum, short in ((WarningKind, _WARNING_SHORT), (PenaltyKind, _PENALTY_SHORT)):
            member = _member(enum, code)
            if member in short:
                return _pick(short[member], lang)
        for enum in (Status, Flag):
            member = _member(enum, code)
            if member:
                return member.message(lang)
        return _plain(code)
    return _CODE.sub(say, text or "")


def explanation(stored: Mapping[str, Any] | None, lang: str = RO) -> str:
    """The judge's explanation of a decision in the page's language (the other one if missing)."""
    if not stored:
        return ""
    other = RO if lang == EN else EN
    return scrub(str(stored.get(lang) or stored.get(other) or ""), lang)

"""What the store keeps as codes, said in the arbiter's words (Romanian first, English on request):
rulings as the rulebook names them (D 6.1 "depunere incorectă", D 6.2 "avertisment", D 6.3
"penalizare"), articles as "art. D 6.2.d", the review queue's reasons and the audit trail's
actions. Every page, the sheet's notes and `fluturas review` read codes through here, so no
upper-case code, `RULES.md` or Python value reaches a person."""
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
# The slip's fields as printed on it (D 5.3.5), in the genitive for "the boxes of ...".
_FIELD: dict[str, tuple[str, str, str]] = {  # name, Romanian, Romanian genitive, English
    "round": ("tur", "turului", "round"),
    "table": ("masă", "mesei", "table"),
    "score": ("punctaj", "punctajului", "score"),
    "total": ("total", "totalului", "total"),
    "position": ("poziție", "poziției", "position"),
    "word": ("depunere", "cuvântului", "word"),
    "jokers": ("joker", "jokerului", "joker"),
}
_KIND = {"reading": ("citire nesigură", "unsure reading"), "decision": ("decizie de verificat", "ruling to check")}
_ROUND_STATE = {"open": ("deschis", "open"), "closed": ("închis", "closed"), "drawn": ("extras", "drawn")}
_ENTITY = {
    "slip": ("fluturaș", "slip"), "decision": ("decizie", "decision"), "review_item": ("revizuire", "review"),
    "round": ("tur", "round"), "game": ("partidă", "game"), "player": ("jucător", "player"),
    "standing": ("masa", "table"), "appeal": ("contestație", "appeal"), "sanction": ("sancțiune", "sanction"),
    "tournament": ("turneu", "tournament"), "results": ("rezultate", "results"),
}
_ACTION = {
    "slip.file": ("fluturaș depus", "slip filed"), "slip.correct": ("fluturaș corectat", "slip corrected"),
    "slip.supersede": ("fluturaș înlocuit", "slip replaced"), "slip.restore": ("fluturaș repus", "slip restored"),
    "slip.move": ("fluturaș mutat în alt tur", "slip moved to another round"),
    "slip.discard": ("fluturaș scos", "slip set aside"),
    "review.resolve": ("revizuire rezolvată", "review resolved"), "review.reopen": ("revizuire redeschisă", "review reopened"),
    "review.conflict": ("corectură nesalvată (conflict)", "correction not saved (conflict)"),
    "decision.set": ("decizie", "decision"), "standing.set": ("total jucător", "player's total"),
    "round.rack": ("grupa de litere", "rack"), "round.continuation": ("depunerea top", "top move"),
    "round.close": ("tur închis", "round closed"), "round.open": ("tur deschis", "round opened"),
    "game.new": ("partidă nouă", "new game"), "game.top_total": ("totalul topurilor", "total of the tops"),
    "game.groups": ("grupele partidei", "the game's groups"), "game.group_order": ("ordinea grupelor", "order of the groups"),
    "tournament.new": ("turneu nou", "new tournament"), "player.seat": ("jucător așezat", "player seated"),
    "player.groups": ("grupele jucătorului", "the player's groups"),
    "results.provisional": ("rezultate provizorii", "provisional results"), "results.final": ("rezultate finale", "final results"),
    "results.reopen": ("rezultate redeschise", "results reopened"),
}
_SANCTION = {"disciplinary": ("avertisment disciplinar", "disciplinary warning"), "cheating": ("trișare", "cheating")}
_APPEAL = {"upheld": ("contestație admisă", "appeal upheld"), "rejected": ("contestație respinsă", "appeal rejected"),
           "filed": ("contestație depusă", "appeal filed"), "open": ("contestație depusă", "appeal filed")}
_WORDS = {  # the few values the audit trail keeps as words
    "filed": ("depus", "filed"), "superseded": ("înlocuit", "replaced"), "discarded": ("scos", "set aside"),
    "resolved": ("rezolvat", "resolved"), "open": ("deschis", "open"), "closed": ("închis", "closed"),
    "not-a-slip": ("nu e fluturaș", "not a slip"), "duplicate": ("duplicat", "duplicate"),
    "senior": ("seniori", "seniors"), "youth": ("tineret", "youth"), "accept": ("acceptat", "accepted"),
    "correct": ("corectat", "corrected"), "classic": ("clasic", "classic"), "draw": ("extrasă", "drawn"),
    "typed": ("introdusă de arbitru", "typed by the arbiter"), "anticipation": ("anticipație", "anticipation"),
    "upheld": ("admisă", "upheld"), "rejected": ("respinsă", "rejected"), "provisional": ("provizorii", "provisional"),
    "final": ("finale", "final"), "running": ("în desfășurare", "running"), "played": ("jucat", "played"),
}
_KEY = {  # audit record keys, as a person names them
    "round": ("tur", "round"), "table": ("masa", "table"), "score": ("puncte", "points"), "credited": ("acordat", "credited"),
    "position": ("poziția", "position"), "word": ("depunerea", "word"), "jokers": ("joker", "jokers"),
    "status": ("decizia", "decision"), "warning": ("avertisment", "warning"), "penalty": ("penalizare", "penalty"),
    "state": ("stare", "state"), "name": ("nume", "name"), "club": ("club", "club"), "rack": ("grupa", "rack"),
    "continuation": ("top", "top"), "total": ("total", "total"), "rank": ("loc", "rank"), "top_total": ("total top", "top total"),
    "warnings": ("avertismente", "warnings"), "penalties": ("penalizări", "penalties"), "solos": ("solo", "solos"),
    "as": ("ca", "as"), "by": ("de", "by"), "kind": ("tip", "kind"), "category": ("categorie", "category"),
    "variant": ("varianta", "variant"), "table_no": ("masa", "table"), "eliminated": ("eliminat", "eliminated"),
    "deadline": ("termen", "deadline"), "content": ("", ""), "solo": ("solo", "solo"), "on_appeal": ("contestație", "appeal"),
    "action": ("", ""), "correction": ("corectura:", "correction:"), "top_score": ("punctaj top", "top score"),
    "equal_tops": ("topuri egale", "equal tops"), "wordlist_label": ("lista de cuvinte", "word list"),
    "appeal_deadline": ("termen contestații", "appeal deadline"), "reopened": ("redeschis", "reopened"),
    "disciplinary": ("disciplinare", "disciplinary"), "round_no": ("tur", "round"),
}
# Fields of an audit record a person does not read (checksums, file names, internals).
_HIDDEN = {"sha256", "source", "slip_index", "explanation", "articles", "flags", "version", "candidates", "moves",
           "reading", "waived", "percent_of_top", "disciplinary_deduction", "warning_cost", "solo_rounds",
           "tops_found", "finders_sum", "top_points", "eliminated_in", "moves_count", "seed", "words", "rules",
           "tournament_id", "announcements", "reason", "game_id", "id", "draw_seed", "wordlist_sha256", "printed"}


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


def kind(code: Any, lang: str = RO) -> str:
    return _pick(_KIND[code], lang) if code in _KIND else _plain(code)


def round_state(code: Any, lang: str = RO) -> str:
    return _pick(_ROUND_STATE[code], lang) if code in _ROUND_STATE else _plain(code)


def field(name: str, lang: str = RO) -> str:
    entry = _FIELD.get(name)
    return (entry[2] if lang == EN else entry[0]) if entry else _plain(name)


def _boxes_of(fields: list[str], lang: str) -> str:
    if lang == EN:
        return "the " + " and ".join(_FIELD.get(f, (f, f, f))[2] for f in fields) + " boxes are unclear"
    return "căsuțele " + " și ale ".join(_FIELD.get(f, (f, f, f))[1] for f in fields) + " sunt neclare"


def _percent(p: str | float) -> str:
    return f"{round(100 * float(p))} %"


_PIECES: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"^decoder: table unreadable or not seated$"),
     lambda m, lang: "table unreadable or not seated" if lang == EN else "masa nu se citește sau nu are jucător"),
    (re.compile(r"^(?:decoder: )?table number unreadable$"),
     lambda m, lang: "the table number is unreadable" if lang == EN else "numărul mesei nu se citește"),
    (re.compile(r"^table (\d+) is not seated$"),
     lambda m, lang: f"table {m[1]} has no player" if lang == EN else f"la masa {m[1]} nu stă niciun jucător"),
    (re.compile(r"^(?:decoder: )?the (?:slip|QR) says round (\d+), (?:this is|filed in) round (\d+)$"),
     lambda m, lang: (f"the slip says round {m[1]}, filed in round {m[2]}" if lang == EN
                      else f"fluturașul spune turul {m[1]}, depus în turul {m[2]}")),
    (re.compile(r"^unsure: (.+)$"),
     lambda m, lang: ("unsure: " if lang == EN else "nesigur: ") + ", ".join(field(f.strip(), lang) for f in m[1].split(","))),
    (re.compile(r"^judge flagged: (.+)$"),
     lambda m, lang: "; ".join(flag(f.strip(), lang) for f in m[1].split(","))),  # the item's kind says "to check"
    (re.compile(r"^(?:decoder: )?another slip of this round also claims table (\d+)$"),
     lambda m, lang: (f"another slip of this round also claims table {m[1]}" if lang == EN
                      else f"alt fluturaș din acest tur are tot masa {m[1]}")),
    (re.compile(r"^the slip was printed for game .*$"),
     lambda m, lang: "the slip was printed for another game" if lang == EN else "fluturașul a fost tipărit pentru altă partidă"),
)
_DECODER = re.compile(r"^decoder: ([\d.]+) sure of ")
_AGAINST_BOXES = re.compile(r"boxes ([^;]+)")
_BOX = re.compile(r"([a-z_]+)\[\d+\]")


def _decoder(text: str, lang: str) -> str:
    """"decoder: 0.712 sure of … boxes score[2]" → "sigur 71 %: căsuțele punctajului sunt neclare"."""
    sure = _DECODER.match(text)
    head = ("{} sure" if lang == EN else "sigur {}").format(_percent(sure[1])) if sure else ""
    fields: list[str] = []
    boxes = _AGAINST_BOXES.search(text)
    for name in _BOX.findall(boxes[1] if boxes else ""):
        if name not in fields:
            fields.append(name)
    parts = [_boxes_of(fields, lang)] if fields else []
    if "the ink alone reads" in text:
        parts.append("the ink alone gives another ruling" if lang == EN else "cerneala singură dă altă decizie")
    if not parts:
        parts.append("the reading is unsure" if lang == EN else "citirea este nesigură")
    return f"{head}: {'; '.join(parts)}" if head else "; ".join(parts)


def review_reason(reason: str | None, lang: str = RO) -> str:
    """Why a slip waits for an arbiter, from the reason the store keeps: each known sentence in the
    arbiter's words; the decoder's figures as a percentage and the slip's boxes by name."""
    if not reason:
        return ""
    pieces = reason.split("; ")
    out: list[str] = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        if _DECODER.match(piece):  # the decoder's doubt runs on over its own "; against …" pieces
            j = i + 1
            while j < len(pieces) and (pieces[j].startswith("against ") or pieces[j].startswith("the ink alone")):
                j += 1
            out.append(_decoder("; ".join(pieces[i:j]), lang))
            i = j
            continue
        for pattern, say in _PIECES:
            m = pattern.match(piece)
            if m:
                out.append(say(m, lang))
                break
        else:
            out.append(piece.removeprefix("decoder: "))
        i += 1
    return "; ".join(out)


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


def action(code: str, lang: str = RO) -> str:
    """An audit record's action ("decision.set" → "decizie")."""
    if code in _ACTION:
        return _pick(_ACTION[code], lang)
    head, _, tail = code.partition(".")
    if head == "sanction" and tail in _SANCTION:
        return _pick(_SANCTION[tail], lang)
    if head == "appeal" and tail in _APPEAL:
        return _pick(_APPEAL[tail], lang)
    if tail == "withdraw":
        return f"{entity(head, lang)}: " + ("withdrawn" if lang == EN else "retras")
    return _plain(code)


def entity(code: str | None, lang: str = RO) -> str:
    return _pick(_ENTITY[code], lang) if code in _ENTITY else _plain(code or "")


def value(key: str, v: Any, lang: str = RO) -> str:
    """One stored value as words: rulings by name, lists joined, yes/no, never a Python repr."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return ("yes" if v else "no") if lang == EN else ("da" if v else "nu")
    if key == "status":
        return status(v, lang) if _member(Status, v) else _WORDS.get(str(v), (_plain(v), _plain(v)))[lang == EN]
    if key == "warning":
        return warning(v, lang).partition(": ")[2]
    if key == "penalty":
        return penalty(v, lang).partition(": ")[2]
    if isinstance(v, Mapping):
        return summary(v, lang)
    if isinstance(v, (list, tuple)):
        return ", ".join(value(key, x, lang) for x in v) or "—"
    if isinstance(v, str) and v in _WORDS:
        return _pick(_WORDS[v], lang)
    if isinstance(v, str) and _WHEN.match(v):  # an ISO time as the arbiter reads a clock
        return f"{v[8:10]}.{v[5:7]}.{v[0:4]} {v[11:16]}"
    return str(v)


_WHEN = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")


def summary(record: Mapping[str, Any] | None, lang: str = RO) -> str:
    """An audit record's fields as "tur 1, masa 7, depunerea H4 MODEL, puncte 26": the ones a
    person reads, in a fixed order, nested records flattened."""
    if not record:
        return ""
    out: list[str] = []
    for key, v in record.items():
        if key in _HIDDEN or key.endswith(("path", "sha256", "_label", "_id")) or v in (None, "", [], {}):
            continue
        label = _pick(_KEY[key], lang) if key in _KEY else _plain(key)
        if key == "status" and not _member(Status, v):
            label = "state" if lang == EN else "stare"
        shown = value(key, v, lang)
        out.append(f"{label} {shown}".strip() if label else shown)
    return ", ".join(out)


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


_AUDIT_REASONS: tuple[tuple[re.Pattern[str], tuple[str, str]], ...] = (
    (re.compile(r"^imported from .*$"), ("importat din lista de jucători", "imported from the list of players")),
    (re.compile(r"^drawn by the game master \(seed (\d+)\)$"), ("extrasă de program (sămânța {0})", "drawn by the program (seed {0})")),
    (re.compile(r"^the reading matches the slip$"), ("citirea corespunde fluturașului", "the reading matches the slip")),
    (re.compile(r"^read from the slip image$"), ("citit de pe imaginea fluturașului", "read from the slip image")),
    (re.compile(r"^judged from .*$"), ("corectat de program", "corrected by the program")),
    (re.compile(r"^candidate (\d+) \(p=([\d.]+|None)\) read from the slip image$"),
     ("varianta {0} citită de pe imaginea fluturașului", "candidate {0} read from the slip image")),
    (re.compile(r"^replaced by .*$"), ("înlocuit de o scanare nouă", "replaced by a new scan")),
    (re.compile(r"^discarded as (.+)$"), ("scos: {0}", "set aside: {0}")),
    (re.compile(r"^moved to round (\d+)$"), ("mutat în turul {0}", "moved to round {0}")),
)


def audit_reason(reason: str | None, lang: str = RO) -> str:
    """Why, as the program wrote it when it acted alone, in the arbiter's words; an arbiter's own
    words are shown as typed."""
    text = (reason or "").strip()
    for pattern, said in _AUDIT_REASONS:
        m = pattern.match(text)
        if m:
            return _pick(said, lang).format(*(value("as", g, lang) for g in m.groups()))
    return scrub(text, lang)


def corrected(number: int, counts: Mapping[str, int], held: int = 0, lang: str = RO) -> str:
    """What a correction pass did, as one line: "Turul 1 corectat: 3 decizii schimbate, …"."""
    c = {k: int(counts.get(k, 0)) for k in ("changed", "unchanged", "flagged")}
    if lang == EN:
        line = (f"Round {number} corrected: {c['changed']} decisions changed, {c['unchanged']} unchanged, "
                f"{c['flagged']} to check")
        return line + (f"; {held} slips wait in the review queue" if held else "")
    line = (f"Turul {number} corectat: decizii schimbate {c['changed']}, neschimbate {c['unchanged']}, "
            f"de verificat {c['flagged']}")
    return line + (f"; fluturași în revizuire: {held}" if held else "")


def appeal_filed(appeal_id: int, state: str, lang: str = RO) -> str:
    return f"{'Appeal' if lang == EN else 'Contestația'} #{appeal_id}: {value('status', state, lang)}"


def record(entity_name: str | None, entity_id: Any, lang: str = RO) -> str:
    """What an audit record is about: "decizie tur 1, masa 7", "fluturaș 12", "masa 3"."""
    ident = str(entity_id or "")
    if entity_name == "decision" and "/" in ident:
        number, _, table = ident.partition("/")
        return f"{entity(entity_name, lang)} " + (f"round {number}, table {table}" if lang == EN
                                                  else f"tur {number}, masa {table}")
    return f"{entity(entity_name, lang)} {ident}".strip()

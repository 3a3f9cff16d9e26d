"""The audit trail and the pages' one-line reports in the arbiter's words: actions ("decizie",
"fluturaș depus"), what a record is about, its fields without checksums, file names or Python
values, and the reasons the program wrote when it acted alone."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from corrector.decoding import HAND_NOTE, LOOKS_NOTE, LOOKS_TAIL, TWIN_NOTE, TWIN_TAIL
from corrector.judging.rulings import Status

from .reasons import field, genitive
from .rulings import _WORDS, EN, RO, _member, _pick, _plain, penalty, scrub, status, warning

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
    "player.add": ("jucător adăugat", "player added"), "player.edit": ("jucător modificat", "player changed"),
    "player.remove": ("jucător scos", "player removed"), "scan.pile": ("teanc scanat", "pile scanned"),
    "results.provisional": ("rezultate provizorii", "provisional results"), "results.final": ("rezultate finale", "final results"),
    "results.reopen": ("rezultate redeschise", "results reopened"),
}
_SANCTION = {"disciplinary": ("avertisment disciplinar", "disciplinary warning"), "cheating": ("trișare", "cheating")}
_APPEAL = {"upheld": ("contestație admisă", "appeal upheld"), "rejected": ("contestație respinsă", "appeal rejected"),
           "filed": ("contestație depusă", "appeal filed"), "open": ("contestație depusă", "appeal filed")}
_KEY = {  # audit record keys, as a person names them
    "round": ("tur", "round"), "table": ("masa", "table"), "score": ("puncte", "points"), "credited": ("acordat", "credited"),
    "position": ("poziția", "position"), "word": ("depunerea", "word"), "jokers": ("joker", "jokers"),
    "status": ("decizia", "decision"), "warning": ("avertisment", "warning"), "penalty": ("penalizare", "penalty"),
    "state": ("stare", "state"), "name": ("nume", "name"), "club": ("club", "club"), "rack": ("grupa", "rack"),
    "continuation": ("top", "top"), "total": ("total", "total"), "rank": ("loc", "rank"), "top_total": ("total top", "top total"),
    "warnings": ("avertismente", "warnings"), "penalties": ("penalizări", "penalties"), "solos": ("solo", "solos"),
    "as": ("ca", "as"), "created_at": ("din", "created"), "by": ("de", "by"), "kind": ("tip", "kind"), "category": ("categorie", "category"),
    "variant": ("varianta", "variant"), "table_no": ("masa", "table"), "eliminated": ("eliminat", "eliminated"),
    "deadline": ("termen", "deadline"), "content": ("", ""), "solo": ("solo", "solo"), "on_appeal": ("contestație", "appeal"),
    "action": ("", ""), "correction": ("corectura:", "correction:"), "top_score": ("punctaj top", "top score"),
    "equal_tops": ("topuri egale", "equal tops"), "wordlist_label": ("lista de cuvinte", "word list"),
    "appeal_deadline": ("termen contestații", "appeal deadline"), "reopened": ("redeschis", "reopened"),
    "disciplinary": ("disciplinare", "disciplinary"), "round_no": ("tur", "round"), "pile": ("teancul", "pile"),
    "files": ("", ""),
}
# Fields of an audit record a person does not read (checksums, file names, internals).
_HIDDEN = {"sha256", "source", "slip_index", "explanation", "articles", "flags", "version", "candidates", "moves",
           "reading", "waived", "percent_of_top", "disciplinary_deduction", "warning_cost", "solo_rounds",
           "tops_found", "finders_sum", "top_points", "eliminated_in", "moves_count", "seed", "words", "rules",
           "tournament_id", "announcements", "reason", "game_id", "id", "draw_seed", "wordlist_sha256", "printed"}


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
    if key == "files" and isinstance(v, (list, tuple)):  # a pile's files: how many, never their paths
        return f"{len(v)} " + ("file(s)" if lang == EN else ("fișier" if len(v) == 1 else "fișiere"))
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
_BOX = re.compile(r"(\S+) read ([^()]+) \((\w+), box (\d+)\)")


def _in_hand(text: str, lang: str) -> str:
    """"read in the player's hand: R read K (word, box 3)" → "citit în scrisul jucătorului: R citit
    ca K (căsuța 3 a cuvântului)": a box the program filed as the player's earlier slips show
    their hand, where the reader alone saw another sign."""
    boxes = []
    for m in _BOX.finditer(text[len(HAND_NOTE):]):
        needed, seen, name, box = m.groups()
        seen = seen.replace(", ", " or " if lang == EN else " sau ")
        boxes.append(f"{needed} read {seen} ({field(name, lang)}, box {box})" if lang == EN
                     else f"{needed} citit ca {seen} (căsuța {box} a {genitive(name)})")
    head = "read in the player's hand, as their earlier slips show it: " if lang == EN else \
        "citit în scrisul jucătorului, așa cum îl arată fluturașii lui de până acum: "
    return head + "; ".join(boxes)


def _twins(text: str, lang: str) -> str:
    """"may have swapped table numbers with the slip of table 29, which says the same" → "poate
    avea numărul de masă al fluturașului mesei 29, și invers; spun același lucru, deci fiecare masă
    primește aceeași decizie oricum"."""
    tables = text[len(TWIN_NOTE):-len(TWIN_TAIL)]
    if lang == EN:
        return (f"may carry the table number of the slip of table {tables}, and it this one's; both say the same, "
                "so each table gets the same decision either way")
    return (f"poate avea numărul de masă al fluturașului mesei {tables.replace(', ', ' sau ')}, și invers; "
            "spun același lucru, deci fiecare masă primește aceeași decizie oricum")


def _told_apart(text: str, lang: str) -> str:
    """"told by its letters from table 29, whose number its table box may carry" → "numărul mesei
    poate fi citit și 29; literele lui seamănă cu cele de pe fluturașii de până acum ai jucătorului
    acestei mese, nu cu ale jucătorului mesei 29"."""
    tables = text[len(LOOKS_NOTE):-len(LOOKS_TAIL)]
    if lang == EN:
        tables = tables.replace(", ", " or ")
        return (f"its table number may also be read {tables}; its letters look like this table's player's "
                f"earlier slips, not like those of table {tables}")
    tables = tables.replace(", ", " sau ")
    return (f"numărul mesei poate fi citit și {tables}; literele lui seamănă cu cele de pe fluturașii de până "
            f"acum ai jucătorului acestei mese, nu cu ale jucătorului mesei {tables}")


# The notes a decided slip's audit entry ends with (`Verdict.audit_note`), the last first, each
# with its rendering: the letters' note follows the twins' when both are there.
_TRAILING_NOTES = ((LOOKS_NOTE, LOOKS_TAIL, _told_apart), (TWIN_NOTE, TWIN_TAIL, _twins))


def audit_reason(reason: str | None, lang: str = RO) -> str:
    """Why, as the program wrote it when it acted alone, in the arbiter's words; an arbiter's own
    words are shown as typed."""
    text = (reason or "").strip()
    for note, tail, say in _TRAILING_NOTES:  # the last note first: it ends the text
        if note in text and text.endswith(tail):
            head, last = text[:text.index(note)].rstrip("; "), text[text.index(note):]
            return "; ".join(part for part in (audit_reason(head, lang) if head else "", say(last, lang)) if part)
    if text.startswith(HAND_NOTE):
        return _in_hand(text, lang)
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

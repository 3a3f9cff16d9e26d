"""Romanian first, English on request (`?lang=en`, kept in a cookie): one table of the page texts."""
from __future__ import annotations

LANGS = ("ro", "en")

TEXTS: dict[str, tuple[str, str]] = {
    "queue": ("Coada de revizuire", "Review queue"),
    "round": ("Runda", "Round"),
    "hall": ("Sala", "Hall"),
    "results": ("Rezultate", "Results"),
    "audit": ("Jurnal", "Audit trail"),
    "login": ("Arbitru", "Arbiter"),
    "arbiter_name": ("Numele arbitrului", "Arbiter's name"),
    "access_token": ("Cheia de acces", "Access token"),
    "enter": ("Intră", "Enter"),
    "no_arbiter": ("Scrierea cere un arbitru numit: intrați cu numele.", "Writing needs a named arbiter: sign in with your name."),
    "empty_queue": ("Coada este goală.", "The queue is empty."),
    "tables": ("Mese", "Tables"),
    "filter": ("Filtrează", "Filter"),
    "table": ("Masa", "Table"),
    "reason": ("Motiv", "Reason"),
    "reading": ("Citirea", "Reading"),
    "confidence": ("încredere", "confidence"),
    "candidates": ("Variante", "Candidates"),
    "probability": ("Probabilitate", "Probability"),
    "outcome": ("Decizie", "Decision"),
    "status": ("Stare", "Status"),
    "points": ("Puncte", "Points"),
    "warning": ("Avertisment", "Warning"),
    "penalty": ("Penalizare", "Penalty"),
    "article": ("Articol", "Article"),
    "accept": ("Acceptă", "Accept"),
    "accept_reading": ("Acceptă citirea", "Accept the reading"),
    "correct": ("Corectează câmpuri", "Correct fields"),
    "preview": ("Previzualizează", "Preview"),
    "save": ("Salvează", "Save"),
    "skip": ("Sari", "Skip"),
    "saved": ("Salvat", "Saved"),
    "claimed_by_you": ("Preluat de dumneavoastră", "Claimed by you"),
    "claim": ("Preia", "Claim"),
    "new_decision": ("Decizia nouă (încă nesalvată)", "The new decision (not saved yet)"),
    "image_missing": ("imaginea lipsește", "image missing"),
    "keys_queue": ("Taste: 1–9 acceptă varianta, a acceptă citirea, e corectează, Enter previzualizează apoi salvează, j/k următorul/precedentul, x sare peste",
                   "Keys: 1–9 accept a candidate, a accept the reading, e correct, Enter preview then save, j/k next/previous, x skip"),
    "slips_filed": ("fluturași depuși", "slips filed"),
    "decided": ("decise", "decided"),
    "in_review": ("în revizuire", "in review"),
    "without_table": ("fără masă", "without a table"),
    "missing": ("lipsă", "missing"),
    "can_close": ("Runda poate fi închisă.", "The round can be closed."),
    "cannot_close": ("Runda nu poate fi închisă încă.", "The round cannot be closed yet."),
    "correct_round": ("Corectează runda", "Correct the round"),
    "close_round": ("Închide runda", "Close the round"),
    "announcement": ("Anunțul", "Announcement"),
    "zeros": ("Depuneri 0 de anunțat", "Zeros to announce"),
    "top": ("Top", "Top"),
    "slip": ("Fluturaș", "Slip"),
    "decision": ("Decizie", "Decision"),
    "group": ("Grupa", "Group"),
    "start": ("Start", "Start"),
    "reset": ("Din nou", "Reset"),
    "seconds_30": ("30 de secunde!", "30 seconds!"),
    "stop": ("Stop!", "Stop!"),
    "ranking": ("Clasament", "Ranking"),
    "provisional": ("provizoriu", "provisional"),
    "final": ("final", "final"),
    "running": ("în desfășurare", "running"),
    "deadline": ("Termen pentru contestații", "Appeal deadline"),
    "rank": ("Loc", "Rank"),
    "name": ("Nume", "Name"),
    "total": ("Total", "Total"),
    "percent_top": ("% top", "% of top"),
    "appeal": ("Contestație", "Appeal"),
    "file_appeal": ("Depune contestația", "File the appeal"),
    "kind": ("Tip", "Kind"),
    "fields": ("Câmpuri (position=H4 word=...)", "Fields (position=H4 word=...)"),
    "score": ("Puncte", "Score"),
    "exports": ("Exporturi", "Exports"),
    "when": ("Când", "When"),
    "who": ("Cine", "Who"),
    "what": ("Ce", "What"),
    "why": ("De ce", "Why"),
    "player": ("Jucător", "Player"),
    "move_round": ("Mută în runda", "Move to round"),
    "keys_undo": (", d nu e fluturaș, D duplicat, m mută în altă rundă", ", d not a slip, D duplicate, m move to another round"),
    "not_a_slip": ("Nu e fluturaș", "Not a slip"),
    "duplicate": ("Duplicat", "Duplicate"),
    "lang_other": ("English", "Română"),
    "conflict": ("Nesalvat", "Not saved"),
    "round_short": ("T", "R"),
    "problem": ("Nu se poate", "Not possible"),
    "table_short": ("M", "T"),
    "unclear": ("Neclar", "Unclear"),
    "round_state": ("Starea", "State"),
    "eliminated_short": ("elim.", "elim."),
    "equal_tops": ("Topuri egale", "Equal tops"),
    "pause": ("pauză", "pause"),
    "record": ("Înregistrare", "Record"),
    "closed_round": ("închis", "closed"),
}


def text(key: str, lang: str) -> str:
    pair = TEXTS.get(key)
    if pair is None:
        return key
    return pair[LANGS.index(lang) if lang in LANGS else 0]


class Words:
    """`arbiter.words` bound to the page's language: templates say `w.status(code)`, `w.ruling(d)`."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGS else LANGS[0]

    def __getattr__(self, name: str):
        from functools import partial

        from .. import words

        found = getattr(words, name)
        if name in ("articles", "status_class"):
            return found
        return partial(found, lang=self.lang)

"""What a person reads speaks the arbiter's language: every page of the demo game, reached by its
links in a real browser, in Romanian and in English, shows no rule code (SCORE_WRONG, VALID), no
`RULES.md`, no Python or JSON value, no `None`/`True`, no traceback and no decoder figures; the
English switch leaves no Romanian ruling behind. The sheet's notes are read back the same way."""
from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

import pytest
from openpyxl import load_workbook

from arbiter import words
from arbiter.web.app import create_app
from corrector.judging.rulings import Flag, PenaltyKind, Status, WarningKind
from corrector.reasons import Reason

from .conftest import sign_in
from .test_demo_screenshots import open_demo

CODE_NAMES = sorted({m.name for e in (Status, WarningKind, PenaltyKind, Flag, Reason) for m in e}, key=len, reverse=True)
FORBIDDEN = {
    "a rule code": re.compile(r"\b(?:" + "|".join(CODE_NAMES) + r")\b"),
    "an upper-case code": re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"),
    "the digest's name": re.compile(r"RULES\.md|§"),
    "a Python or JSON value": re.compile(r"[{\[]\s*['\"]|\w\[\d+\]|\b(?:None|True|False)\b"),
    "a traceback": re.compile(r"Traceback|\b\w+Error\b|\bline \d+, in\b"),
    "the decoder's figures": re.compile(r"\bsure of\b|\bdecoder\b|0\.\d{3}"),
    "a file name": re.compile(r"[\w/-]+\.(?:png|jpe?g|pdf|jsonl?|db|txt|csv|xlsx|html?)\b"),
}
ROMANIAN_ONLY = re.compile(r"\b(?:valid|penalised|incorrect|averaged|reading|unsure|against|judge flagged)\b")
ENGLISH_ONLY = re.compile(r"depunere corectă|depunere incorectă|avertisment|penalizare|Coada de revizuire|Motiv")
# Romanian left on an English page: its letters with diacritics, or one of its everyday words. The
# names the arbiters typed (players, clubs, the game, the tournament) are Romanian and stay so.
ROMANIAN_TELLS = re.compile(r"[ăâîșțşţĂÂÎȘȚŞŢ]|\b(?:și|sau|este|sunt|pentru|până|fără|după|runda|rundei|turul|masa|mesei|mese|"
                            r"fluturaș\w*|depuner\w*|jucător\w*|arbitr[ui]\w*|partid\w*|contestați\w*|puncte|punctaj|"
                            r"grupa|anunț\w*|corectat\w*|închis\w*|deschis\w*|decizi\w*|motiv\w*|lipsă|nimic|"
                            r"Atenție|Depunerea|Depuneri)\b", re.I)
VISIBLE_ATTRIBUTES = "Array.from(document.querySelectorAll('[title],[alt],option')).map(e => e.title || e.alt || e.textContent).join('\\n')"


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    found = open_demo(tmp_path_factory.mktemp("demo"))
    yield found
    found[0].close()


def problems(text: str, lang: str, names: tuple[str, ...] = ()) -> list[str]:
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    found = [f"{what}: {text[max(0, m.start() - 30):m.end() + 30]!r}" for what, pattern in FORBIDDEN.items()
             for m in pattern.finditer(text)]
    if lang == "ro":
        found += [f"English code word: {text[max(0, m.start() - 30):m.end() + 30]!r}" for m in ROMANIAN_ONLY.finditer(text)]
    else:
        found += [f"Romanian left in English: {text[max(0, m.start() - 30):m.end() + 30]!r}" for m in ENGLISH_ONLY.finditer(text)]
        found += [f"Romanian left in English: {m.group(0)!r} in {text[max(0, m.start() - 30):m.end() + 30]!r}"
                  for m in ROMANIAN_TELLS.finditer(text)]
    return found


# Romanian on an English page by right: the switch back to Romanian, the seating file's own column names.
ROMANIAN_BY_RIGHT = ("Română", "masa, nume (and prenume, club, categorie)")


def typed_names(store) -> tuple[str, ...]:
    """What the arbiters typed, in Romanian by right: players, clubs, games, tournaments, venues,
    the arbiters' names."""
    from sqlalchemy import select

    from arbiter.store.models import AuditEntry, Game, Player, Tournament

    with store.session() as s:
        found = {v for p in s.scalars(select(Player)) for v in (p.name, p.club) if v}
        found |= {g.name for g in s.scalars(select(Game))}
        found |= {v for t in s.scalars(select(Tournament)) for v in (t.name, t.venue) if v}
        found |= {e.actor for e in s.scalars(select(AuditEntry))}
    return tuple(found) + ROMANIAN_BY_RIGHT


def said_in_romanian(page) -> tuple[str, ...]:
    """What a page marks `lang="ro"` inside an English page: the announcement the arbiter reads aloud
    to the hall in the rulebook's Romanian words (the top, the zeros, the game master's flags)."""
    return tuple(page.eval_on_selector_all("body [lang=ro]", "els => els.map(e => e.innerText.trim())"))


def crawl(page, url: str, lang: str, seeds: tuple[str, ...], names: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Every page reachable by links from the seeds (no exports, images or language switch)."""
    page.goto(f"{url}/queue?lang={lang}")
    todo, seen, bad = [f"{url}{s}" for s in seeds], set(), {}
    while todo and len(seen) < 120:
        target = todo.pop(0)
        if target in seen:
            continue
        seen.add(target)
        page.goto(target)
        text = page.inner_text("body") + "\n" + page.evaluate(VISIBLE_ATTRIBUTES)
        found = problems(text, lang, names + said_in_romanian(page))
        if found:
            bad[urlsplit(target).path + "?" + urlsplit(target).query] = found[:5]
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
            parts = urlsplit(href)
            if (href.startswith(url) and "lang=" not in parts.query and not parts.path.startswith(("/export", "/slip")) and not parts.path.endswith(".pdf")
                    and href.split("#")[0] not in seen):
                todo.append(href.split("#")[0])
    assert len(seen) >= len(seeds) + 5, f"only {len(seen)} pages reached"
    return bad


@pytest.mark.parametrize("lang", ["ro", "en"])
def test_no_code_on_any_page_in_either_language(browser, serve, demo_store, lang):
    store, demo_game, review_game, _undecided, out = demo_store
    seeds = ("/queue", "/round?round=1", "/hall", "/results", "/results/1", "/results/5", "/audit", "/login",
             "/day", "/day?round=1", "/grid?round=1", "/players", "/game/new")
    names = typed_names(store)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    bad = {}
    for game in (review_game, demo_game):
        url = serve(create_app(store, game, image_roots=(out,)))
        sign_in(page, url, "arbitru-demo")
        bad.update({f"game {game} {k}": v for k, v in crawl(page, url, lang, seeds, names).items()})
        if game == review_game:  # a typed correction's preview, then saving it: the decision and the flash
            page.goto(f"{url}/queue")
            page.wait_for_selector("#claim-status.ok")
            page.keyboard.press("e")
            page.keyboard.type("score=68")
            page.keyboard.press("Enter")
            page.wait_for_selector("#preview-decision")
            bad.update({f"preview: {k}": [v] for k, v in enumerate(problems(page.inner_text("body"), lang, names + said_in_romanian(page)))})
            page.keyboard.press("Enter")
            page.wait_for_selector(".flash.ok")
            bad.update({f"saved: {k}": [v] for k, v in enumerate(problems(page.inner_text("body"), lang, names + said_in_romanian(page)))})
        else:  # correcting the round again: its one-line report
            page.goto(f"{url}/round?round=1")
            page.keyboard.press("c")
            page.wait_for_selector(".flash.ok")
            bad.update({f"corrected: {k}": [v] for k, v in enumerate(problems(page.inner_text("body"), lang, names + said_in_romanian(page)))})
    assert not bad, "\n".join(f"{where}: {found}" for where, found in bad.items())


def test_the_rulings_in_the_rulebooks_words():
    """D 6.1–6.3 by name, articles as "art. D 6.2.d", the decoder's doubt as a percentage and boxes."""
    assert words.status("VALID") == "depunere corectă" and words.status("incorrect") == "depunere incorectă"
    assert words.warning("SCORE_WRONG") == "avertisment: punctaj greșit"
    assert words.penalty("ONE_SIGN_WRONG", "en") == "penalty: one sign wrong"
    assert words.articles(["RULES.md §3.1 / D 6", "RULES.md §3 d / D 6.2.d"]) == "art. D 6.2.d"
    assert words.articles(["RULES.md §3.1 / D 6", "RULES.md §3; §6 / D 8.2"]) == "art. D 8.2"
    assert words.articles(["RULES.md §3.1 / D 6"]) == "art. D 6"
    assert words.review_reason(
        "decoder: 0.712 sure of valid 68, score wrong (table 1, H6 ECTOPIC, declared 66); against 0.245: valid 68 "
        "(table 1, H6 ECTOPIC, declared 68), boxes score[2]; unsure: position, score") == \
        "sigur 71 %: căsuțele punctajului sunt neclare; nesigur: poziție, punctaj"
    assert words.review_reason("decoder: a slip in review may be table 14's") == \
        "un fluturaș încă neverificat poate fi al mesei 14"
    assert words.review_reason("decoder: table 99 has no slip and this one may be its") == \
        "masa 99 nu are încă fluturaș, iar acesta poate fi al ei"
    assert words.review_reason("decoder: this slip and table 29's may have each other's table numbers") == \
        "acest fluturaș și cel al mesei 29 pot avea numerele meselor inversate"
    # what the ink rules out, every box of it, never in the program's words
    assert words.review_reason("decoder: 0.999 sure of valid 32 (table 26, J5 LUDIC, declared 32), but the ink "
                               "rules it out: word[3] reads O, not D; score[2] reads 7, 1, not 2; unsure: word") == \
        ("sigur 100 %: scrisul arată altceva: căsuța 3 a cuvântului se citește O, nu D, căsuța 2 a punctajului "
         "se citește 7 sau 1, nu 2; nesigur: depunere")
    assert words.review_reason("decoder: 0.990 sure of valid 9 (table 2, H4 MODEL, declared 9), but the ink rules it "
                               "out: score[2] is written (7) but the reading leaves it out") == \
        "sigur 99 %: scrisul arată altceva: căsuța 2 a punctajului e scrisă (7), dar citirea o omite"
    assert words.review_reason("decoder: ruled incorrect on a word read unclearly: its letters 0.089 sure "
                               "(table 2, 15C UEOZBOSU, declared 62)") == \
        "cuvântul nu se citește clar (literele sigure 9 %): verificați-l înainte de a-l declara incorect"
    assert words.summary({"score": 68, "jokers": [], "state": "filed", "source": "scans/p1.png"}) == "puncte 68, stare depus"
    assert words.summary({"name": "Partida 1", "created_at": "2026-11-30T06:22:33+00:00"}) == \
        "nume Partida 1, din 30.11.2026 06:22"  # a new game's row in the journal, no "created at"


def test_the_sheet_notes_speak_the_arbiters_words(demo_store):
    """The exported sheet's cell notes (a warning, a penalty, an incorrect move) read back with openpyxl."""
    store, demo_game, _review_game, _undecided, out = demo_store
    client = create_app(store, demo_game, image_roots=(out,)).test_client()
    sheet = load_workbook(io.BytesIO(client.get("/export/xlsx").data))
    notes = [c.comment.text for ws in sheet.worksheets for row in ws.iter_rows() for c in row if c.comment]
    assert notes, "the demo round has a warning, a penalty and zeros: their cells carry notes"
    text = "\n".join(notes)
    assert "avertisment: punctaj greșit" in text and "penalizare: un semn greșit" in text and "art. D 6.3.b" in text
    assert not problems(text, "ro")
    page = client.get("/export/html").data.decode()
    assert not FORBIDDEN["a rule code"].search(page)


# What the library says to the CLI, never to a Romanian page: its English refusals, their flags and
# commands, and the fallback of `words.refusal` for a refusal that has no words yet.
LIBRARY_ENGLISH = re.compile(r"(?i)\b(?:expected|refused|already|seated|must not|at most|is not|has no|does not|cannot|"
                             r"review item|nothing was|the results|deadline|score|table|round|slip)\b|--\w|`|Refuzat:")
UNWORDED = re.compile(r"\bRefused:|--\w|`")
BAD_SEATING = b"masa,nume\n1,Ana\n1,Bogdan\n"


def post(page, url: str, path: str, fields: dict[str, str]) -> str:
    """A form sent by the browser with the page's CSRF token, as the page's own forms send it;
    the answer page's text (and its visible attributes)."""
    page.goto(f"{url}/day")
    with page.expect_navigation():
        page.evaluate("""([path, fields]) => {
            const form = document.createElement('form');
            form.method = 'post'; form.action = path;
            fields.csrf = fields.csrf ?? document.querySelector('meta[name=csrf-token]').content;
            for (const [k, v] of Object.entries(fields)) {
                const input = document.createElement('input'); input.type = 'hidden'; input.name = k; input.value = v;
                form.appendChild(input);
            }
            document.body.appendChild(form); form.submit();
        }""", [path, fields])
    return page.inner_text("body") + "\n" + page.evaluate(VISIBLE_ATTRIBUTES)


def bad_forms(item_id: int) -> list[tuple[str, dict[str, str]]]:
    """Every form of the app with a value the library refuses."""
    return [
        ("/login", {"name": "ana\u0001"}),
        ("/game/new", {"tournament": "", "name": "P2"}),
        ("/game/new", {"tournament": "Cupa", "name": "P2", "words": "/nu/exista/lista"}),
        ("/game/new", {"tournament": "Cupa", "name": "x" * 300}),
        ("/players/add", {"table": "x", "name": "Ana"}),
        ("/players/add", {"table": "1", "name": "Ana"}),
        ("/players/add", {"table": "99", "name": ""}),
        ("/players/1/edit", {"category": "zzz"}),
        ("/players/1/remove", {}),
        ("/day/rack", {"round": "1", "letters": "AAAAAAAAAAAA"}),
        ("/day/rack", {"round": "1", "letters": "XY1"}),
        ("/day/1/top", {"move": "Z99 FOO"}),
        ("/day/1/top", {"move": "H4"}),
        ("/day/1/correct", {}),
        ("/day/1/close", {}),
        ("/day/results/provisional", {"deadline": "25:99"}),
        ("/day/results/provisional", {"deadline": ""}),
        ("/day/results/final", {}),
        ("/round/1/correct", {}),
        ("/round/1/close", {}),
        ("/grid/give", {"round": "1", "tables": "1,999", "move": "top"}),
        ("/grid/give", {"round": "1", "tables": "1", "move": "Z99 FOO"}),
        ("/grid/warn", {"round": "1", "table": "1", "reason": ""}),
        ("/grid/warn", {"round": "1", "table": "999", "reason": "vorbește"}),
        ("/grid/undo", {"round": "1", "table": "1", "change": "999999"}),
        ("/grid/undo", {"round": "1", "table": "1", "sanction": "999999"}),
        ("/appeal", {"table": "1", "round": "1", "kind": "reading", "reason": ""}),
        ("/appeal", {"table": "1", "round": "1", "kind": "zzz", "reason": "x"}),
        ("/appeal", {"table": "1", "round": "1", "kind": "incorrect", "reason": "x"}),
        ("/appeal", {"table": "1", "round": "1", "kind": "incorrect", "reason": "x", "score": "99999999"}),
        ("/appeal", {"table": "1", "round": "1", "kind": "incorrect", "reason": "x", "score": "x"}),
        ("/appeal", {"table": "999", "round": "1", "kind": "warning", "reason": "x"}),
        ("/appeal", {"table": "1", "round": "7", "kind": "warning", "reason": "x"}),
        ("/appeal", {"table": "1", "round": "1", "kind": "reading", "reason": "x", "fields": "poz=Z99"}),
        (f"/queue/{item_id}/save", {"version": "1", "fields": "poz=Z99"}),
        (f"/queue/{item_id}/save", {"version": "1", "fields": "cuvant=AB1"}),
        (f"/queue/{item_id}/save", {"version": "1", "fields": "zzz=3"}),
        (f"/queue/{item_id}/save", {"version": "1", "fields": "puncte=x"}),
        (f"/queue/{item_id}/save", {"version": "1", "fields": "puncte=99999999"}),
        (f"/queue/{item_id}/preview", {"version": "1", "fields": "masa=999"}),
        (f"/queue/{item_id}/discard", {"version": "1", "as": "zzz"}),
        (f"/queue/{item_id}/move", {"version": "1", "round": "7"}),
        ("/round/1/correct", {"csrf": "wrong"}),
    ]


@pytest.mark.parametrize("lang", ["ro", "en"])
def test_every_form_refuses_bad_input_in_the_pages_language(browser, serve, demo_store, lang):
    """Each form sent with a value the library refuses (a bad deadline, table, group, move, score,
    name...): the answer page says why in the page's language — no English refusal of the library
    on a Romanian page, no option of the CLI, no untranslated fallback — and no code."""
    from arbiter.review.review import queue

    store, demo_game, review_game, _undecided, out = demo_store
    with store.session() as s:
        item_id = queue(s, review_game)[0].item_id
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    names = typed_names(store)
    bad: dict[str, list[str]] = {}
    for game in (review_game, demo_game):
        url = serve(create_app(store, game, image_roots=(out,)))
        sign_in(page, url, "arbitru-demo")
        page.goto(f"{url}/queue?lang={lang}")
        for path, fields in bad_forms(item_id):
            shown = post(page, url, path, dict(fields))
            found = problems(shown, lang, names + said_in_romanian(page)) + [f"not the page's words: {m.group(0)!r} in "
                                             f"{shown[max(0, m.start() - 60):m.end() + 60]!r}"
                                             for m in (LIBRARY_ENGLISH if lang == "ro" else UNWORDED).finditer(shown)]
            if found:
                bad[f"game {game} {path} {fields}"] = found[:3]
        page.goto(f"{url}/players")
        page.set_input_files("input[name=seating]", files=[{"name": "lista-jucatori", "mimeType": "text/csv",
                                                             "buffer": BAD_SEATING}])
        with page.expect_navigation():
            page.locator("input[name=seating]").evaluate("el => el.form.submit()")
        shown = page.inner_text("body")
        assert "lista-jucatori" in shown, "the seating file's refusal names the file as chosen"
        found = problems(shown, lang, names + said_in_romanian(page)) + [m.group(0) for m in (LIBRARY_ENGLISH if lang == "ro" else UNWORDED).finditer(shown)]
        if found:
            bad[f"game {game} seating"] = found[:3]
    assert not bad, "\n".join(f"{where}: {found}" for where, found in bad.items())
    with store.session() as s:
        assert queue(s, review_game)[0].item_id == item_id, "nothing refused was stored"


def test_a_refusal_listing_many_open_slips_is_worded_whatever_their_reasons(monkeypatch):
    """The library lists three blockers and counts the rest; a reason of its own may hold "; "
    (the decoder's "…; against 0.012: …"), which is not where one blocker ends."""
    from arbiter.errors import WorkflowError
    from arbiter.store import validation

    reasons = ["0.981 sure of correct 62 (H5 ARDEIND 62); against 0.012: incorrect 0 (H5 ARDEIID 62), boxes cuvant[6]",
               "table claimed by another slip",
               "0.950 sure of correct 42 (8D ZOBI 42); the ink alone reads 8D ZOB1 42",
               "doubt on round"]
    open_items = [f"review item {k} of round 2 is open ({why})" for k, why in enumerate(reasons, start=7)]
    monkeypatch.setattr(validation, "blockers", lambda *args, **kwargs: open_items)
    with pytest.raises(WorkflowError) as refused:
        validation.require_no_blockers(None, None, "round correct")
    assert " and 1 more" in str(refused.value)
    for lang in ("ro", "en"):
        shown = words.refusal(str(refused.value), lang)
        assert words.refusals.known(str(refused.value))
        assert "ARDEI" not in shown and "against" not in shown and not UNWORDED.search(shown), shown
    assert words.refusal(str(refused.value), "ro").count("așteaptă în coada de revizuire") == 3
    assert "și încă 1" in words.refusal(str(refused.value), "ro")


def test_a_word_with_a_sign_the_tile_set_lacks_is_refused_in_the_arbiters_words(ro):
    """The review card shows the judge's refusal of a reading such as M0DEL (a 0 read for the O)
    as the tile set raised it, without the word field's name before it (RULES.md §3.4: a letter the
    set lacks makes no move): in Romanian, as when the word field is named."""
    from corrector.tiles import NotationError

    with pytest.raises(NotationError) as raised:
        ro.tiles.parse_word("M0DEL")
    message = str(raised.value)
    assert words.refusals.known(message)
    assert words.refusal(message) == "Cuvântul „M0DEL”: litera „0” (a 2-a) nu este în setul de piese."
    assert words.refusal(message, "en") == "The word “M0DEL”: the letter “0” (number 2) is not in the tile set."

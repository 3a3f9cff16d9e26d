"""The anticipation input of `fluturas judge` (docs/anticipation.md): a JSON object with
`"type": "anticipation"`, validated against `case.schema.json` (all errors at once, sorted by
path), turned into an `AnticipationGame`. Input failures raise `AnticipationInputError`."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from corrector.errors import AnticipationInputError
from corrector.words.lexicon import Lexicon, load_lexicon
from corrector.rulepack import load_pack
from corrector.judging.slip import Slip, WrittenMove
from corrector.anticipation.game import AnticipationGame, AnticipationSlip, Player, Variant
from corrector.anticipation.groups import DrawRules, GroupSet, avocalic_rules, classic_rules, draw_groups, draw_round_order, parse_groups

SCHEMA = Path(__file__).with_name("case.schema.json")


def is_anticipation(case: dict[str, Any]) -> bool:
    """The dispatch key of `fluturas judge`: duplicate cases carry no `type`."""
    return isinstance(case, dict) and case.get("type") == "anticipation"


def _validate(case: dict[str, Any], source: str) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(case), key=lambda e: list(map(str, e.path)))
    if errors:
        raise AnticipationInputError("\n".join(
            f"{source}: field {'.'.join(map(str, e.path)) or '(top level)'}: {e.message}" for e in errors))


def _move(data: dict[str, Any]) -> WrittenMove:
    return WrittenMove(data.get("position"), data.get("word"), tuple(data.get("jokers", ())), data.get("score"))


def _slip(data: dict[str, Any]) -> AnticipationSlip:
    moves = tuple(_move(m) for m in data["moves"]) if "moves" in data else (_move(data),)
    slip = Slip(data["table"], data["round"], moves, data.get("total"), data.get("table_written", True),
                data.get("round_written", True), data.get("back_ok", True))
    return AnticipationSlip(slip, data.get("cancel_round"), data.get("verify", False), tuple(data.get("verify_words", ())))


def _words(spec: Any, pack, base: Path) -> Lexicon:
    if isinstance(spec, list):
        return Lexicon.from_words(spec, pack, label="case word list")
    return load_lexicon(base / spec["file"], pack)


def _groups(spec: Any, pack, rules: DrawRules, who: str) -> GroupSet:
    if isinstance(spec, dict):
        return draw_groups(pack, rules, spec["seed"])
    return parse_groups(spec, pack, rules, who)


def load_game(case: dict[str, Any], base: Path = Path("."), source: str = "<case>") -> AnticipationGame:
    _validate(case, source)
    pack = load_pack(case["rules"])
    if case.get("policies"):
        pack = pack.with_policies(**case["policies"])
    variant = Variant.from_key(case.get("variant", "classic"))
    words = _words(case["words"], pack, base)
    rules = avocalic_rules(pack) if variant is Variant.AVOCALIC else classic_rules(pack, words)
    groups = None if case["groups"] is None else _groups(case["groups"], pack, rules, "groups")
    player_groups = {p["table"]: parse_groups(p["groups"], pack, rules, f"players: table {p['table']}")
                     for p in case["players"] if "groups" in p}
    if variant is Variant.BLIND and len(player_groups) != len(case["players"]):
        raise AnticipationInputError(f"{source}: blind game: every player needs 'groups' (A 8.4)")
    if variant is not Variant.BLIND and groups is None:
        raise AnticipationInputError(f"{source}: field groups: required unless the variant is blind")
    order_spec = case["order"]
    order = draw_round_order(order_spec["seed"]) if isinstance(order_spec, dict) else tuple(order_spec)
    return AnticipationGame(
        pack, words, variant, groups, order,
        tuple(Player(p["table"], p["name"]) for p in case["players"]),
        tuple(_slip(s) for s in case["slips"]), player_groups,
        tuple((d["table"], d["round"]) for d in case.get("disciplinary", ()) if not d.get("cheating")),
        {d["table"]: d["round"] for d in case.get("disciplinary", ()) if d.get("cheating")},
        tuple((a["table"], a["round"], a["action"]) for a in case.get("appeals", ())))

"""`round draw`: the game master draws the next group (D 5.3.1–5.3.2). Draws must be
reproducible and the store holds no generator state, so the game master is replayed from the
game's seed through every stored round (its group must come out the same, its continuation is
played) and then draws once more. A game whose groups were entered by hand (`set-rack`) goes on
by hand. A tactic game (D 8.6) draws two groups a round, stored as 'ABCDEFG/HIJKLMN'."""
from __future__ import annotations

from collections import Counter

from sqlalchemy.orm import Session

from corrector.game.tacticmaster import TacticSetup, master_for
from corrector.rulepack import load_pack

from ..errors import WorkflowError
from ..store.games import lexicon_of, rounds
from ..store.models import Game, Round
from .rack import set_rack


def draw_round(session: Session, game: Game, actor: str) -> tuple[Round, tuple[str, ...]]:
    """Draw and store the next round's group; returns it with the arbiter's draw announcement."""
    if game.draw_seed is None:
        raise WorkflowError(f"game {game.id} has no draw seed; enter the groups with `round set-rack`")
    pack = load_pack(game.rules)
    master = master_for(pack, lexicon_of(game, pack), game.variant, seed=game.draw_seed)
    for rnd in rounds(session, game):
        if rnd.rack_source != "draw":
            raise WorkflowError(f"round {rnd.number}'s group was entered by hand; go on with `round set-rack`")
        setup = master.next_round()
        if setup is None or _groups(setup) != [Counter(pack.tiles.parse_rack(g)) for g in rnd.rack.split("/")]:
            raise WorkflowError(f"round {rnd.number}: the stored group {rnd.rack} is not the one the seed draws")
        if not rnd.continuation:
            raise WorkflowError(f"round {rnd.number} has no continuation yet (`round set-top`)")
        master.play_continuation(rnd.continuation)
    setup = master.next_round()
    if setup is None:
        raise WorkflowError(f"the game is over (D 5.3.8: {master.end_reason})")
    rnd = set_rack(session, game, "/".join("".join(g) for g in _letters(setup)), actor, source="draw",
                   reason=f"drawn by the game master (seed {game.draw_seed})")
    return rnd, setup.announcement


def _letters(setup) -> list[tuple[str, ...]]:
    """The round's group(s): a tactic round has two (D 8.6), stored as 'ABCDEFG/HIJKLMN'."""
    return list(setup.groups) if isinstance(setup, TacticSetup) else [setup.group]


def _groups(setup) -> list[Counter[str]]:
    return [Counter(g) for g in _letters(setup)]

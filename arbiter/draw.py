"""`round draw`: the game master draws the next group (D 5.3.1–5.3.2). Draws must be
reproducible and the store holds no generator state, so the game master is replayed from the
game's seed through every stored round (its group must come out the same, its continuation is
played) and then draws once more. A game whose groups were entered by hand (`set-rack`) goes on
by hand."""
from __future__ import annotations

from collections import Counter

from sqlalchemy.orm import Session

from corrector.game.gamemaster import GameMaster
from corrector.rulepack import load_pack

from .errors import WorkflowError
from .games import rounds, set_rack
from .models import Game, Round
from .tops import lexicon_of


def draw_round(session: Session, game: Game, actor: str) -> tuple[Round, tuple[str, ...]]:
    """Draw and store the next round's group; returns it with the arbiter's draw announcement."""
    if game.draw_seed is None:
        raise WorkflowError(f"game {game.id} has no draw seed; enter the groups with `round set-rack`")
    pack = load_pack(game.rules)
    master = GameMaster(pack, lexicon_of(game, pack), game.variant, seed=game.draw_seed)
    for rnd in rounds(session, game):
        if rnd.rack_source != "draw":
            raise WorkflowError(f"round {rnd.number}'s group was entered by hand; go on with `round set-rack`")
        setup = master.next_round()
        if setup is None or Counter(setup.group) != Counter(pack.tiles.parse_rack(rnd.rack)):
            raise WorkflowError(f"round {rnd.number}: the stored group {rnd.rack} is not the one the seed draws")
        if not rnd.continuation:
            raise WorkflowError(f"round {rnd.number} has no continuation yet (`round set-top`)")
        master.play_continuation(rnd.continuation)
    setup = master.next_round()
    if setup is None:
        raise WorkflowError(f"the game is over (D 5.3.8: {master.end_reason})")
    rnd = set_rack(session, game, "".join(setup.group), actor, source="draw",
                   reason=f"drawn by the game master (seed {game.draw_seed})")
    return rnd, setup.announcement

"""`tabletop bench review --given-away`: what the grade thresholds (review.GRADES) are chosen from.

Per game, N games where each seat is a sparring partner (`advisor/sparring/`, careful players
written from the rules) or a player choosing at random among the legal actions; each game is
reviewed whole and every graded decision's chance given away is kept by who made it. One JSON
object a line per game and player kind: how many graded decisions, the share judged best, and
the quantiles of the chance given away by the decisions not judged best.
"""

from __future__ import annotations

import json
import random

from bench.review_games import FIT_SEED_BASE, PLAYERS
from engines.core import Action, State

QUANTILES = (0.25, 0.5, 0.75, 0.9)


def random_player(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def _played(name: str, seed: int) -> tuple[list[str], list[str]]:
    """A game with each seat a partner or the random player (half the seats each, on average):
    its log and each seat's kind."""
    import engines
    from advisor.sparring import PLAYERS as PARTNERS
    from engines.core import CHANCE

    count = PLAYERS[name]
    rng = random.Random(seed)
    kinds = [rng.choice(["partner", "random"]) for _ in range(count)]
    policies = [random_player if kind == "random" else rng.choice(list(PARTNERS[name].values()))
                for kind in kinds]  # fmt: skip
    state = engines.make_game(name, [f"P{i}" for i in range(count)], seed=seed).new_state()
    while not state.is_over:
        actor = state.actor
        state.apply(state.sample_chance(rng) if actor == CHANCE else policies[actor](state, rng))
    return [action.notation for action in state.history], kinds


def given_away(name: str, games: int, seed: int) -> list[dict]:
    from review import review_game

    rng = random.Random(seed)
    found: dict[str, list[float]] = {"partner": [], "random": []}
    best: dict[str, int] = {"partner": 0, "random": 0}
    for _ in range(games):
        game_seed = FIT_SEED_BASE + rng.randrange(10**9)  # the fit's side: the bench never plays it
        log, kinds = _played(name, game_seed)
        review = review_game(name, [f"P{i}" for i in range(len(kinds))], log, seed=game_seed)
        for decision in review.decisions:
            if decision.grade is None:
                continue
            kind = kinds[decision.player]
            if decision.grade == "best":
                best[kind] += 1
            else:
                found[kind].append(decision.given_away or 0.0)
    lines = []
    for kind, losses in found.items():
        graded = len(losses) + best[kind]
        ordered = sorted(losses)
        quantiles = {f"q{int(q * 100)}": round(ordered[int(q * (len(ordered) - 1))], 4)
                     for q in QUANTILES} if ordered else {}  # fmt: skip
        lines.append({"game": name, "player": kind, "graded": graded,
                      "best_share": round(best[kind] / graded, 3) if graded else None,
                      **quantiles})  # fmt: skip
    return lines


def run(names: list[str], games: int, seed: int) -> None:
    for name in names:
        for line in given_away(name, games, seed):
            print(json.dumps(line), flush=True)

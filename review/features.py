"""What a seat's win chance is computed from: a few numbers per game, read from that seat's view
only (`State.view(seat)`), so a chance can never depend on a card or an objective the seat
could not see. The numbers lean on the advisor's own measures of a position where it has them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from advisor.roudalon import win_table
from advisor.sequence import line_worth
from advisor.struggle import expected_points
from advisor.traverse import worth as traverse_worth
from engines.core import Game, State

Features = Callable[[dict[str, Any], int, Game], list[float]]


def _is_turn(view: dict[str, Any], seat: int) -> float:
    return 1.0 if view.get("current") == seat else 0.0


def _logit(chance: float) -> float:
    chance = min(0.99, max(0.01, chance))
    return math.log(chance / (1 - chance))


def struggle(view: dict[str, Any], seat: int, game: Game) -> list[float]:
    """The seat's expected points from its own objective (an unseen objective is worth 10 on
    average), and how far the race is."""
    objective = (view.get("objectives") or [None] * (seat + 1))[seat]
    squares, boxes = view.get("squares", {}), view.get("boxes", {})
    track = len(view.get("track", "")) or 1
    expected = expected_points(squares, boxes, track, objective) if objective else 10.0
    placed = len(boxes) / 5
    edge = (expected - 10.0) / 10.0
    return [edge, edge * placed, placed, _is_turn(view, seat)]


def traverse(view: dict[str, Any], seat: int, game: Game) -> list[float]:
    """The race: squares left to each side (a race's edge grows as its end nears), the
    advisor's worth of the board, the pawns home."""
    colours = view.get("colours", ["red", "white"])
    end = int(view.get("axis_length", 11))
    mine = tuple(view.get(colours[seat], ()))
    theirs = tuple(view.get(colours[1 - seat], ()))
    if not mine or not theirs:
        return [0.0, 0.0, 0.0, 0.0, _is_turn(view, seat)]
    left_mine = sum(end - p for p in mine)
    left_theirs = sum(end - p for p in theirs)
    race = (left_theirs - left_mine) / math.sqrt(left_mine + left_theirs + 1.0)
    home = view.get("home", [0, 0])
    board = traverse_worth(mine, theirs, end) / 50.0
    return [race, board, (home[seat] - home[1 - seat]) / 10.0, race * board, _is_turn(view, seat)]


def _rounds_chance(lead: int, rounds: int) -> float:
    """The chance of ending ahead (a tie half) when each round left moves the lead by 4 either
    way, as likely."""
    if rounds <= 0:
        return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    return 0.5 * (_rounds_chance(lead + 4, rounds - 1) + _rounds_chance(lead - 4, rounds - 1))


def strategix(view: dict[str, Any], seat: int, game: Game) -> list[float]:
    """The race to shed the hand, the specials in it, and the game's score with the rounds left
    (what winning or losing this round would make of it)."""
    counts = view.get("hand_counts") or [0, 0]
    scores = view.get("scores") or [0] * len(counts)
    own = counts[seat]
    other = min((c for s, c in enumerate(counts) if s != seat), default=0)
    hand = (view.get("hands") or [None] * len(counts))[seat] or []
    specials = sum(hand.count(card) for card in "*!Z") / 4.0
    lead = scores[seat] - max((s for i, s in enumerate(scores) if i != seat), default=0)
    later = max(0, int(view.get("rounds", 1)) - int(view.get("round", 1)))
    out = view.get("places") or []
    if seat in out or other == 0:
        shed = 1.0 if out and out[0] == seat else -1.0
    else:
        shed = (other - own) / math.sqrt(own + other)
    won, lost = _rounds_chance(lead + 4, later), _rounds_chance(lead - 4, later)
    return [shed, specials, shed * specials, _logit(won), _logit(lost), _is_turn(view, seat)]


def _board(view: dict[str, Any]) -> str:
    marks = []
    for card_row, chip_row in zip(view["cards"], view["chips"], strict=True):
        for card, chip in zip(card_row, chip_row, strict=True):
            marks.append("*" if card == "XX" else "." if chip is None else str(chip))
    return "".join(marks)


def sequence(view: dict[str, Any], seat: int, game: Game) -> list[float]:
    """Lines of five built and open on the board for the seat's team against the best other
    team's, sequences made, and the jacks in hand."""
    if "chips" not in view or "team_of" not in view:
        return [0.0] * 6
    board = _board(view)
    team = view["team_of"][seat]
    others = [t for t in range(view["teams"]) if t != team]
    own = math.log1p(line_worth(board, team))
    theirs = max(math.log1p(line_worth(board, t)) for t in others)
    made = view.get("team_sequences") or [0] * view["teams"]
    target = max(1, int(view.get("target", 2)))
    made_edge = (made[team] - max(made[t] for t in others)) / target
    hand = (view.get("hands") or [None] * (seat + 1))[seat] or []
    # a two-eyed jack places a chip anywhere, a one-eyed one takes one away: both are kept
    jacks = (
        sum(card in ("JC", "JD") for card in hand) + sum(card in ("JH", "JS") for card in hand) / 2
    )
    return [own - theirs, own, theirs, made_edge, jacks / 2, _is_turn(view, seat)]


def roudalon(view: dict[str, Any], seat: int, game: Game) -> list[float]:
    """The advisor's table of winning chances (every player's dice, the pot, whose turn), and the
    seat's own dice and stake."""
    held = view.get("held") or []
    players = len(held)
    if not players:
        return [0.0, 0.0, 0.0, 0.0]
    fair = 1.0 / players
    table_chance = fair
    current = view.get("current")
    pot = int(view.get("pot") or 0)
    if view.get("phase") == "turn" and isinstance(current, int) and pot > 0:
        option = game.option
        table = win_table(players, option("stake_min"), option("stake_max"))
        turned = tuple(held[(seat + i) % players] for i in range(players))
        table_chance = table.value(pot, turned, (current - seat) % players)
    staked = view.get("staked") or [0] * players
    return [_logit(table_chance) - _logit(fair), held[seat] / 2, float(staked[seat] > 0),
            _is_turn(view, seat)]  # fmt: skip


FEATURES: dict[str, Features] = {
    "struggle": struggle,
    "traverse": traverse,
    "strategix": strategix,
    "sequence": sequence,
    "roudalon": roudalon,
}


def features_of(state: State, seat: int) -> list[float]:
    """The numbers a seat's chance is computed from, with a constant 1 first: its view and the
    game's settings, nothing else of the state."""
    return [1.0, *FEATURES[state.game.name](state.view(seat), seat, state.game)]

"""The turns a Traverse side needs to bring its last pawns home, the opponent left aside: why
the end of a game is slow (the exact count to enter and the compulsory use of both dice).

    python -m research.traverse.endgame

Tried as the advisor's race term (the three pawns furthest back counted by these turns, seven
squares a turn, the others square for square) and dropped: see docs/games/traverse.md.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from advisor.traverse import THROWS, reply_plays
from engines._traverse_plays import play_out

ENDGAME_PAWNS = 3


@cache
def finish_turns(end: int) -> dict[tuple[int, ...], float]:
    """The expected turns a side needs to bring its last pawns home (up to ENDGAME_PAWNS, by
    their sorted positions) when it plays for that alone, the opponent left aside.

    The exact count to enter and the compulsory use of both dice make the last pawn slow: alone
    one square from home it needs 4.2 turns on average (both dice used, or one pawn's moves
    back and forth landing home), alone at its start 5.4. Value iteration over the 21 throws
    and every play (the engine's own lists), about a second, once per axis length.
    """
    pawns = end - 1
    states = [left for k in range(ENDGAME_PAWNS + 1)
              for left in combinations_with_replacement(range(end), k)]  # fmt: skip
    index = {left: i for i, left in enumerate(states)}
    nobody = bytes(pawns)  # the opponent all at its start: in no one's way
    moves = []
    for left in states:
        mine = bytes(list(left) + [end] * (pawns - len(left)))
        per_throw = []
        for d1, d2, chance in THROWS:
            after = set()
            for play in reply_plays(mine, nobody, d1, d2, end, True):
                out = play_out(mine, nobody, play, end)[0]
                after.add(index[tuple(sorted(p for p in out if p != end))])
            per_throw.append((chance, tuple(after)))
        moves.append(per_throw)
    turns = [0.0] * len(states)
    for _ in range(1000):
        new = [0.0] + [1.0 + sum(chance * min(turns[j] for j in after) for chance, after in per)
                       for per in moves[1:]]  # fmt: skip
        change = max(abs(a - b) for a, b in zip(new, turns, strict=True))
        turns = new
        if change < 1e-9:
            break
    return dict(zip(states, turns, strict=True))


def main() -> None:
    turns = finish_turns(11)
    for left in [(p,) for p in range(11)] + [(10, 10), (5, 6), (0, 0), (10, 10, 10), (5, 5, 5),
                                              (4, 5, 6), (0, 0, 0)]:  # fmt: skip
        print(f"pawns out at {left}: {turns[left]:.2f} turns")


if __name__ == "__main__":
    main()

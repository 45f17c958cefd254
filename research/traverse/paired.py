"""Paired games for tuning Traverse's advisor: variants against the demo's greedy bot on the
same dice (common random numbers), straight on the positions, without the engine's overhead.

    python -m research.traverse.paired --games 400 --searched 0,6

Each game number fixes the dice and who starts; game 2k and 2k+1 share their dice with the
advisor in either seat. Every variant plays the same games, so the difference between two
variants (in games won) is paired: a few points show where two unpaired runs of 400 games
each would drown them. The advisor here is advisor.traverse's own weighing and search (`worth`,
`expectation`, its own next throw searched too with at most `--deep` pawns out) with a fixed
number of plays searched instead of a time budget; the opponent is
companion.bot_choice's Traverse choice (3 x own squares - 2 x the other's + 20 per pawn home,
ties at random).
"""

from __future__ import annotations

import argparse
import random
import time

from advisor import traverse as advisor_traverse
from advisor.traverse import expectation, pawns_out, reply_plays, worth
from engines._traverse_plays import Play, Positions, play_out

END = 11  # the default axis length


def greedy(mine: Positions, theirs: Positions, d1: int, d2: int, rng: random.Random) -> Play:
    scored = []
    for play in reply_plays(mine, theirs, d1, d2, END, True):
        after, other, _ = play_out(mine, theirs, play, END)
        gain = 3 * sum(after) - 2 * sum(other) + 20 * after.count(END)
        scored.append((gain, rng.random(), play))
    return max(scored)[2]


def advised(mine: Positions, theirs: Positions, d1: int, d2: int, searched: int) -> Play:
    weighed = []
    for play in reply_plays(mine, theirs, d1, d2, END, True):
        after, other, _ = play_out(mine, theirs, play, END)
        weighed.append((worth(after, other, END), play, after, other))
    weighed.sort(key=lambda item: -item[0])
    if searched == 0 or len(weighed) == 1:
        return weighed[0][1]
    own_throw = pawns_out(mine, END) <= advisor_traverse.DEEP_PAWNS
    deep = [
        (expectation(a, o, END, True, None, own_throw), play)
        for _, play, a, o in weighed[:searched]
    ]
    return max(deep, key=lambda item: item[0])[1]


def game_start(number: int) -> tuple[random.Random, random.Random, int, int, list[Positions]]:
    """Game `number`'s dice, the bot's tie-breaks, the advisor's seat, who throws first and the
    starting positions: games 2k and 2k+1 have the same dice, seats swapped."""
    seed = number // 2 + 1000
    dice, ties = random.Random(seed), random.Random(seed * 7 + 1)
    return dice, ties, number % 2, seed % 2, [bytes(END - 1), bytes(END - 1)]


def play_game(number: int, searched: int) -> float:
    """1 if the advisor wins game `number`, 0 if it loses (0.5 past 2000 turns)."""
    dice, ties, seat, current, positions = game_start(number)
    for _ in range(2000):
        d1, d2 = dice.randint(1, 6), dice.randint(1, 6)
        mine, theirs = positions[current], positions[1 - current]
        if current == seat:
            play = advised(mine, theirs, d1, d2, searched)
        else:
            play = greedy(mine, theirs, d1, d2, ties)
        positions[current], positions[1 - current], _ = play_out(mine, theirs, play, END)
        if not pawns_out(positions[current], END):
            return float(current == seat)
        current = 1 - current
    return 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--first", type=int, default=0, help="first game number")
    parser.add_argument(
        "--searched",
        default="0,6",
        help="plays searched two plies deep, one variant per count (0: the weighing alone)",
    )
    parser.add_argument(
        "--deep",
        type=int,
        default=advisor_traverse.DEEP_PAWNS,
        help="the mover's own next throw searched with at most this many pawns out",
    )
    args = parser.parse_args()
    advisor_traverse.DEEP_PAWNS = args.deep
    numbers = range(args.first, args.first + args.games)
    base: list[float] | None = None
    for searched in (int(s) for s in args.searched.split(",")):
        begin = time.perf_counter()
        results = [play_game(number, searched) for number in numbers]
        base = base or results
        paired = sum(a - b for a, b in zip(results, base, strict=True))
        print(f"searched {searched:3d}: won {sum(results):.1f} of {args.games} "
              f"({100 * sum(results) / args.games:.1f} %), paired with the first variant "
              f"{paired:+.1f} games, {time.perf_counter() - begin:.0f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()

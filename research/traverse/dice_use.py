"""Where Traverse's advisor leaves dice unused: its plays against the demo's greedy bot, each
set beside the play the bot would make with the same dice in the same position.

    python -m research.traverse.dice_use --games 200 --show 10

Prints the share of the dice thrown that became net progress (squares forward less squares
back) for the advisor, for the bot in the advisor's positions, and for the bot in its own; and
the advisor's plays that gain less than the bot's would, by kind (a hit the bot would not make,
a move back, a play that changes nothing), with the first few shown and weighed.
Also, per side, the dice no legal play could turn into progress (the exact count to enter, both
dice compulsory: the end of a game) and the turns played with 8 or 9 pawns home.
The advisor is the one-ply weighing (`--searched 0`) unless told otherwise.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from advisor.traverse import pawns_out, reply_plays, worth
from engines._traverse_plays import Play, notation, play_out
from research.traverse.paired import END, advised, game_start, greedy


def net(play: Play) -> int:
    return sum(delta for _, delta in play)


def hits(outcome: list[int]) -> int:
    return sum(1 for victim in outcome if victim >= 0)


def kind(play: Play, hit_more: bool) -> str:
    if hit_more:
        return "hit"
    if net(play) == 0:
        return "no change"
    return "back" if any(delta < 0 for _, delta in play) else "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--searched", type=int, default=0)
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args()
    count: Counter = Counter()
    shown = 0
    for number in range(args.games):
        dice, ties, seat, current, positions = game_start(number)
        for _ in range(2000):
            d1, d2 = dice.randint(1, 6), dice.randint(1, 6)
            mine, theirs = positions[current], positions[1 - current]
            side = "advisor" if current == seat else "bot"
            most = max(net(p) for p in reply_plays(mine, theirs, d1, d2, END, True))
            count[f"{side} dice no play could use"] += d1 + d2 - most
            count[f"{side} turns with 8 or 9 pawns home"] += mine.count(END) >= END - 3
            if current == seat:
                play = advised(mine, theirs, d1, d2, args.searched)
                bot = greedy(mine, theirs, d1, d2, random.Random(number))
                count["advisor dice"] += d1 + d2
                count["advisor net"] += net(play)
                count["bot net, advisor positions"] += net(bot)
                if net(play) < net(bot):
                    after = play_out(mine, theirs, play, END)
                    bot_after = play_out(mine, theirs, bot, END)
                    what = kind(play, hits(after[2]) > hits(bot_after[2]))
                    count[f"less than the bot: {what}"] += 1
                    if what != "hit" and shown < args.show:
                        shown += 1
                        print(f"dice {d1} {d2}, mine {list(mine)}, theirs {list(theirs)}: "
                              f"advisor {notation(play)} (net {net(play)}, worth "
                              f"{worth(*after[:2], END):.2f}), bot {notation(bot)} (net "
                              f"{net(bot)}, worth {worth(*bot_after[:2], END):.2f})")  # fmt: skip
            else:
                play = greedy(mine, theirs, d1, d2, ties)
                count["bot dice"] += d1 + d2
                count["bot net"] += net(play)
            positions[current], positions[1 - current], _ = play_out(mine, theirs, play, END)
            if not pawns_out(positions[current], END):
                count["advisor won"] += current == seat
                break
            current = 1 - current
    for name, value in sorted(count.items()):
        print(f"{name}: {value}")
    dice = count["advisor dice"]
    print(f"net progress per die pip: advisor {count['advisor net'] / dice:.3f}, "
          f"bot in the advisor's positions "
          f"{count['bot net, advisor positions'] / dice:.3f}, "
          f"bot in its own {count['bot net'] / count['bot dice']:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()

"""`tabletop bench referee-fuzz`: hostile lines at the referee, every game in both modes.

Each line is a legal move (so games go deep), a command, or something hostile: a legal move
spoiled (Unicode digits such as ² ③ ፫, `*=`, cut short, doubled), random text, random bytes
(invalid UTF-8), control characters, very long lines. Every reply must be one JSON object, and
every refusal must leave the position exactly as it was. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any

ODD_DIGITS = "²³¹①⑶፫٣５𝟘⁹"
ODD_PIECES = ["*=", "=", "*", "+", "-", "@", ":", ",", "..", "\x00", "\t", "\u200b", "é", "🂡"]
COMMANDS = ["undo", "show", "save", "UNDO", " show ", ""]
INTERNAL = "cannot handle this line ("
# The lines issue #22 found (each tried first in every game and mode), then their kin.
KNOWN_BAD = ["J+²", "K+³", "dealer ²", "dealer ³", "dealer ¹", "dealer ①", "dealer ⑶",
             "dealer ፫", "play *=A", "play =A", "play *", b"\xff\xfe", b"roll \xe9"]  # fmt: skip


@dataclass
class FuzzFigures:
    lines: int = 0
    accepted: int = 0
    refused: int = 0
    escaped: int = 0  # exceptions that got past the referee's boundary: tracebacks
    unexpected: list[str] = field(default_factory=list)  # internal errors the boundary caught
    changed_on_refusal: int = 0  # refusals after which the position differed
    finished: int = 0  # games played to their end along the way
    games: dict[str, int] = field(default_factory=dict)  # lines per game and mode
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not self.escaped and not self.changed_on_refusal


def new_referee(game: str, mode: str, seed: int) -> Any:
    import engines
    from companion.referee import Referee

    cls = engines.game_class(game)
    players = [f"P{i + 1}" for i in range(cls.player_counts()[0])]
    state = cls(players, {}, seed=seed, mode=mode).new_state()
    return Referee(state, auto_chance=mode == "full")


def good_line(state: Any, rng: random.Random) -> str | None:
    legal = state.legal_actions()
    if legal:
        return rng.choice(legal).notation
    if state.is_chance:
        return state.sample_chance(rng).notation
    return None


def spoil(line: str, rng: random.Random) -> str:
    """A legal-looking line made wrong in one of the ways parsers trip on."""
    chars = list(line) or [" "]
    where = rng.randrange(len(chars) + 1)
    how = rng.randrange(7)
    if how == 0:
        digits = [i for i, c in enumerate(chars) if c.isdigit()] or [where % len(chars)]
        chars[rng.choice(digits)] = rng.choice(ODD_DIGITS)
    elif how == 1:
        chars.insert(where, rng.choice(ODD_PIECES))
    elif how == 2:
        chars = chars[:where]
    elif how == 3:
        return f"{line} {line}"
    elif how == 4:
        return line.replace(" ", rng.choice(["", "  ", " * ", "=", " =A "]), 1)
    elif how == 5:
        words = line.split()
        return " ".join([words[0], *(rng.choice(ODD_PIECES) for _ in words[1:])]) if words else "*"
    else:
        chars.insert(where, str(rng.randrange(-(10**6), 10**20)))
    return "".join(chars)


def hostile_bytes(rng: random.Random) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if kind == 1:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 30))).encode()
    if kind == 2:
        return b"x" * rng.choice([999, 1000, 1001, 5000])
    if kind == 3:
        return b"[" * rng.randrange(1, 5000)
    return rng.choice([b"\xff\xfe", b"\xc3", b"roll \xe9 1", b"\x00", b"\x1b[2J", b"\r"])


def next_line(referee: Any, rng: random.Random) -> str | bytes:
    draw = rng.random()
    line = good_line(referee.state, rng)
    if draw < 0.4 and line is not None:
        return line
    if draw < 0.5:
        return rng.choice(COMMANDS)
    if draw < 0.8 and line is not None:
        return spoil(line, rng)
    return hostile_bytes(rng)


def fuzz(lines: int, seed: int, games: list[str] | None = None) -> FuzzFigures:
    import engines

    games = games or engines.available_games()
    runs = [(game, mode) for game in games for mode in ("full", "table")]
    figures = FuzzFigures()
    started = time.perf_counter()
    rng = random.Random(seed)
    per_run = max(1, lines // len(runs))
    for number, (game, mode) in enumerate(runs):
        share = per_run if number < len(runs) - 1 else lines - per_run * (len(runs) - 1)
        fuzz_one(game, mode, share, rng, figures)
        figures.games[f"{game}/{mode}"] = share
    figures.seconds = round(time.perf_counter() - started, 2)
    return figures


def fuzz_one(game: str, mode: str, lines: int, rng: random.Random, figures: FuzzFigures) -> None:
    referee = new_referee(game, mode, rng.randrange(2**31))
    for number in range(lines):
        if referee.state.is_over and rng.random() < 0.3:
            referee = new_referee(game, mode, rng.randrange(2**31))
            figures.finished += 1
        line = KNOWN_BAD[number] if number < len(KNOWN_BAD) else next_line(referee, rng)
        before = referee.state.clone()
        figures.lines += 1
        try:
            reply = referee.answer(line)
            json.dumps(reply, ensure_ascii=False)
        except Exception as error:  # past the boundary: exactly what must never happen
            figures.escaped += 1
            figures.unexpected.append(f"{game}/{mode} {line!r}: escaped {error!r}")
            referee = new_referee(game, mode, rng.randrange(2**31))
            continue
        if reply.get("ok"):
            figures.accepted += 1
            continue
        figures.refused += 1
        if str(reply.get("error", "")).startswith(INTERNAL):
            figures.unexpected.append(f"{game}/{mode} {line!r}: {reply['error']}")
        if referee.state != before:
            figures.changed_on_refusal += 1


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "referee-fuzz",
        help="hostile lines at the referee (every game, both modes): zero tracebacks wanted",
    )
    parser.add_argument("--lines", type=int, default=10_000, help="lines in all (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", help="comma-separated games (default: every engine)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.lines < 1:
        print("tabletop bench referee-fuzz: --lines needs N >= 1")
        return 2
    games = [g.strip() for g in args.games.split(",")] if args.games else None
    figures = fuzz(args.lines, args.seed, games)
    if args.json:
        shown = {**asdict(figures), "unexpected": len(figures.unexpected)}
        shown["unexpected_examples"] = figures.unexpected[:10]
        print(json.dumps(shown, ensure_ascii=False))
    else:
        print(
            f"{figures.lines} lines: {figures.accepted} accepted, {figures.refused} refused; "
            f"{figures.escaped} tracebacks, {figures.changed_on_refusal} refusals that changed "
            f"the position, {len(figures.unexpected)} internal errors caught by the boundary "
            f"({figures.seconds} s)"
        )
        for example in figures.unexpected[:10]:
            print(f"  {example}")
    return 0 if figures.clean else 1

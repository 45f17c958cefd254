"""A complete game of each game on a simulated table: rendered dice, the real reader, bots.

Everything goes through the product's own path: the simulated camera renders each roll, the
dice reader and roll tracker read it, the controller proposes the reading, bot "players" correct
misreads by tapping dice and confirm; moves are taps on the screen's move targets; every action
is logged in the store before it is shown. The demo is deterministic for a seed: the faces of
each roll are the engine's seeded chance outcome for that point of the game, so a demo killed at
any moment and run again resumes from the store and ends with the same scores.
"""

from __future__ import annotations

import json
import logging
import os
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.bots import Bot
from companion.controller import GAMES, Controller, Press, Settled
from companion.feed import DiceFeed
from companion.persistence.recovery import set_aside_unreplayable
from companion.persistence.store import GameRecord, Store

log = logging.getLogger(__name__)

DEMO_PLAYERS: dict[str, list[str]] = {
    "struggle": ["Alice", "Bruno", "Chloé"],
    "traverse": ["Alice", "Bruno"],
    "strategix": ["Alice", "Bruno", "Chloé"],
    "sequence": ["Alice", "Bruno", "Chloé", "David"],
    "roudalon": ["Alice", "Bruno", "Chloé", "David"],
}
DEMO_TEAMS: dict[str, list[int]] = {"sequence": [0, 1, 0, 1]}
CAMERA_SIZE = (480, 360)  # rendering dominates the demo's time; the reader is scale-free
MAX_FRAMES_PER_ROLL = 8
MAX_STEPS = 5000


@dataclass
class GameSummary:
    game: str
    players: list[str]
    scores: list[int]
    winners: list[str]
    actions: int
    rolls: int = 0
    dice_read: int = 0
    misreads_corrected: int = 0
    screenshots: int = 0
    seconds: float = 0.0
    reader_problem: str = ""

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if k != "game"}


@dataclass
class DemoTable:
    """What one demo game needs: its store, screen renderer, dice feed, bot and output folder."""

    store: Store
    renderer: Any
    feed: DiceFeed
    bot: Bot
    out: Path
    seed: int
    say: Callable[[str], None] = print
    shots: int = 0
    rolls: dict[str, int] = field(default_factory=lambda: {"rolls": 0, "dice": 0})


def demo_label(game: str, seed: int) -> str:
    return f"demo:{game}:{seed}"


def run_demo(
    games: list[str],
    seed: int,
    state_dir: Path,
    out_dir: Path,
    say: Callable[[str], None] = print,
    bot_level: str = "simple",
) -> dict[str, Any]:
    """Play (or resume) each game; write DIR/result.json; return what it holds."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"  # always headless, whatever the machine has
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from display.render import Renderer

    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    summaries: dict[str, GameSummary] = {}
    with Store(state_dir) as store:
        for note in store.notes + set_aside_unreplayable(store):
            say(f"note: {note}")
        feed = DiceFeed(camera=None, settle_frames=2)
        for game in games:
            bot = Bot(seed, level=bot_level)
            table = DemoTable(store, Renderer((800, 480)), feed, bot, out_dir / game, seed, say)
            summaries[game] = play_game(table, game)
            summary = summaries[game]
            say(
                f"{game}: {summary.actions} actions, {summary.rolls} rolls, "
                f"{summary.misreads_corrected} misread dice corrected, scores "
                + ", ".join(
                    f"{p} {s}" for p, s in zip(summary.players, summary.scores, strict=True)
                )
            )
    result = {
        "seed": seed,
        "games": {game: summary.as_json() for game, summary in summaries.items()},
        "scores": {
            game: dict(zip(s.players, s.scores, strict=True)) for game, s in summaries.items()
        },
        "misreads_corrected": sum(s.misreads_corrected for s in summaries.values()),
        "dice_read": sum(s.dice_read for s in summaries.values()),
        "seconds": round(time.perf_counter() - started, 2),
    }
    write_json_atomically(out_dir / "result.json", result)
    return result


def write_json_atomically(path: Path, data: dict[str, Any]) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temporary, path)


def play_game(table: DemoTable, game: str) -> GameSummary:
    started = time.perf_counter()
    label = demo_label(game, table.seed)
    finished = [r for r in table.store.find_games(label) if r.status == "over"]
    if finished:
        table.say(f"{game}: already played in {table.store.state_dir}, reading its result")
        end_shot = table.out / f"{len(table.store.actions(finished[-1].id)):04d}-end.png"
        if not end_shot.exists():  # killed between the last action and the last screenshot
            controller = Controller(table.store, "fr", moves_per_page=4, auto_resume=False)
            controller.load(finished[-1])
            table.out.mkdir(parents=True, exist_ok=True)
            shoot(table, controller, "end")
        summary = summary_from_store(table.store, finished[-1], 0.0)
        summary.screenshots = len(list(table.out.glob("*.png")))
        return summary
    controller = Controller(table.store, language="fr", moves_per_page=4, auto_resume=False)
    if controller.resume(label):
        done = len(controller.state.history)
        table.say(f"{game}: resuming after {done} logged actions")
        table.out.mkdir(parents=True, exist_ok=True)
        if last_was_a_move(controller.state) and not shot_path(table, controller, "").exists():
            shoot(table, controller, "")  # killed between a move and its screenshot
    else:
        controller.start_game(game, DEMO_PLAYERS[game], seed=table.seed, mode="full",
                              teams=DEMO_TEAMS.get(game), label=label)  # fmt: skip
    table.out.mkdir(parents=True, exist_ok=True)
    for _ in range(MAX_STEPS):
        state = controller.state
        if state.is_over:
            break
        request = controller.dice_request()
        if request is not None:
            roll_dice(table, controller, request)
        elif isinstance(state.actor, int):
            table.bot.play_turn(controller)
            if controller.error:
                raise RuntimeError(f"{game}: the bot's move was refused: {controller.message}")
            shoot(table, controller, "")
        elif controller.session.table.players_say(state):  # who starts: the seed says
            controller.play(state.sample_chance().notation)
        else:
            raise RuntimeError(f"{game}: chance waits for {state.chance_hint()!r}, not dice")
    else:
        raise RuntimeError(f"{game}: not over after {MAX_STEPS} steps")
    shoot(table, controller, "end")
    summary = summary_from_store(table.store, controller.session.record, 0.0)
    summary.seconds = round(time.perf_counter() - started, 2)
    summary.reader_problem = table.feed.problem
    summary.screenshots = len(list(table.out.glob("*.png")))
    return summary


def roll_dice(table: DemoTable, controller: Controller, request: Any) -> None:
    """Render the roll the engine's seed says comes next, read it, correct it, confirm it."""
    from hardware.simcam import SimulatedCamera

    state = controller.state
    faces = state.sample_chance().notation.split()[1:]
    camera_seed = zlib.crc32(f"{table.seed}:{state.game.name}:{len(state.history)}".encode())
    # The dice land before the first frame (no tumbling frames): the tracker settles on the
    # second still frame, so each roll costs the reader two frames rather than four.
    camera = SimulatedCamera(seed=camera_seed, kind=request.kind, dice=request.count,
                             size=CAMERA_SIZE, stepped=True, moving_frames=0,
                             settled_frames=3)  # fmt: skip
    camera.start()
    camera.request_roll([int(f) for f in faces] if request.kind == "d6" else faces)
    table.feed.camera = camera
    table.feed.reset()
    controller.table.turn.proposal = None
    for _ in range(MAX_FRAMES_PER_ROLL):
        for event in table.feed.step(request.kind):
            controller.handle(event)
        if controller.table.turn.proposal is not None:
            break
    if controller.table.turn.proposal is None:  # never settled: the players read the tray
        from vision.read.types import Reading

        controller.handle(Settled(Reading(), table.feed.last_image))
    truth = camera.truth.dice
    table.rolls["rolls"] += 1
    table.rolls["dice"] += len(truth)
    table.bot.correct_dice(controller, truth)
    shoot(table, controller, "dice")
    controller.handle(Press("confirm"))
    if controller.error:
        raise RuntimeError(f"the corrected roll was refused: {controller.message}")
    camera.stop()


def shot_path(table: DemoTable, controller: Controller, suffix: str) -> Path:
    number = len(controller.state.history)
    return table.out / f"{number:04d}{'-' + suffix if suffix else ''}.png"


def shoot(table: DemoTable, controller: Controller, suffix: str) -> None:
    from display.render import save_png

    save_png(table.renderer.draw(controller.screen()), shot_path(table, controller, suffix))
    table.shots += 1


def last_was_a_move(state: Any) -> bool:
    """Whether the newest action that was not an automatic deal or draw was a player's move
    (the demo shoots the screen after each move, not after a roll)."""
    replay = state.game.new_state()
    kinds = []
    for action in state.history:
        if replay.is_chance:
            kinds.append("roll" if action.notation.startswith("roll ") else "auto")
        else:
            kinds.append("move")
        replay.apply(action, validate=False)
    meaningful = [kind for kind in kinds if kind != "auto"]
    return bool(meaningful) and meaningful[-1] == "move"


def summary_from_store(store: Store, record: GameRecord, seconds: float) -> GameSummary:
    results = store.results(record.id)
    actions = store.actions(record.id)
    rolls = [a for a in actions if a.notation.startswith("roll ")]
    return GameSummary(
        game=record.game,
        players=list(record.players),
        scores=[score for score, _ in results],
        winners=[name for name, (_, won) in zip(record.players, results, strict=True) if won],
        actions=len(actions),
        rolls=len(rolls),
        dice_read=sum(len(a.notation.split()) - 1 for a in rolls),
        misreads_corrected=sum(a.corrected for a in actions),
        seconds=seconds,
    )


def available(games: list[str]) -> list[str]:
    import engines

    built = set(engines.available_games())
    return [g for g in games if g in built]


__all__ = ["GAMES", "run_demo", "available"]

"""Render every screen, at both panel sizes, to PNG files (docs/screens/ is made with this).

    python -m companion.gallery docs/screens

Positions come from seeded full-mode games; the table screens with dice show a rendered tray
from the simulated camera, read by the real dice reader (or, when the reader is unavailable,
its truth marked as corrections).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from companion.controller import Controller, Settled, Tap
from companion.persistence.store import Store

SIZES = {"": (800, 480), "-portrait": (720, 1280)}
PORTRAIT_SCENES = (
    "table",
    "table-moves",
    "table-hint",
    "sequence-entry",
    "roudalon",
    "home",
    "setup",
    "settings-tray",
    "traverse",
    "strategix",
    "review",
    "review-sequence",
)


def advance(controller: Controller, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        state = controller.state
        if state.is_over:
            return
        if controller.dice_request():
            controller.play(state.sample_chance().notation)
        else:
            controller.handle(Tap("move:" + rng.choice(controller.table.choices(state)).notation))


def show_roll(controller: Controller, seed: int) -> None:
    """Put a rendered roll of the dice the engine waits for on the camera view, read."""
    from companion.bots import Bot
    from companion.feed import DiceFeed
    from hardware.simcam import SimulatedCamera
    from vision.read.types import Reading

    request = controller.dice_request()
    faces = controller.state.sample_chance().notation.split()[1:]
    camera = SimulatedCamera(seed=seed, kind=request.kind, dice=request.count, stepped=True,
                             moving_frames=1, settled_frames=3)  # fmt: skip
    camera.start()
    camera.request_roll([int(f) for f in faces] if request.kind == "d6" else faces)
    feed = DiceFeed(camera, settle_frames=2)
    for _ in range(8):
        for event in feed.step(request.kind):
            controller.handle(event)
        if controller.table.turn.proposal is not None:
            break
    if controller.table.turn.proposal is None:
        controller.handle(Settled(Reading(), feed.last_image))
    Bot(seed).correct_dice(controller, camera.truth.dice)


def scenes(store: Store, language: str = "fr") -> list[tuple[str, Callable[[], Controller]]]:
    """Each gallery screen by name, and how to bring a controller speaking `language` to it."""

    def fresh() -> Controller:
        controller = Controller(store, language, moves_per_page=4, auto_resume=False)
        controller.language = language  # the store may remember another one
        return controller

    def table(game: str, players: list[str], steps: int, roll: bool, seed: int = 2) -> Controller:
        controller = fresh()
        controller.start_game(game, players, seed=seed, mode="full")
        advance(controller, steps, random.Random(seed))
        if roll and controller.dice_request() is None:
            advance(controller, 1, random.Random(seed))
        if roll:
            show_roll(controller, seed)
        return controller

    def unsure(game: str, players: list[str], steps: int, doubted: int) -> Controller:
        """A roll read with one die below the sure line: marked "?" beside its best guess."""
        from vision.read.types import Die, Reading
        from vision.synth.render import render_scene

        controller = table(game, players, steps, False)
        while (request := controller.dice_request()) is None:
            advance(controller, 1, random.Random(steps))
        faces = controller.state.sample_chance().notation.split()[1:]
        kind = request.kind
        scene = render_scene([int(f) for f in faces] if kind == "d6" else faces, kind=kind, seed=3)
        dice = tuple(Die(d.value, d.center, 0.6 if i == doubted else 0.999, d.quad,
                         sure=i != doubted) for i, d in enumerate(scene.dice))  # fmt: skip
        controller.handle(Settled(Reading(dice), scene.frame))
        return controller

    def hint(game: str, players: list[str], steps: int) -> Controller:
        """The table with the hint's panel open, its choices come."""
        controller = table(game, players, steps, False)
        while controller.dice_request() is not None:
            advance(controller, 1, random.Random(steps))
        controller.handle(Tap("hint:"))
        controller.table.advice.wait()
        return controller

    def bot_seats() -> Controller:
        controller = fresh()
        controller.handle(Tap("game:roudalon"))
        controller.handle(Tap("count:+"))
        for seat, touches in ((1, 1), (2, 3), (4, 2)):
            for _ in range(touches):
                controller.handle(Tap(f"seat:{seat}"))
        return controller

    def setup() -> Controller:
        controller = fresh()
        controller.handle(Tap("game:sequence"))
        controller.handle(Tap("count:+"))
        controller.handle(Tap("count:+"))
        return controller

    def typing(game: str) -> Controller:
        controller = fresh()
        controller.start_game(game, ["Alice", "Bruno", "Chloé"] if game == "strategix"
                              else ["Alice", "Bruno"], seed=4, mode="table")  # fmt: skip
        controller.handle(Tap(controller.table.move_targets(controller.state)[0].id))
        for key in ("7", "D") if game == "sequence" else ("*", "K", "L", "M"):
            controller.handle(Tap(f"key:{key}"))
        return controller

    def nav(name: str) -> Callable[[], Controller]:
        def make() -> Controller:
            controller = fresh()
            controller.handle(Tap(f"nav:{name}"))
            return controller

        return make

    def scorebook(player: str) -> Callable[[], Controller]:
        def make() -> Controller:
            if not store.totals():  # a few complete games, played by the bots' random choices
                for seed in (1, 2):
                    table("struggle", ["Alice", "Bruno", "Chloé"], 2000, False, seed)
                table("roudalon", ["Alice", "Bruno", "Chloé", "David"], 2000, False, 3)
            controller = fresh()
            controller.handle(Tap("nav:scores"))
            if player:
                controller.handle(Tap(f"player:{player}"))
            return controller

        return make

    def review(game: str, players: list[str], seed: int) -> Controller:
        """A finished game's review, computed (in its worker process) and opened."""
        controller = table(game, players, 2000, False, seed)
        controller.tick()
        controller.review.worker.wait()
        controller.tick()
        controller.close()  # the review is stored: its worker is done
        controller.handle(Tap("review:"))
        return controller

    def teaching() -> Controller:
        from companion.controller import CameraImage
        from vision.synth.render import render_scene

        controller = fresh()
        controller.handle(Tap("nav:settings"))
        controller.handle(Tap("teach:start"))
        controller.handle(CameraImage(render_scene(["9"] * 3, kind="poker", seed=1).frame))
        return controller

    def look_alike() -> Controller:
        """The teach screen after teaching: a J captured that looks like the K dice."""
        from companion.teach import LookAlike, crop_dice
        from vision.synth.render import render_scene

        controller = fresh()
        controller.handle(Tap("nav:settings"))
        j_die, k_die = crop_dice(render_scene(["K", "J"], kind="poker", seed=1).frame)[:2]
        controller.settings.look_alikes = [LookAlike("J", 2, j_die, "K", 1, k_die)]
        return controller

    def tray_choice() -> Controller:
        from companion.controller import CameraImage
        from vision.synth.render import render_scene

        controller = fresh()
        controller.handle(Tap("nav:settings"))
        frame = render_scene([3, 5, 6], kind="d6", seed=2).frame
        controller.handle(CameraImage(frame))
        controller.handle(Tap("tray:edit"))
        height, width = frame.shape[:2]
        controller.handle(Tap(f"trayat:{width // 8},{height // 10}"))
        controller.handle(Tap(f"trayat:{width * 7 // 8},{height * 9 // 10}"))
        return controller

    return [
        ("table", lambda: table("struggle", ["Alice", "Bruno", "Chloé"], 20, True)),
        ("table-moves", lambda: table("struggle", ["Alice", "Bruno", "Chloé"], 21, False)),
        ("table-hint", lambda: hint("struggle", ["Alice", "Bruno", "Chloé"], 20)),
        ("table-unsure", lambda: unsure("struggle", ["Alice", "Bruno", "Chloé"], 20, 1)),
        ("traverse-hint", lambda: hint("traverse", ["Alice", "Bruno"], 60)),
        ("roudalon-hint", lambda: hint("roudalon", ["Alice", "Bruno", "Chloé", "David"], 9)),
        ("traverse", lambda: table("traverse", ["Alice", "Bruno"], 60, True)),
        ("roudalon", lambda: table("roudalon", ["Alice", "Bruno", "Chloé", "David"], 9, False)),
        ("strategix", lambda: table("strategix", ["Alice", "Bruno", "Chloé"], 30, False)),
        ("sequence", lambda: table("sequence", ["Alice", "Bruno", "Chloé", "David"], 40, False)),
        ("strategix-entry", lambda: typing("strategix")),
        ("sequence-entry", lambda: typing("sequence")),
        ("setup", setup),
        ("setup-bots", bot_seats),
        ("home", nav("home")),
        ("scores", scorebook("")),
        ("scores-player", scorebook("Alice")),
        ("settings", nav("settings")),
        ("settings-teach", teaching),
        ("settings-look-alike", look_alike),
        ("settings-tray", tray_choice),
        ("rules", nav("rules")),
        ("review", lambda: review("roudalon", ["Alice", "Bruno", "Chloé", "David"], 5)),
        ("review-sequence", lambda: review("sequence", ["Alice", "Bruno"], 3)),
    ]


def render_gallery(out_dir: Path) -> list[Path]:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from display.render import Renderer, save_png

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    renderers = {suffix: Renderer(size) for suffix, size in SIZES.items()}
    with tempfile.TemporaryDirectory() as scratch, Store(scratch) as store:
        for name, make in scenes(store):
            controller = make()
            for suffix, renderer in renderers.items():
                if suffix and name not in PORTRAIT_SCENES:
                    continue  # the portrait layout is shown on a few screens (file size)
                controller.use_layout(renderer.layout)
                path = out_dir / f"{name}{suffix}.png"
                save_png(renderer.draw(controller.screen()), path, compression=9)
                written.append(path)
    return written


if __name__ == "__main__":
    for path in render_gallery(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screens")):
        print(path)

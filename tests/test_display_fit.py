"""Every gallery screen, at both panel sizes and in both languages, fits by construction: no
text clipped or drawn under 16 px, no button a finger cannot hit surely."""

from __future__ import annotations

import os

import pytest

from companion.gallery import SIZES, scenes
from companion.persistence.store import Store
from display.render import MIN_TARGET, Renderer

BOARD_SQUARE = 44  # px: a board square touched (Sequence squares, pawns)
SCENE_NAMES = [name for name, _ in scenes(None)]  # type: ignore[arg-type]


def target_problems(renderer: Renderer) -> list[str]:
    found = []
    for rect, target_id in renderer.hits:
        least = BOARD_SQUARE if target_id.startswith(("square:", "piece:")) else MIN_TARGET
        if min(rect.w, rect.h) < least - 1:
            found.append(f"small target {target_id} {rect.w}x{rect.h}")
    return found


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    with Store(tmp_path_factory.mktemp("fit")) as opened:
        yield opened


@pytest.mark.parametrize("name", SCENE_NAMES)
def test_every_screen_fits_at_both_sizes_in_both_languages(store, name):
    make = dict(scenes(store))[name]
    controller = make()
    problems = []
    for size in SIZES.values():
        renderer = Renderer(size)
        controller.use_layout(renderer.layout)
        for language in ("fr", "en"):
            controller.language = language
            renderer.draw(controller.screen())
            where = f"{name} {size[0]}x{size[1]} {language}"
            problems += [f"{where}: {p}" for p in renderer.problems + target_problems(renderer)]
    assert not problems, "\n".join(problems)

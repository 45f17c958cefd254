"""What stranger G met playing Traverse at 800x480 (issue 57, round 5): each problem held by a
test, and its class over every game and both screen sizes."""

from __future__ import annotations

import pytest

from companion.controller import Controller, Tap
from companion.persistence.store import Store
from display.render import Renderer
from tests.test_advisor_table import PLAYERS, at_a_choice, open_hint

SIZES = [(800, 480), (720, 1280)]


def drawn_page(controller: Controller, renderer: Renderer) -> tuple[tuple[int, int], set[str]]:
    """The page of moves drawn, of how many, and the ids of the page buttons drawn."""
    controller.use_layout(renderer.layout)
    renderer.draw(controller.screen())
    return renderer.page_info, {target for _, target in renderer.hits if target.startswith("page:")}


def page_through(controller: Controller, renderer: Renderer) -> list[int]:
    """Touch "Next" to the last page, then "Prev" back to the first: the pages drawn."""
    (page, pages), _ = drawn_page(controller, renderer)
    seen = [page]
    for step in [1] * (pages - 1) + [-1] * (pages - 1):
        (page, _), buttons = drawn_page(controller, renderer)
        wanted = f"page:{page + step}"
        assert wanted in buttons, (wanted, buttons)
        controller.handle(Tap(wanted))
        seen.append(drawn_page(controller, renderer)[0][0])
    return seen


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_every_page_button_of_the_hint_panel_changes_the_page(tmp_path, game, size):
    """t-021b..t-024: the hint panel showed "1/3" and "Next »" left it on 1/3 (the panel asked
    always for page 0): the 2nd and 3rd choices could never be seen. In every game, at both
    sizes, each page button shown leads to its page, and the panel opens again on page 1."""
    with Store(tmp_path / "state") as store:
        controller = at_a_choice(store, game)
        open_hint(controller)
        renderer = Renderer(size)
        (_, pages), _ = drawn_page(controller, renderer)
        expected = list(range(pages)) + list(range(pages - 2, -1, -1))
        assert page_through(controller, renderer) == expected
        if pages > 1:
            controller.handle(Tap(f"page:{pages - 1}"))
            controller.handle(Tap("hint:"))
            controller.handle(Tap("hint:"))
            assert drawn_page(controller, renderer)[0][0] == 0

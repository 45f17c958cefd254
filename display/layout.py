"""Where things go on the two supported panels: 800x480 landscape and 720x1280 portrait."""

from __future__ import annotations

from dataclasses import dataclass, replace

Box = tuple[int, int, int, int]  # x, y, w, h
MIN_TEXT = 16  # px: no word on screen is drawn smaller (arm's length, 7" panel)
LIST_TEXT = 18  # px: the smallest type of a list of moves (fewer a page rather than smaller)
MIN_TARGET = 48  # px: the smallest side of a button a finger can hit surely

LANDSCAPE = (800, 480)
PORTRAIT = (720, 1280)
SIZES = (LANDSCAPE, PORTRAIT)


@dataclass(frozen=True)
class Layout:
    """Named regions for one panel size. `main` holds the camera (dice games) or the board (card
    games); `side` holds the board (dice games) or the moves / keyboard (card games)."""

    size: tuple[int, int]
    bar: Box
    title: Box
    main: Box
    side: Box
    options: Box
    actions: Box
    status: Box
    message: Box
    body: Box
    row_height: int
    font: int  # base type size (px)
    moves_per_page: int  # moves shown in `main` (dice games)
    side_moves_per_page: int  # moves shown in `side` (card games)
    board_alone: bool = False  # `main` holds the board only: its notes go at the top of `side`

    @property
    def portrait(self) -> bool:
        return self.size[1] > self.size[0]


def layout_for(size: tuple[int, int]) -> Layout:
    if tuple(size) == LANDSCAPE:
        return Layout(
            size=LANDSCAPE,
            bar=(250, 2, 546, 48),
            title=(8, 2, 238, 48),
            main=(8, 56, 384, 300),
            side=(400, 56, 392, 226),
            options=(400, 288, 392, 54),
            actions=(400, 348, 392, 54),
            status=(8, 362, 384, 78),
            message=(8, 444, 784, 36),
            body=(8, 56, 784, 386),
            row_height=52,
            font=22,
            moves_per_page=4,
            side_moves_per_page=3,
        )
    if tuple(size) == PORTRAIT:
        return Layout(
            size=PORTRAIT,
            bar=(4, 4, 712, 60),
            title=(8, 70, 704, 48),
            main=(8, 124, 704, 528),
            side=(8, 660, 704, 330),
            options=(8, 998, 704, 66),
            actions=(8, 1070, 704, 66),
            status=(8, 1142, 704, 84),
            message=(8, 1232, 704, 44),
            body=(8, 124, 704, 1100),
            row_height=60,
            font=28,
            moves_per_page=8,
            side_moves_per_page=5,
        )
    raise ValueError(f"display size must be 800x480 or 720x1280, got {size[0]}x{size[1]}")


def table_layout(size: tuple[int, int], game: str) -> Layout:
    """The table screen's regions: the panel's, except Traverse's at 800x480."""
    if game == "traverse" and tuple(size) == LANDSCAPE:
        return TRAVERSE_LANDSCAPE
    return layout_for(size)


# Traverse's 12x12 grid (start and arrival lines around the 10x10 crossing) takes the height
# under the bar: 32 px squares, 6 px or more clear of its box's edges, the dice above it (the
# status under it and the counts beside it left 24 px squares, arrival pawns on the edge).
# Beside it a column as wide as the actions' slots need: whose turn, the camera or the moves,
# the options, the actions, the message on two lines.
TRAVERSE_LANDSCAPE = replace(
    layout_for(LANDSCAPE),
    main=(2, 54, 396, 424),
    status=(404, 52, 394, 68),  # the turn on two lines if need be, the players' boxes
    side=(404, 124, 394, 208),  # two moves a page even when one needs five lines
    options=(404, 336, 394, 48),
    actions=(404, 388, 394, 48),
    message=(404, 438, 394, 40),  # two lines
    board_alone=True,
)


def grid(
    box: Box, count: int, columns: int, gap: int = 6, row_height: int | None = None
) -> list[Box]:
    """`count` cells filling `box` left to right, top to bottom, in `columns` columns."""
    if count <= 0:
        return []
    x, y, w, h = box
    rows = -(-count // columns)
    cell_w = (w - gap * (columns - 1)) // columns
    cell_h = (h - gap * (rows - 1)) // rows
    if row_height is not None:
        cell_h = min(cell_h, row_height)
    return [
        (x + (i % columns) * (cell_w + gap), y + (i // columns) * (cell_h + gap), cell_w, cell_h)
        for i in range(count)
    ]


def fit_columns(count: int, box: Box, min_width: int) -> int:
    """How many columns fit `count` cells of at least `min_width` across `box`."""
    return max(1, min(count, box[2] // min_width))

"""The board of each game, drawn from the engine's `view()` dict (docs/games/<game>.md)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from display import palette
from display.i18n import face_letter, face_letters, signed, text
from display.layout import MIN_TEXT, Box
from display.model import mark_id

if TYPE_CHECKING:
    from display.canvas import Canvas
    from display.model import Screen, Target

STRUGGLE_ORDER = ("K", "Q", "J", "10", "9")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = ("H", "D")
CARD_FACE: palette.Colour = (236, 232, 220)
CARD_TOUCH = 44  # px: a card of the hand touched, as a board square


def draw(renderer: Canvas, screen: Screen, box: Box) -> None:
    renderer.panel(box)
    view = screen.board
    if not view:
        return
    inner = (box[0] + 6, box[1] + 6, box[2] - 12, box[3] - 12)
    drawer = DRAWERS.get(str(view.get("game", screen.game)), draw_summary)
    drawer(renderer, view, inner, screen)


# ----- Struggle ------------------------------------------------------------------------------


def draw_struggle(renderer: Canvas, view: dict[str, Any], box: Box, screen: Screen) -> None:
    """Start square on the left, the track in a serpentine of four rows, then the five
    arrival boxes and the hand on the bottom line."""
    track: str = view["track"]
    x, y, w, h = box
    info_h = max(30, h // 7)
    rows = 4
    per_row = -(-len(track) // rows)
    side = min((w - 8) // (per_row + 1), (h - info_h - 4) // rows)
    start = pygame.Rect(x, y, side - 2, side * rows - 2)
    origin = (x + side + 6, y)
    squares = [start] + [_serpentine(i, per_row, side, origin) for i in range(len(track))]
    _struggle_squares(renderer, track, squares, side)
    _struggle_pawns(renderer, view, squares, side, screen)
    info_y = y + side * rows + 4
    boxes_w = min(w // 2, info_h * 5)
    boxes = pygame.Rect(x + w - boxes_w, info_y, boxes_w, info_h)
    _struggle_boxes(renderer, view, boxes, side, screen.language)
    line = _struggle_hand_line(view, screen.language)
    renderer.label(line, (x, info_y, w - boxes_w - 8, info_h), renderer.layout.font - 2)


def _struggle_hand_line(view: dict[str, Any], language: str) -> str:
    """The hand; during a re-throw the dice kept and a "?" for each die thrown again (the old
    hand read as the dice being read)."""
    if view.get("phase") in ("reveal", "over"):  # the last hand is played: none to show
        return text(language, "board.hand", hand="—")
    hand, kept = list(view.get("hand") or []), list(view.get("kept") or [])
    if view.get("phase") == "roll" and view.get("throws"):
        thrown = " ".join("?" * (len(hand) - len(kept)))  # short: it fits 800x480's strip
        shown = f"{face_letters(language, kept)} + {thrown}".strip(" +")
        return text(language, "board.hand", hand=shown)
    return text(language, "board.hand", hand=face_letters(language, hand) or "—")


def _serpentine(index: int, columns: int, side: int, origin: tuple[int, int]) -> pygame.Rect:
    row, column = divmod(index, columns)
    if row % 2:
        column = columns - 1 - column
    return pygame.Rect(origin[0] + column * side, origin[1] + row * side, side - 2, side - 2)


def _struggle_squares(
    renderer: Canvas, track: str, positions: list[pygame.Rect], side: int
) -> None:
    surface = renderer.surface
    pygame.draw.rect(surface, palette.PANEL_LIGHT, positions[0], border_radius=4)
    for number, colour in enumerate(track, start=1):
        rect = positions[number]
        pygame.draw.rect(surface, palette.TRACK_COLOURS[colour], rect, border_radius=4)
        ink = palette.BLACK if colour == "Y" else palette.WHITE
        renderer.label(str(number), rect, max(MIN_TEXT, side // 3), ink, "center")


def _pawn(renderer: Canvas, pawn: str, center: tuple[int, int], radius: int, language: str) -> None:
    fill, ink = palette.STRUGGLE_PAWNS[pawn]
    pygame.draw.circle(renderer.surface, palette.WHITE, center, radius + 2)
    pygame.draw.circle(renderer.surface, fill, center, radius)
    box = (center[0] - radius - 2, center[1] - radius, 2 * radius + 4, 2 * radius)
    letter = face_letter(language, pawn)
    renderer.label(letter, box, max(MIN_TEXT, int(radius * 1.1)), ink, "center")


def _struggle_pawns(
    renderer: Canvas, view: dict[str, Any], positions: list[pygame.Rect], side: int,
    screen: Screen,
) -> None:  # fmt: skip
    squares: dict[str, int] = view.get("squares", {})
    radius = max(11, int(side * 0.42))
    start = positions[0]
    at_start = [p for p in STRUGGLE_ORDER if squares.get(p) == 0]
    step = start.h // 5
    centres = {p: positions[s].center for p, s in squares.items() if s}
    for number, pawn in enumerate(at_start):
        centres[pawn] = (start.centerx, start.y + step // 2 + number * step)
    preview = screen.preview or {}
    rings: list[tuple[pygame.Rect, str]] = []
    for shown in [preview] + list(preview.get("options") or []):
        for pawn, square in (shown.get("squares") or {}).items():
            if square:
                _ghost(renderer, positions[square].center, radius)
                rings.append((positions[square], mark_id(f"pawn:{pawn}", square)))
    stacked = max(11, min(radius, step // 2 - 2))  # the start's pawns, one above the other
    for pawn, centre in centres.items():
        size = radius if squares.get(pawn) else stacked
        _pawn(renderer, pawn, centre, size, screen.language)
        piece = f"pawn:{pawn}"
        if piece in screen.selected:  # black and white: a yellow ring vanished on yellow squares
            pygame.draw.circle(renderer.surface, palette.BLACK, centre, size + 7, 5)
            pygame.draw.circle(renderer.surface, palette.WHITE, centre, size + 5, 3)
        if piece in screen.pieces or screen.name == "table":  # a touch on any pawn is answered
            touch = pygame.Rect(0, 0, 44, 44)
            touch.center = centre
            renderer.hits.append((touch, f"piece:{piece}"))
    _ring_hits(renderer, rings)


def _ring_hits(renderer: Canvas, rings: list[tuple[pygame.Rect, str]]) -> None:
    """Each ring showing where a move takes a pawn is touchable (over a pawn it stands on: a
    pawn to hit), a finger's size at least."""
    for rect, mark in rings:
        touch = pygame.Rect(0, 0, max(44, rect.w), max(44, rect.h))
        touch.center = rect.center
        renderer.hits.append((touch, f"piece:{mark}"))


def _ghost(renderer: Canvas, centre: tuple[int, int], radius: int) -> None:
    """Where a pawn would go: a yellow ring on the square."""
    pygame.draw.circle(renderer.surface, palette.BLACK, centre, radius + 3, 6)
    pygame.draw.circle(renderer.surface, palette.YELLOW, centre, radius + 2, 3)


def _struggle_boxes(
    renderer: Canvas, view: dict[str, Any], area: pygame.Rect, side: int, language: str
) -> None:
    boxes: dict[str, str] = view.get("boxes", {})
    by_box = {letter: pawn for pawn, letter in boxes.items()}
    width = area.w // 5
    for number, letter in enumerate("ABCDE"):
        rect = pygame.Rect(area.x + number * width, area.y, width - 2, area.h)
        pygame.draw.rect(renderer.surface, palette.PANEL_LIGHT, rect, border_radius=4)
        pawn = by_box.get(letter)
        if pawn:
            _pawn(renderer, pawn, rect.center, min(rect.w, rect.h) // 2 - 3, language)
        else:
            renderer.label(letter, rect, max(MIN_TEXT, rect.h // 2), palette.TEXT_DIM, "center")


# ----- Traverse ------------------------------------------------------------------------------


def draw_traverse(renderer: Canvas, view: dict[str, Any], box: Box, screen: Screen) -> None:
    x, y, w, h = box
    pawns = int(view.get("pawns", 10))
    axis = int(view.get("axis_length", pawns + 1))
    cells = pawns + 2
    lines = _traverse_lines(view, screen.language)
    alone = renderer.layout.board_alone  # the counts are in the players' boxes beside
    if alone:  # the grid at the bottom of its box, the dice played in the room above it
        side = min(w, h) // cells
        left, bottom = x + (w - side * cells) // 2, y + h
        above = (x, y, w, h - side * cells - 2)
        renderer.label(_traverse_dice(view, screen.language), above, renderer.layout.font - 2)
    else:
        info_w = _traverse_info_width(renderer, view, lines, box)
        side = min(h, w - info_w) // cells
        left, bottom = x, y + side * cells
    surface = renderer.surface

    def square(column: int, row: int) -> pygame.Rect:
        return pygame.Rect(left + column * side, bottom - (row + 1) * side, side - 1, side - 1)

    for column in range(1, pawns + 1):
        for row in range(1, pawns + 1):
            shade = (88, 96, 112) if (column + row) % 2 else (70, 76, 90)
            pygame.draw.rect(surface, shade, square(column, row))

    def place(colour: str, number: int, position: int) -> pygame.Rect:
        along = min(position, pawns + 1) if position < axis else pawns + 1
        return square(number, along) if colour == "red" else square(along, number)

    preview = screen.preview or {}
    ghosts = [preview] + list(preview.get("options") or [])
    rings: list[tuple[pygame.Rect, str]] = []
    for ghost in ghosts:
        colour = str(ghost.get("colour"))
        for number, position in (ghost.get("pawns") or {}).items():
            rect = place(colour, int(number), int(position))
            rings.append((rect, mark_id(f"pawn:{colour}{number}", position)))
    inks = {"red": (palette.VERMILLION, palette.WHITE), "white": (palette.WHITE, palette.BLACK)}
    occupied: set[tuple[int, int]] = set()
    for colour, (fill, ink) in inks.items():
        for number, position in enumerate(view.get(colour, []), start=1):
            rect = place(colour, number, position)
            occupied.add(rect.center)
            _traverse_pawn(renderer, rect, fill, ink, number)
            piece = f"pawn:{colour}{number}"
            if piece in screen.selected:
                pygame.draw.circle(surface, palette.YELLOW, rect.center, rect.w // 2 + 3, 3)
            if piece in screen.pieces or screen.name == "table":  # any pawn touched is answered
                touch = pygame.Rect(0, 0, 44, 44)
                touch.center = rect.center
                renderer.hits.append((touch, f"piece:{piece}"))
    for rect, _ in rings:  # drawn over the pawns: a hit's ring circles the pawn sent back
        _traverse_ring(renderer, rect, hit=rect.center in occupied)
    _ring_hits(renderer, rings)
    if alone:
        return
    info_x = left + side * cells + 10
    info = (info_x, y, x + w - info_x, h)
    _traverse_info(renderer, view, info, lines)


def _traverse_ring(renderer: Canvas, rect: pygame.Rect, hit: bool) -> None:
    """Where a move takes a pawn: a yellow ring in the square, around the pawn it would hit."""
    radius = max(4, rect.w // 2) + (4 if hit else 0)
    if hit:  # dark under the yellow: it stands out from the hit pawn's own rim
        pygame.draw.circle(renderer.surface, palette.BLACK, rect.center, radius + 1, 5)
    pygame.draw.circle(renderer.surface, palette.YELLOW, rect.center, radius, 3)


def _traverse_pawn(
    renderer: Canvas, rect: pygame.Rect, fill: palette.Colour, ink: palette.Colour, number: int
) -> None:
    radius = max(3, rect.w // 2 - 1)
    pygame.draw.circle(renderer.surface, palette.BLACK, rect.center, radius + 1)
    pygame.draw.circle(renderer.surface, fill, rect.center, radius)
    if rect.w >= 20:  # the number only where it can be read (16 px and more)
        digits = len(str(number))
        size = min(rect.w - 6, 2 * rect.w // (digits + 1))  # "10" inside its disc too
        renderer.label(str(number), rect.inflate(4, 0), max(MIN_TEXT, size), ink, "center")


def _traverse_lines(view: dict[str, Any], language: str) -> list[tuple[str, palette.Colour]]:
    """The pawns home per colour and, while they are played, the dice, in words."""
    home = view.get("home", [0, 0])
    lines = [
        (text(language, "board.red", n=home[0]), palette.VERMILLION),
        (text(language, "board.white", n=home[1]), palette.WHITE),
    ]
    dice = _traverse_dice(view, language)
    return lines + ([(dice, palette.TEXT)] if dice else [])


def _traverse_dice(view: dict[str, Any], language: str) -> str:
    """The dice while they are played (after a play its words say the dice; shown beside the
    next reading they read as stale dice), else nothing."""
    dice = " ".join(str(d) for d in view.get("dice", []))
    return text(language, "board.dice", dice=dice) if view.get("phase") == "play" and dice else ""


def draw_traverse_notes(renderer: Canvas, view: dict[str, Any], box: Box, language: str) -> int:
    """The last play in words at the top of `box` when the board stands alone (Traverse at
    800x480) and no dice are played (the moves take the whole of a narrow column; the camera
    picture, under these lines, is there when they are). Returns the height used."""
    x, y, w, h = box
    last = str(view.get("last_play_words") or "")
    if not last or _traverse_dice(view, language):
        return 0
    font = renderer.layout.font - 6
    return renderer.paragraph(last, (x + 4, y, w - 8, h // 2), font, palette.TEXT_DIM) + 4


def _traverse_info_width(renderer: Canvas, view: dict[str, Any], lines: list, box: Box) -> int:
    """The grid takes the height, the counts the rest: wider (a smaller grid) only when the
    last play would not fit the column whole."""
    _, _, w, h = box
    widest = max(renderer.font(MIN_TEXT).size(content)[0] for content, _ in lines) + 4
    least = min(w // 2, max(96, w - h, widest))
    last = str(view.get("last_play_words") or "")
    if not last:
        return least
    for info_w in range(least, w // 2, 12):
        room = _traverse_last_box((0, 0, info_w - 10, h))
        size, wrapped = renderer.fit_lines(last, room, renderer.layout.font - 6)
        if len(wrapped) * renderer.font(size).get_linesize() <= room[3]:
            return info_w
    return w // 2


def _traverse_last_box(info: Box) -> Box:
    """Where the last play goes in the info column: under the three lines of counts."""
    x, y, w, h = info
    top = y + 3 * _traverse_line_height(h) + 8
    return (x, top, w, y + h - top)


def _traverse_line_height(info_h: int) -> int:
    return min(30, info_h // 5)


def _traverse_info(renderer: Canvas, view: dict[str, Any], box: Box, lines: list) -> None:
    x, y, w, h = box
    last = str(view.get("last_play_words") or "")
    line_h = _traverse_line_height(h)
    for number, (content, colour) in enumerate(lines):
        renderer.label(
            content, (x, y + number * line_h, w, line_h), renderer.layout.font - 2, colour
        )
    if last:
        renderer.paragraph(last, _traverse_last_box(box), renderer.layout.font - 6,
                           palette.TEXT_DIM)  # fmt: skip


# ----- Sequence ------------------------------------------------------------------------------


def draw_sequence(renderer: Canvas, view: dict[str, Any], box: Box, screen: Screen) -> None:
    """The 10x10 board with its coordinates (letters above, numbers left), as messages name
    squares; squares are touchable while a card is typed or when moves involve them."""
    x, y, w, h = box
    margin = 22  # the coordinates' strip
    cards: list[list[str]] = view["cards"]
    chips: list[list[int | None]] = view["chips"]
    colours = [_team_colour(name, i) for i, name in enumerate(view.get("team_colours", []))]
    side = min(w - margin, h - margin) // 10
    left = x + margin + (w - margin - side * 10) // 2
    top = y + margin
    last = view.get("last_square")
    made = {square for line in view.get("sequences") or [] for square in line["squares"]}
    marked = made | set((screen.preview or {}).get("squares") or [])  # a sequence keeps its mark
    for option in (screen.preview or {}).get("options") or []:
        marked |= set(option.get("squares") or [])
    touchable = screen.board_targets
    for column in range(10):
        letter_box = (left + column * side, y, side, margin)
        renderer.label("abcdefghij"[column], letter_box, MIN_TEXT, palette.TEXT_DIM, "center")
    for row in range(10):
        number_box = (left - margin - 2, top + row * side, margin, side)
        renderer.label(str(row + 1), number_box, MIN_TEXT, palette.TEXT_DIM, "center")
        for column in range(10):
            rect = pygame.Rect(left + column * side, top + row * side, side - 1, side - 1)
            name = f"{'abcdefghij'[column]}{row + 1}"
            _sequence_square(renderer, rect, cards[row][column], chips[row][column], colours,
                             name == last)  # fmt: skip
            if name in marked:
                pygame.draw.rect(renderer.surface, palette.YELLOW, rect, 4, border_radius=3)
            if touchable or f"square:{name}" in screen.pieces:
                renderer.hits.append((rect, f"square:{name}"))


def _team_colour(name: str, index: int) -> palette.Colour:
    fallback = palette.TEAM_FALLBACK[index % len(palette.TEAM_FALLBACK)]
    return palette.TEAM_COLOURS.get(name, fallback)


PAPER_MARGIN = 3  # pixels of bare card on each side of a Sequence square's label
PAPER = (236, 232, 220)


def _sequence_square(
    renderer: Canvas,
    rect: pygame.Rect,
    card: str,
    chip: int | None,
    colours: list[palette.Colour],
    last: bool,
) -> None:
    surface = renderer.surface
    pygame.draw.rect(surface, PAPER, rect, border_radius=3)
    if card == "XX":
        renderer.label("★", rect, max(MIN_TEXT, rect.h - 6), palette.ORANGE, "center")
    else:
        rank, suit = card[:-1], card[-1]
        ink = palette.VERMILLION if suit in RED_SUITS else palette.BLACK
        shown = ("10" if rank == "T" else rank) + SUIT_SYMBOLS.get(suit, suit)
        inside = rect.inflate(-2 * PAPER_MARGIN, 0)  # "10♣" beside "10♠" must not run together
        renderer.label(shown, inside, max(MIN_TEXT, rect.h // 2), ink, "center")
    if chip is not None:
        colour = colours[chip] if chip < len(colours) else palette.TEAM_FALLBACK[chip % 3]
        radius = rect.w // 2 - 2
        pygame.draw.circle(surface, colour, rect.center, radius)
        renderer.label(str(chip + 1), rect, max(MIN_TEXT, rect.h // 2), palette.WHITE, "center")
    if last:
        pygame.draw.rect(surface, palette.PURPLE, rect, 3, border_radius=3)


# ----- Stratégix -----------------------------------------------------------------------------


def draw_strategix(renderer: Canvas, view: dict[str, Any], box: Box, screen: Screen) -> None:
    x, y, w, h = box
    language = screen.language
    k = max(1.0, min(1.8, h / 290))  # the tall portrait panel: everything larger
    font = int(renderer.layout.font * min(k, 1.3))
    trick = view.get("trick") or {}
    top = trick.get("top") or {}
    number = max(1, view.get("round", 0))  # before the first lead: the first round, not 0
    round_text = text(language, "board.round", n=number, of=view.get("rounds", 0))
    renderer.label(round_text, (x, y, w, int(30 * k)), font, palette.TEXT_DIM)
    play = str(top.get("play", "")).removeprefix("play ")
    cards_y = y + int(36 * k)
    building = str(trick.get("building") or "")
    if view.get("phase") == "over":
        _round_points(renderer, view, (x, cards_y, w, y + h - cards_y), screen, font)
        return
    compact = bool(screen.hand) and k < 1.2  # the 7" landscape panel: room for a whole hand
    cards_y = y + 30 if compact else cards_y
    cards_h, said_h = (36, 18) if compact else (int(70 * k), int(26 * k))
    said_y = cards_y + cards_h + 2 if compact else cards_y + int(74 * k)
    if building:  # a formula of several groups being put together: shown as it grows
        _letter_cards(renderer, building + " +", (x, cards_y, w, cards_h), int(46 * k))
        said = _building_words(renderer, view, screen, (w, font - 4))
        renderer.label(said, (x, said_y, w, said_h), font - 4, palette.TEXT)
    elif play:
        petard_by = _petard_after(trick)
        shown = play + " !" if petard_by is not None else play  # the pétard laid on the play
        _letter_cards(renderer, shown, (x, cards_y, w, cards_h), int(46 * k))
        who = screen.scores[top["player"]][0] if top.get("player") is not None else ""
        if petard_by is not None:
            who = text(language, "board.petard_by", name=screen.scores[petard_by][0])
        renderer.label(who, (x, said_y, w, said_h), font - 4, palette.TEXT_DIM)
    else:
        exchanged = _exchange_words(view, screen)
        won = _last_trick(view, screen)
        if exchanged:
            renderer.paragraph(exchanged, (x, cards_y, w, said_y + said_h - cards_y), font - 4,
                               palette.TEXT)  # fmt: skip
        elif won:  # the trick just taken stays until the next lead: who took it, with what
            _letter_cards(renderer, won[0], (x, cards_y, w, cards_h), int(46 * k))
            renderer.label(won[1], (x, said_y, w, said_h), font - 4, palette.TEXT)
        else:
            empty = text(language, "board.new_trick")
            renderer.label(empty, (x, cards_y, w, cards_h), font, palette.TEXT_DIM, "center")
    line_y = said_y + said_h + 2 if compact else cards_y + int(110 * k)
    line_y = _card_counts(renderer, view, screen, (x, line_y, w, int(28 * k)), compact)
    if screen.hand and line_y + 24 <= y + h:
        hand_cards(renderer, screen.hand, (x, line_y + 2, w, y + h - line_y - 2), int(34 * k))


def _petard_after(trick: dict[str, Any]) -> int | None:
    """The seat that laid a pétard as the trick's last card, else None."""
    plays = trick.get("plays") or []
    if trick.get("after_petard") and plays and plays[-1][1] == "petard":
        return int(plays[-1][0])
    return None


def _last_trick(view: dict[str, Any], screen: Screen) -> tuple[str, str] | None:
    """The play that took the last trick and the words under it ("Robot takes the trick"),
    while the next trick has no play yet; None before any trick was taken."""
    last = view.get("last_trick") or {}
    plays = [(seat, play) for seat, play in last.get("plays") or [] if play.startswith("play ")]
    if not plays or (view.get("trick") or {}).get("plays") or view.get("phase") != "play":
        return None
    seat, play = plays[-1]
    winner = last.get("winner")
    names = [name for name, *_ in screen.scores]
    name = names[winner if winner is not None else seat]
    key = "board.trick_taken" if winner is not None else "board.trick_last"
    return play.removeprefix("play "), text(screen.language, key, name=name)


def _card_counts(
    renderer: Canvas, view: dict[str, Any], screen: Screen, line: Box, compact: bool
) -> int:
    """How many cards each player holds, a line each (compact: tighter, two players on one
    line); returns where the lines end."""
    x, y, w, line_h = line
    counts = view.get("hand_counts", [])
    if not any(counts):
        return y  # nothing dealt yet: no "0 cards" for everyone
    passed = (view.get("trick") or {}).get("passed") or [False] * len(counts)
    columns = 2 if compact and len(counts) == 2 else 1  # two lines of four: a pass said whole
    line_h = 20 if compact else line_h
    size = renderer.layout.font - (6 if compact else 4)
    for seat, count in enumerate(counts):
        name = screen.scores[seat][0] if seat < len(screen.scores) else str(seat)
        key = "board.cards_passed" if seat < len(passed) and passed[seat] else "board.cards"
        colour = palette.PLAYER_COLOURS[seat % len(palette.PLAYER_COLOURS)]
        row, column = divmod(seat, columns)
        cell = (x + column * (w // columns), y + row * line_h, w // columns - 4, line_h - 2)
        rest = renderer.font(size).size(text(screen.language, key, name="", n=count))[0]
        name = renderer.shortened(name, cell[2] - rest, size)  # the count and a pass whole
        renderer.label(text(screen.language, key, name=name, n=count), cell, size, colour)
    return y + -(-len(counts) // columns) * line_h


def _round_points(
    renderer: Canvas, view: dict[str, Any], box: Box, screen: Screen, font: int
) -> None:
    """The game over: each round's points, then the totals."""
    x, y, w, h = box
    names = [name for name, _ in screen.scores]
    rows = [text(screen.language, "board.round_points", n=number + 1, points=_points_text(names,
             points)) for number, points in enumerate(view.get("round_points") or [])]  # fmt: skip
    rows.append(text(screen.language, "board.total_points",
                     points=_points_text(names, view.get("scores") or [])))  # fmt: skip
    line_h = min(int(font * 2.6), h // max(1, len(rows)))  # room to wrap when names are long
    for number, row in enumerate(rows):
        colour = palette.TEXT if number == len(rows) - 1 else palette.TEXT_DIM
        renderer.paragraph(row, (x, y + number * line_h, w, line_h - 2), font - 4, colour)


def _points_text(names: list[str], points: list[int]) -> str:
    return ", ".join(f"{name} {signed(p)}" for name, p in zip(names, points, strict=False))


def _building_words(
    renderer: Canvas, view: dict[str, Any], screen: Screen, room: tuple[int, int]
) -> str:
    """Who is putting a formula together and the formula to beat; when that is too long for
    the line (the 7" landscape panel), the formula to beat alone: it is not on the board."""
    current = view.get("current")
    name = screen.scores[current][0] if isinstance(current, int) else ""
    top = str(((view.get("trick") or {}).get("top") or {}).get("play", "")).removeprefix("play ")
    if not top:
        return text(screen.language, "board.building", name=name)
    beaten = top.replace("*=", "★")
    whole = text(screen.language, "board.building_over", name=name, top=beaten)
    width, size = room
    if renderer.font(size).size(whole)[0] <= width:
        return whole
    return text(screen.language, "board.to_beat", top=beaten)


def _exchange_words(view: dict[str, Any], screen: Screen) -> str:
    """The cards exchanged (R11), before the round's first lead, to the players who gave them."""
    exchange, seen = view.get("exchange") or {}, view.get("seen") or {}
    played = seen.get("stars") or seen.get("petards") or any((seen.get("letters") or {}).values())
    best, worst = exchange.get("given_by_padbolix"), exchange.get("given_by_dubolix")
    if played or not best or not worst:
        return ""
    names = [name for name, _ in screen.scores]
    return text(screen.language, "board.exchanged", padbolix=names[exchange["padbolix"]],
                dubolix=names[exchange["dubolix"]], best=_card_word(best, screen.language),
                worst=_card_word(worst, screen.language))  # fmt: skip


def _card_word(card: str, language: str) -> str:
    return {"!": text(language, "petard"), "*": "★"}.get(card, card)


def _letter_cards(renderer: Canvas, play: str, box: Box, widest: int = 46) -> None:
    x, y, w, h = box
    tokens = play.split()
    count = max(1, len(tokens))
    width = min(widest, w // count)
    for number, token in enumerate(tokens):
        rect = pygame.Rect(x + number * width, y, width - 4, h)
        if token == "+":
            renderer.label("+", rect, 30, palette.TEXT_DIM, "center")
            continue
        if token == "!":
            _petard_card(renderer, rect)
            continue
        pygame.draw.rect(renderer.surface, CARD_FACE, rect, border_radius=5)
        shown = token.replace("*=", "★")
        colour = palette.ORANGE if token.startswith("*") else palette.BLACK
        renderer.label(shown, rect, min(h - 8, int(width * 0.75)), colour, "center")


TOUCHABLE = ("normal", "selected")  # a hand card's styles that a touch reaches


def hand_cards(renderer: Canvas, hand: list[Target], box: Box, largest: int = 34) -> int:
    """A hand as cards, each touchable unless dim ("disabled": no move lays it now), lit when
    touched; returns the height used. Letters, ★ stars, pétards as bursts, playing cards as
    rank and suit; a "gap" (a card laid in a formula under way) left empty, so the others keep
    their place; "lit" as selected, not touchable (the review's boards). Every card keeps a
    finger's least size (44 px), on more rows: the hand keeps its size and places whether or
    not a card can be touched now."""
    x, y, w, h = box
    touchable = any(card.style in TOUCHABLE for card in hand)
    side = max(largest, CARD_TOUCH + 1)
    per_row = max(1, min(len(hand), 12, w // side))
    rows = -(-len(hand) // per_row)
    width = min(side, w // per_row)
    height = min(max(largest, side - 1), (h - 2 * (rows - 1)) // rows)
    for number, card in enumerate(hand):
        row, column = divmod(number, per_row)
        rect = pygame.Rect(x + column * width, y + row * (height + 2), width - 1, height)
        if card.style == "gap":
            continue
        _card(renderer, card.label, rect, card.style == "disabled" and touchable)
        if card.style in ("selected", "lit"):
            pygame.draw.rect(renderer.surface, palette.YELLOW, rect, 4, border_radius=4)
        if card.style in TOUCHABLE:
            renderer.hits.append((rect, card.id))
    return rows * (height + 2)


def _card(renderer: Canvas, card: str, rect: pygame.Rect, dim: bool) -> None:
    if card == "!":
        _petard_card(renderer, rect)
    else:
        pygame.draw.rect(renderer.surface, CARD_FACE, rect, border_radius=4)
        ink, shown = _card_ink(card)
        renderer.label(shown, rect.inflate(-4, 0), max(MIN_TEXT, rect.h - 8), ink, "center")
    if dim:  # a card no move lays now: greyed, as a disabled button
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        shade.fill((*palette.BACKGROUND, 150))
        renderer.surface.blit(shade, rect.topleft)


def _card_ink(card: str) -> tuple[palette.Colour, str]:
    """A card's words and ink: ★ for a star, "10♥" for a playing card, else the letter."""
    if card == "*":
        return palette.ORANGE, "★"
    if len(card) == 2 and card[1] in SUIT_SYMBOLS:
        rank = "10" if card[0] == "T" else card[0]
        ink = palette.VERMILLION if card[1] in RED_SUITS else palette.BLACK
        return ink, rank + SUIT_SYMBOLS[card[1]]
    return palette.BLACK, card


def _petard_card(renderer: Canvas, rect: pygame.Rect) -> None:
    """A pétard: a dark card with a yellow burst and "!", not a letter (an orange "P" was read
    as the letter P beside it)."""
    pygame.draw.rect(renderer.surface, palette.BLACK, rect, border_radius=4)
    pygame.draw.rect(renderer.surface, palette.VERMILLION, rect, 2, border_radius=4)
    centre, outer = rect.center, min(rect.w, rect.h) * 0.46
    points = []
    for corner in range(16):
        radius = outer if corner % 2 == 0 else outer * 0.55
        angle = math.pi * corner / 8
        points.append((centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)))
    pygame.draw.polygon(renderer.surface, palette.YELLOW, points)
    renderer.label("!", rect, max(12, rect.h - 12), palette.BLACK, "center")


# ----- Le Roudalon --------------------------------------------------------------------------


def draw_roudalon(renderer: Canvas, view: dict[str, Any], box: Box, screen: Screen) -> None:
    """The pot in the middle-left, then one line per player: dice held, stake, alliance."""
    x, y, w, h = box
    language = screen.language
    font = renderer.layout.font
    pot_w = min(w // 3, h)
    pot = pygame.Rect(x, y, pot_w, min(pot_w, h - 30))
    pygame.draw.ellipse(renderer.surface, palette.ORANGE, pot)
    renderer.label(f"{view.get('pot', 0)}", pot.inflate(-10, -pot.h // 3), font + 18,
                   palette.BLACK, "center")  # fmt: skip
    pot_box = (x, pot.bottom + 2, pot_w, 26)
    renderer.label(text(language, "board.pot"), pot_box, font - 6, palette.TEXT_DIM, "center")
    players = view.get("players") or [name for name, _ in screen.scores]
    held, staked = view.get("held", []), view.get("staked", [])
    alliance = set(view.get("alliance") or [])
    line_x, line_w = x + pot_w + 10, w - pot_w - 10
    line_h = min(34, h // max(1, len(players) + 1))
    for seat, name in enumerate(players):
        line_y = y + seat * line_h
        colour = palette.PLAYER_COLOURS[seat % len(palette.PLAYER_COLOURS)]
        if seat == view.get("current"):
            pygame.draw.rect(renderer.surface, palette.PANEL_LIGHT, (line_x - 4, line_y, line_w + 4,
                             line_h - 2), border_radius=6)  # fmt: skip
        dice_count = held[seat] if seat < len(held) else 0
        for number in range(2):
            die = pygame.Rect(line_x + number * (line_h - 4), line_y + 4, line_h - 10, line_h - 10)
            fill = palette.WHITE if number < dice_count else palette.PANEL
            pygame.draw.rect(renderer.surface, fill, die, border_radius=4)
            pygame.draw.rect(renderer.surface, palette.TEXT_DIM, die, 1, border_radius=4)
        ally = " ★" if seat in alliance and len(alliance) > 1 else ""
        stake = staked[seat] if seat < len(staked) else 0
        text_x = line_x + 2 * line_h
        content = text(language, "board.staked", name=name, n=stake, ally=ally)
        renderer.label(
            content, (text_x, line_y, line_x + line_w - text_x, line_h), font - 4, colour
        )
    last = str(view.get("last_words") or "")
    if last:
        top = max(y + len(players) * line_h + 4, pot.bottom + 30)
        renderer.paragraph(last, (x, top, w, y + h - top), font - 6, palette.TEXT_DIM)


# ----- anything else: the view's simple values -----------------------------------------------


def draw_summary(renderer: Canvas, view: dict[str, Any], box: Box, screen: Screen) -> None:
    x, y, w, h = box
    line_h = max(24, renderer.layout.font)
    shown = 0
    for key, value in view.items():
        if key == "game" or isinstance(value, dict):
            continue
        if isinstance(value, list):
            if any(isinstance(v, list | dict) for v in value):
                continue
            value = " ".join(str(v) for v in value)
        if y + (shown + 1) * line_h > y + h:
            break
        content = text(screen.language, "field", name=key, value=value)
        renderer.label(content, (x, y + shown * line_h, w, line_h), renderer.layout.font - 4)
        shown += 1


DRAWERS = {
    "struggle": draw_struggle,
    "traverse": draw_traverse,
    "sequence": draw_sequence,
    "strategix": draw_strategix,
    "roudalon": draw_roudalon,
}

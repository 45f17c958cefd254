"""Colours: a dark, high-contrast theme and the Okabe–Ito set for anything that tells players apart.

Okabe & Ito's eight colours stay distinguishable with the common colour-vision deficiencies;
every chip and pawn also carries a letter or number, so colour is never the only cue.
"""

from __future__ import annotations

Colour = tuple[int, int, int]

BLACK: Colour = (0, 0, 0)
ORANGE: Colour = (230, 159, 0)
SKY_BLUE: Colour = (86, 180, 233)
GREEN: Colour = (0, 158, 115)
YELLOW: Colour = (240, 228, 66)
BLUE: Colour = (0, 114, 178)
VERMILLION: Colour = (213, 94, 0)
PURPLE: Colour = (204, 121, 167)
WHITE: Colour = (255, 255, 255)
CRIMSON: Colour = (160, 0, 60)

BACKGROUND: Colour = (24, 26, 32)
PANEL: Colour = (38, 42, 52)
PANEL_LIGHT: Colour = (58, 64, 78)
TEXT: Colour = (240, 240, 240)
TEXT_DIM: Colour = (170, 175, 185)
ERROR: Colour = VERMILLION
OK: Colour = GREEN

BUTTON_STYLES: dict[str, tuple[Colour, Colour]] = {  # style -> (fill, text)
    "normal": ((70, 78, 96), TEXT),
    "primary": (BLUE, WHITE),
    "danger": ((120, 50, 30), WHITE),
    "selected": (ORANGE, BLACK),
    "quiet": ((48, 53, 64), TEXT_DIM),
    "disabled": ((32, 35, 43), (96, 100, 110)),  # a control that does nothing now
}

# Struggle pawns (RULINGS Struggle 1: 9 of spades, 10 of diamonds, black jack, blue queen, red
# king). Two "black" and two "red" pawns would be confused, so each gets its own Okabe–Ito
# shade of that family, and its letter. Neither red one is the red squares' vermillion, nor the
# ten orange: a pawn must stand out on the yellow and red squares it stands on.
STRUGGLE_PAWNS: dict[str, tuple[Colour, Colour]] = {  # pawn -> (fill, letter)
    "9": (BLACK, WHITE),
    "10": (PURPLE, BLACK),
    "J": ((110, 110, 110), WHITE),
    "Q": (BLUE, WHITE),
    "K": (CRIMSON, WHITE),
}
TRACK_COLOURS: dict[str, Colour] = {"Y": YELLOW, "R": VERMILLION, "B": (20, 20, 20)}

TEAM_COLOURS: dict[str, Colour] = {"blue": BLUE, "green": GREEN, "red": VERMILLION}
TEAM_FALLBACK: tuple[Colour, ...] = (BLUE, GREEN, VERMILLION)
PLAYER_COLOURS: tuple[Colour, ...] = (BLUE, ORANGE, GREEN, PURPLE, SKY_BLUE, VERMILLION)

DIE_OK: Colour = GREEN
DIE_UNREAD: Colour = VERMILLION
DIE_UNSURE: Colour = ORANGE  # amber: a best guess waiting for a player's touch
DIE_CORRECTED: Colour = SKY_BLUE
DIE_SELECTED: Colour = YELLOW

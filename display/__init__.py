"""The touch display (pygame-ce). pygame's greeting banner is kept off the console."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

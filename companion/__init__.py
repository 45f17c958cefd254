"""The companion app. pygame's greeting banner is kept off `tabletop` output."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

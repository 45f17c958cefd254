"""The companion app. pygame's greeting banner is kept off `tabletop` output, and numpy's BLAS
works on one thread (set before numpy is first imported)."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The reader's matrix products are small (a tray's crops against a few hundred examples): BLAS
# threads cost more than they save, and fight the kiosk's own loop. On the busy 2-core
# development machine they made such a product 10-20 times slower (0.09 -> 1.5 ms), and a poker
# tray read with a table's examples 90 ms instead of 15. A user's own setting stands.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

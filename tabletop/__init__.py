"""The `tabletop` command line: one sub-command per module in tabletop.commands, over the app
(companion), the club server (club) and the benchmarks (bench).

companion is imported first: it sets the process up (pygame's banner off, one BLAS thread)
before any command brings numpy in."""

import companion  # noqa: F401

"""kifu: read, validate and analyse shogi game records from Python.

Every function calls the kifu Rust library (the same reader, validator,
statistics and batch runner as the ``kifu`` command); the GIL is released
while it works. See docs/python.md.

>>> import kifu
>>> [g] = kifu.read(b"PI\\n+\\n+7776FU\\n-3334FU\\n%TORYO\\n")
>>> g.moves, g.result.outcome
(['7g7f', '3c3d'], 'gote_win')
"""

from ._kifu import (
    Finding,
    Game,
    GameResult,
    Report,
    StatsStream,
    __version__,
    discover,
    read,
    stats,
    validate,
)

__all__ = [
    "Finding",
    "Game",
    "GameResult",
    "Report",
    "StatsStream",
    "__version__",
    "discover",
    "read",
    "stats",
    "validate",
]

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
from . import _kifu

Buffer = _kifu.Buffer


def position_dtype(fmt="hcpe"):
    """The numpy dtype of a record of ``fmt`` (``hcpe``, ``psv``): cshogi's
    ``HuffmanCodedPosAndEval`` and ``PackedSfenValue``, field for field."""
    import numpy as np

    return np.dtype([
        (name, dtype, (count,)) if count > 1 else (name, dtype)
        for name, dtype, count in _kifu.position_fields(fmt)
    ])


def positions(paths, *, fmt="hcpe", jobs=None, ext=None, format=None,
              preset=None, endings=None, min_plies=None, min_rating=None,
              require_eval=False):
    """Training positions of every game under ``paths`` as a numpy array of
    records with cshogi's dtype (``fmt="hcpe"``: HuffmanCodedPosAndEval,
    ``"psv"``: PackedSfenValue): the bytes ``kifu export --to FMT`` writes
    with the same filters (``preset="dlshogi"``, ``endings``,
    ``min_plies``, ``min_rating``, ``require_eval``), in input order at any
    ``jobs``. The array views the buffer the library wrote (no copy;
    ``array.base`` keeps it)."""
    import numpy as np

    buf = _kifu.positions_buffer(
        paths, fmt=fmt, jobs=jobs, ext=ext, format=format, preset=preset,
        endings=endings, min_plies=min_plies, min_rating=min_rating,
        require_eval=require_eval,
    )
    return np.frombuffer(buf, dtype=position_dtype(fmt))


__all__ = [
    "Buffer",
    "Finding",
    "Game",
    "GameResult",
    "Report",
    "StatsStream",
    "__version__",
    "discover",
    "position_dtype",
    "positions",
    "read",
    "stats",
    "validate",
]

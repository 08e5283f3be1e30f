"""Type stubs of the kifu package (see docs/python.md)."""

from typing import Literal

import numpy as np
import numpy.typing as npt

from ._kifu import (
    Buffer as Buffer,
    Finding as Finding,
    Game as Game,
    GameResult as GameResult,
    Paths,
    Report as Report,
    StatsStream as StatsStream,
    FormatName,
    __version__ as __version__,
    discover as discover,
    read as read,
    stats as stats,
    validate as validate,
)

def position_dtype(fmt: Literal["hcpe", "psv"] = "hcpe") -> np.dtype[np.void]: ...
def positions(
    paths: Paths,
    *,
    fmt: Literal["hcpe", "psv"] = "hcpe",
    jobs: int | None = None,
    ext: list[str] | None = None,
    format: FormatName | None = None,
    preset: Literal["dlshogi"] | None = None,
    endings: list[str] | None = None,
    min_plies: int | None = None,
    min_rating: float | None = None,
    require_eval: bool = False,
) -> npt.NDArray[np.void]: ...

"""Type stubs of the extension module (see docs/python.md)."""

import os
from collections.abc import Iterable
from typing import Any, Literal, final

StrPath = str | os.PathLike[str]
# A path for the batch functions; bytes name a file as the system does.
PathArg = StrPath | bytes | os.PathLike[bytes]
Paths = PathArg | Iterable[PathArg]
FormatName = Literal["kif", "ki2", "csa", "psn", "jkf", "usi"]

__version__: str

@final
class Finding:
    """A problem the reader or the validator met."""

    rule: str
    severity: Literal["error", "warning"]
    message: str
    line: int
    column: int
    ply: int | None
    move: str | None
    sfen: str | None
    def __init__(
        self,
        rule: str,
        severity: str,
        message: str,
        line: int,
        column: int,
        ply: int | None = None,
        move: str | None = None,
        sfen: str | None = None,
    ) -> None: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class GameResult:
    """How a game ended, as the validator decides it."""

    outcome: Literal["sente_win", "gote_win", "draw", "aborted", "unknown"]
    winner: Literal["sente", "gote"] | None
    reason: str | None
    terminal_text: str | None
    def __init__(
        self,
        outcome: str,
        winner: str | None = None,
        reason: str | None = None,
        terminal_text: str | None = None,
    ) -> None: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class Game:
    """One game read and validated by kifu.read."""

    @property
    def index(self) -> int: ...
    @property
    def format(self) -> FormatName: ...
    @property
    def encoding(self) -> str: ...
    @property
    def header(self) -> dict[str, str]: ...
    @property
    def header_entries(self) -> list[tuple[str, str]]: ...
    @property
    def start_sfen(self) -> str: ...
    @property
    def variant(self) -> Literal["standard", "minishogi", "doubutsu"]: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def plies(self) -> int: ...
    @property
    def ok(self) -> bool: ...
    @property
    def final_sfen(self) -> str: ...
    @property
    def result(self) -> GameResult: ...
    @property
    def findings(self) -> list[Finding]: ...
    @property
    def game_key(self) -> str: ...
    def __len__(self) -> int: ...

@final
class Report:
    """The verdict on one game of kifu.validate (a line of
    ``kifu validate --format json``), or on an input not read."""

    path: str
    game: int
    format: FormatName | None
    encoding: str | None
    ok: bool
    plies: int
    final_sfen: str | None
    result: GameResult | None
    findings: list[Finding]
    game_key: str | None
    def __init__(
        self,
        path: str,
        game: int,
        format: str | None,
        encoding: str | None,
        ok: bool,
        plies: int,
        final_sfen: str | None,
        result: GameResult | None,
        findings: list[Finding],
        game_key: str | None,
    ) -> None: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class StatsStream:
    """The games table of kifu stats as an Arrow stream (read once)."""

    @property
    def columns(self) -> list[str]: ...
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> Any: ...

@final
class Buffer:
    """Bytes written by the library, lent through the buffer protocol."""

    def __len__(self) -> int: ...
    def __buffer__(self, flags: int, /) -> memoryview: ...

def position_fields(fmt: Literal["hcpe", "psv"]) -> list[tuple[str, str, int]]: ...
def positions_buffer(
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
) -> Buffer: ...
def read(
    source: StrPath | bytes | bytearray | memoryview,
    *,
    format: FormatName | None = None,
) -> list[Game]: ...
def discover(paths: Paths, *, ext: list[str] | None = None) -> list[str]: ...
def validate(
    paths: Paths,
    *,
    jobs: int | None = None,
    ext: list[str] | None = None,
    format: FormatName | None = None,
    lenient_claims: bool = False,
) -> list[Report]: ...
def stats(
    paths: Paths,
    *,
    jobs: int | None = None,
    ext: list[str] | None = None,
    format: FormatName | None = None,
    opening_plies: int = 16,
) -> StatsStream: ...

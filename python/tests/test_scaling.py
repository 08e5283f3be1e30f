"""docs/scaling.md: the Dask example, run as written on a LocalCluster with
worker processes; its combined output equals the command's (stats,
validate, export)."""

import io
import json
import re
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli

pa = pytest.importorskip("pyarrow")
pytest.importorskip("dask.distributed")
import pyarrow.csv as pacsv  # noqa: E402


def example():
    text = (ROOT / "docs" / "scaling.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    [code] = [b for b in blocks if b.startswith("# scaling_example.py")]
    return code


def test_dask_example_equals_the_cli(corpus, tmp_path):
    script = tmp_path / "scaling_example.py"
    script.write_text(example(), encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, str(script), str(corpus), str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    # Only paths came back: the parts, read in name order, are the outputs.
    import pyarrow.parquet as pq

    games = pa.concat_tables([pq.read_table(p) for p in sorted((out / "games").glob("part-*.parquet"))])
    want = pacsv.read_csv(io.BytesIO(run_cli("stats", corpus)),
                          convert_options=pacsv.ConvertOptions(column_types=games.schema))
    assert games.num_rows == want.num_rows > 300
    assert games.equals(want.cast(games.schema))
    text = "".join(p.read_text(encoding="utf-8") for p in sorted((out / "reports").glob("part-*.jsonl")))
    reports = [json.loads(line) for line in text.splitlines()]
    assert reports == [json.loads(line) for line in run_cli("validate", "--format", "json", corpus).splitlines()]
    cli = tmp_path / "cli.hcpe"
    run_cli("export", "--to", "hcpe", "-o", cli, corpus)
    train = b"".join(p.read_bytes() for p in sorted((out / "train").glob("part-*.hcpe")))
    assert len(train) > 300 * 80 * 38
    assert train == cli.read_bytes()

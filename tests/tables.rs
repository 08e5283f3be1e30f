//! Tables that load typed: the CSV column schemas in docs/schema match the
//! real output (names, order, types, allowed values), docs/stats.md lists
//! every column, dates come out in one ISO form, and the examples of
//! docs/stats.md load with the right types in pandas and DuckDB (from a
//! throwaway virtual environment). Runs on `tests/support/trials.rs`
//! (`harness = false`): without Python or network the pandas and DuckDB
//! test is reported `ignored`, with the reason.

use kifu::stats::{Column, ColumnType, GAME_COLUMNS, MOVE_COLUMNS, TAG_COLUMNS};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use trials::Skip;

#[path = "support/python.rs"]
mod python;
#[path = "support/trials.rs"]
mod trials;

fn main() {
    trials::main(
        tests![
            tables_match_their_column_schemas,
            docs_list_every_column,
            schemas_and_docs_follow_the_column_tables,
            the_duckdb_recipe_types_every_column_that_is_not_text,
            parquet_tables_have_the_rows_of_the_csv
        ]
        .into_iter()
        .chain(trials![
            the_tables_load_typed_in_pandas_and_duckdb,
            parquet_reads_back_typed_in_pyarrow_and_duckdb,
            the_duckdb_recipe_reads_the_corpus_typed
        ]),
    );
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run kifu")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn schema(name: &str) -> Value {
    let p = root().join("docs/schema").join(name);
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

/// Records with dates in many forms, times, an invalid game.
fn records(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut add = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        v.push(p);
    };
    add(
        "era.kifu",
        "開始日時：平成30年1月2日(火) 10:05\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:10/00:00:10)\n   2 ３四歩(33)   ( 0:05/00:00:05)\n",
    );
    add(
        "reiwa.kifu",
        "開始日時：令和5年\n手合割：平手\n   1 ７六歩(77)\n",
    );
    add(
        "feb30.kifu",
        "開始日時：2023/02/30\n手合割：平手\n   1 ７六歩(77)\n",
    );
    add(
        "dateonly.csa",
        "V2.2\n$START_TIME:2024/01/02\nPI\n+\n+7776FU\nT12\n-3334FU\nT3\n%TORYO\n",
    );
    add(
        "bad.csa",
        "V2.2\n$START_TIME:2024/01/02 10:00:00\nPI\n+\n+7776FU\n-3334FU\n+0055FU\n",
    );
    v
}

/// Checks one CSV table against its Table Schema.
fn check_table(csv_text: &str, schema: &Value) -> usize {
    let fields = schema["fields"].as_array().unwrap();
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(header, names, "the columns, in order");
    let mut rows = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        rows += 1;
        for (cell, f) in rec.iter().zip(fields) {
            let name = f["name"].as_str().unwrap();
            let c = &f["constraints"];
            if cell.is_empty() {
                assert_ne!(c["required"], true, "{name} is required: {rec:?}");
                continue;
            }
            let ok = match f["type"].as_str().unwrap() {
                "string" => true,
                "integer" => cell
                    .parse::<i64>()
                    .is_ok_and(|n| c["minimum"].as_i64().is_none_or(|m| n >= m)),
                "number" => cell
                    .parse::<f64>()
                    .is_ok_and(|n| n.is_finite() && c["minimum"].as_f64().is_none_or(|m| n >= m)),
                "boolean" => cell == "true" || cell == "false",
                "datetime" => {
                    // %Y-%m-%dT%H:%M:%S, and a real date and time.
                    cell.len() == 19 && cell.parse::<jiff_free::DateTime>().is_ok()
                }
                t => panic!("type {t}"),
            };
            assert!(ok, "{name}: {cell:?} is not a {}", f["type"]);
            if let Some(values) = c["enum"].as_array() {
                assert!(
                    values.iter().any(|v| v == cell),
                    "{name}: {cell:?} not in {values:?}"
                );
            }
        }
    }
    rows
}

/// A date-time check without a date crate in the tests.
mod jiff_free {
    pub struct DateTime;

    impl std::str::FromStr for DateTime {
        type Err = ();

        fn from_str(s: &str) -> Result<DateTime, ()> {
            let b = s.as_bytes();
            let num = |r: std::ops::Range<usize>| -> Result<u32, ()> {
                s.get(r).ok_or(())?.parse().map_err(|_| ())
            };
            if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || b.get(10) != Some(&b'T') {
                return Err(());
            }
            let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
            let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
            let days = [
                31,
                if leap { 29 } else { 28 },
                31,
                30,
                31,
                30,
                31,
                31,
                30,
                31,
                30,
                31,
            ];
            let ok = (1..=12).contains(&m)
                && d >= 1
                && d <= days[m as usize - 1]
                && hh < 24
                && mm < 60
                && ss < 60;
            ok.then_some(DateTime).ok_or(())
        }
    }
}

fn tables_match_their_column_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs: Vec<PathBuf> = records(dir.path());
    inputs.push(root().join("fixtures/examples"));
    inputs.push(root().join("fixtures/validate"));
    let moves = dir.path().join("moves.csv");
    let mut args = vec!["stats", "--moves", s(&moves), "--sfen"];
    args.extend(inputs.iter().map(|p| s(p)));
    let o = run(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let games = String::from_utf8(o.stdout).unwrap();
    let n = check_table(&games, &schema("stats-games.schema.json"));
    assert!(n > 50, "{n} games");
    let m = check_table(
        &std::fs::read_to_string(&moves).unwrap(),
        &schema("stats-moves.schema.json"),
    );
    assert!(m > 500, "{m} moves");
    // Dates: one form; era dates read; a date that does not exist kept raw.
    let mut r = csv::Reader::from_reader(games.as_bytes());
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let (path, st, raw, prec) = (
        col("path"),
        col("start_time"),
        col("start_time_raw"),
        col("start_time_precision"),
    );
    let rows: Vec<csv::StringRecord> = r.records().map(|r| r.unwrap()).collect();
    let row = |file: &str| rows.iter().find(|r| r[path].ends_with(file)).unwrap();
    let era = row("era.kifu");
    assert_eq!(
        (&era[st], &era[raw], &era[prec]),
        ("2018-01-02T10:05:00", "", "minute")
    );
    let reiwa = row("reiwa.kifu");
    assert_eq!((&reiwa[st], &reiwa[prec]), ("2023-01-01T00:00:00", "year"));
    let feb30 = row("feb30.kifu");
    assert_eq!(
        (&feb30[st], &feb30[raw], &feb30[prec]),
        ("", "2023/02/30", "")
    );
    let date = row("dateonly.csa");
    assert_eq!((&date[st], &date[prec]), ("2024-01-02T00:00:00", "day"));
}

fn docs_list_every_column() {
    let doc = std::fs::read_to_string(root().join("docs/stats.md")).unwrap();
    for name in ["stats-games.schema.json", "stats-moves.schema.json"] {
        for f in schema(name)["fields"].as_array().unwrap() {
            let col = f["name"].as_str().unwrap();
            assert!(
                doc.contains(&format!("`{col}`")),
                "docs/stats.md names `{col}`"
            );
        }
    }
}

/// The Table Schema of a column table: the schema file's fields are the
/// table's columns, in order, with its types and doc lines; a column that
/// may be empty is not `required`.
fn check_schema<R>(file: &str, table: &[Column<R>]) {
    let schema = schema(file);
    let fields = schema["fields"].as_array().unwrap();
    let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
    let want: Vec<&str> = table.iter().map(|c| c.name).collect();
    assert_eq!(names, want, "{file}: the columns, in order");
    for (f, c) in fields.iter().zip(table) {
        assert_eq!(f["type"], c.ty.table_schema(), "{file}: {}", c.name);
        assert_eq!(f["description"], c.doc, "{file}: {}", c.name);
        if c.nullable {
            assert_ne!(
                f["constraints"]["required"], true,
                "{file}: {} may be empty",
                c.name
            );
        }
        if c.ty == ColumnType::Timestamp {
            assert_eq!(f["format"], "%Y-%m-%dT%H:%M:%S", "{file}: {}", c.name);
        }
    }
}

/// The rows of the column list under `heading` in docs/stats.md: each
/// backquoted name of a row's first cell, with the row's type word.
fn doc_columns(doc: &str, heading: &str) -> Vec<(String, String)> {
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with(heading))
        .unwrap_or_else(|| panic!("docs/stats.md has a section {heading}"));
    let mut out = Vec::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        for name in cells[1].split(',') {
            let name = name.trim().trim_matches('`');
            out.push((name.to_string(), cells[2].to_string()));
        }
    }
    out
}

/// One declaration per column (`kifu::stats::GAME_COLUMNS`…): the schema
/// files and the column lists of docs/stats.md say the same.
fn schemas_and_docs_follow_the_column_tables() {
    check_schema("stats-games.schema.json", GAME_COLUMNS);
    check_schema("stats-moves.schema.json", MOVE_COLUMNS);
    let doc = std::fs::read_to_string(root().join("docs/stats.md")).unwrap();
    let games = doc_columns(&doc, "Games table");
    let want: Vec<(String, String)> = GAME_COLUMNS
        .iter()
        .map(|c| (c.name.to_string(), c.ty.doc_word().to_string()))
        .collect();
    assert_eq!(games, want, "docs/stats.md, games table");
    // The moves list begins with `path`, `game` "as above" (no type).
    let moves = doc_columns(&doc, "Moves table");
    let want: Vec<(String, String)> = MOVE_COLUMNS
        .iter()
        .map(|c| {
            let ty = if c.name == "path" || c.name == "game" {
                ""
            } else {
                c.ty.doc_word()
            };
            (c.name.to_string(), ty.to_string())
        })
        .collect();
    assert_eq!(moves, want, "docs/stats.md, moves table");
    // The names table is a sentence: its columns, in order.
    let names = doc
        .split("\n## ")
        .find(|s| s.starts_with("Names table"))
        .unwrap();
    let mut at = 0;
    for c in TAG_COLUMNS {
        let found = names[at..].find(&format!("`{}`", c.name));
        at += found.unwrap_or_else(|| panic!("docs/stats.md, names table: `{}` in order", c.name));
    }
}

/// The Python side of the test: the docs/stats.md examples, then the
/// types pandas and DuckDB give each column.
const PROBE: &str = r#"
import json, sys
import duckdb, pandas as pd
games_csv, moves_csv, empty_csv = sys.argv[1:4]
out = {"pandas": pd.__version__, "duckdb": duckdb.__version__}

# docs/stats.md, pandas, as written there.
games = pd.read_csv(games_csv, dtype={"first_error_ply": "Int64"},
                    parse_dates=["start_time"])
games.groupby("handicap")["result"].value_counts(normalize=True)
moves = pd.read_csv(moves_csv)
moves.groupby("side")["time_s"].describe()
out["pandas_games"] = {c: str(t) for c, t in games.dtypes.items()}
out["pandas_moves"] = {c: str(t) for c, t in moves.dtypes.items()}

# docs/stats.md, DuckDB, as written there.
con = duckdb.connect()
con.sql(f"SELECT handicap, result, count(*) FROM read_csv_auto('{games_csv}') GROUP BY ALL ORDER BY ALL").fetchall()
con.sql(f"SELECT avg(plies), median(plies) FROM read_csv_auto('{games_csv}') WHERE valid").fetchall()
def types(sql):
    return {r[0]: r[1] for r in con.sql("DESCRIBE " + sql).fetchall()}
out["duckdb_games"] = types(f"SELECT * FROM read_csv_auto('{games_csv}')")
out["duckdb_moves"] = types(f"SELECT * FROM read_csv_auto('{moves_csv}')")
# A table whose optional numeric columns are all empty, with the types
# docs/stats.md gives for that case.
out["duckdb_empty"] = types(f"SELECT * FROM read_csv('{empty_csv}', types={{'first_error_ply': 'BIGINT', 'sente_time_s': 'DOUBLE', 'gote_time_s': 'DOUBLE', 'start_time': 'TIMESTAMP'}})")
empty = pd.read_csv(empty_csv, dtype={"first_error_ply": "Int64", "sente_time_s": "float64", "gote_time_s": "float64"}, parse_dates=["start_time"])
out["pandas_empty"] = {c: str(t) for c, t in empty.dtypes.items()}
print(json.dumps(out))
"#;

fn the_tables_load_typed_in_pandas_and_duckdb() -> Result<(), Skip> {
    let python = trials::python("pandas", || {
        python::venv("tables", &["pandas>=3", "duckdb"])
    })?;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inputs = records(d);
    let (games, moves, empty) = (
        d.join("games.csv"),
        d.join("moves.csv"),
        d.join("empty.csv"),
    );
    let mut args = vec!["stats", "-o", s(&games), "--moves", s(&moves)];
    args.extend(inputs.iter().map(|p| s(p)));
    let examples = root().join("fixtures/examples");
    args.push(s(&examples));
    assert_eq!(run(&args).status.code(), Some(0));
    // Games without times, errors or dates: the optional columns are empty.
    let plain = d.join("plain.csa");
    std::fs::write(&plain, "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n").unwrap();
    assert_eq!(
        run(&["stats", "-o", s(&empty), s(&plain)]).status.code(),
        Some(0)
    );
    let probe = d.join("probe.py");
    std::fs::write(&probe, PROBE).unwrap();
    let o = Command::new(&python)
        .arg(&probe)
        .args([&games, &moves, &empty])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    eprintln!("pandas {} duckdb {}", v["pandas"], v["duckdb"]);
    assert!(v["pandas"].as_str().unwrap().starts_with('3'), "pandas 3.x");
    let pg = &v["pandas_games"];
    assert!(
        pg["start_time"].as_str().unwrap().starts_with("datetime64"),
        "{pg}"
    );
    assert_eq!(pg["plies"], "int64");
    assert_eq!(pg["valid"], "bool");
    assert_eq!(pg["first_error_ply"], "Int64");
    assert_eq!(pg["sente_time_s"], "float64");
    let pm = &v["pandas_moves"];
    assert_eq!(pm["time_s"], "float64");
    assert_eq!(pm["cumulative_s"], "float64");
    assert_eq!(pm["promote"], "bool");
    let dg = &v["duckdb_games"];
    assert_eq!(dg["start_time"], "TIMESTAMP", "{dg}");
    assert_eq!(dg["plies"], "BIGINT");
    assert_eq!(dg["valid"], "BOOLEAN");
    assert_eq!(dg["first_error_ply"], "BIGINT");
    assert_eq!(dg["sente_time_s"], "DOUBLE");
    let dm = &v["duckdb_moves"];
    assert_eq!(dm["time_s"], "DOUBLE", "{dm}");
    assert_eq!(dm["cumulative_s"], "DOUBLE");
    assert_eq!(dm["ply"], "BIGINT");
    let de = &v["duckdb_empty"];
    assert_eq!(de["first_error_ply"], "BIGINT", "{de}");
    assert_eq!(de["sente_time_s"], "DOUBLE");
    let pe = &v["pandas_empty"];
    assert_eq!(pe["first_error_ply"], "Int64", "{pe}");
    assert_eq!(pe["sente_time_s"], "float64");
    Ok(())
}

/// The DuckDB type of a column type.
fn duckdb_type(ty: ColumnType) -> &'static str {
    match ty {
        ColumnType::Text => "VARCHAR",
        ColumnType::Integer => "BIGINT",
        ColumnType::Float => "DOUBLE",
        ColumnType::Bool => "BOOLEAN",
        ColumnType::Timestamp => "TIMESTAMP",
    }
}

/// The DuckDB recipe of docs/stats.md (the block that creates the views
/// `games` and `moves`).
fn duckdb_recipe() -> String {
    let doc = std::fs::read_to_string(root().join("docs/stats.md")).unwrap();
    let at = doc
        .find("```sql\nCREATE VIEW games")
        .expect("docs/stats.md has the DuckDB recipe");
    let block = &doc[at + "```sql\n".len()..];
    block[..block.find("```").unwrap()].to_string()
}

/// The `types={…}` of the recipe's `read_csv('<file>', …)`.
fn recipe_types(recipe: &str, file: &str) -> Vec<(String, String)> {
    let at = recipe
        .find(&format!("read_csv('{file}'"))
        .unwrap_or_else(|| panic!("the recipe reads {file}"));
    let rest = &recipe[at..];
    let open = rest.find('{').unwrap();
    let close = rest.find('}').unwrap();
    rest[open + 1..close]
        .split(',')
        .map(|kv| {
            let (k, v) = kv.split_once(':').unwrap();
            let q = |s: &str| s.trim().trim_matches('\'').to_string();
            (q(k), q(v))
        })
        .collect()
}

/// docs/stats.md's DuckDB recipe gives every column that is not text its
/// type, from the column table (DuckDB's sniffer reads a column empty in
/// its sample as VARCHAR).
fn the_duckdb_recipe_types_every_column_that_is_not_text() {
    let recipe = duckdb_recipe();
    fn want<R>(table: &[Column<R>]) -> Vec<(String, String)> {
        table
            .iter()
            .filter(|c| c.ty != ColumnType::Text)
            .map(|c| (c.name.to_string(), duckdb_type(c.ty).to_string()))
            .collect()
    }
    assert_eq!(recipe_types(&recipe, "games.csv"), want(GAME_COLUMNS));
    assert_eq!(recipe_types(&recipe, "moves.csv"), want(MOVE_COLUMNS));
}

/// Records with ratings, ranks, times and evaluations.
fn rated_records(dir: &Path) -> Vec<PathBuf> {
    let mut v = records(dir);
    let p = dir.join("rated.csa");
    std::fs::write(
        &p,
        "V2\nN+alpha\nN-beta\n'black_rate:alpha+0123:3382.0\n'white_rate:beta+4567:3613.5\nPI\n+\n+7776FU,T3\n'** 45 -3334FU\n-3334FU,T2\n'** -30\n%TORYO\n",
    )
    .unwrap();
    v.push(p);
    let p = dir.join("wars.kif");
    std::fs::write(
        &p,
        "先手：amai[4D]\n後手：other[10K]\n手合割：平手\n   1 ７六歩(77)   ( 0:10/00:00:10)\n",
    )
    .unwrap();
    v.push(p);
    v
}

/// The three tables of a run in `format`: games, moves, names.
fn tables(dir: &Path, format: &str, inputs: &[PathBuf]) -> [PathBuf; 3] {
    let ext = if format == "csv" { "csv" } else { "parquet" };
    let out = [
        dir.join(format!("games.{ext}")),
        dir.join(format!("moves.{ext}")),
        dir.join(format!("names.{ext}")),
    ];
    let mut args = vec!["stats", "--format", format, "-o", s(&out[0])];
    args.extend(["--moves", s(&out[1]), "--tags", s(&out[2])]);
    args.extend(inputs.iter().map(|p| s(p)));
    let o = run(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// `--format parquet` writes Parquet files (magic bytes at both ends) of
/// the tables the CSV run writes, without a Python reader.
fn parquet_tables_have_the_rows_of_the_csv() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = rated_records(dir.path());
    inputs.push(root().join("fixtures/examples"));
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    for p in tables(&out, "parquet", &inputs) {
        let b = std::fs::read(&p).unwrap();
        assert!(
            b.len() > 8 && b.starts_with(b"PAR1") && b.ends_with(b"PAR1"),
            "{}",
            p.display()
        );
    }
    // The ratings and ranks, in the CSV.
    let csv = tables(&out, "csv", &inputs);
    let games = std::fs::read_to_string(&csv[0]).unwrap();
    let mut r = csv::Reader::from_reader(games.as_bytes());
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(|r| r.unwrap()).collect();
    let row = |file: &str| rows.iter().find(|r| r[0].ends_with(file)).unwrap();
    let rated = row("rated.csa");
    assert_eq!(
        (&rated[col("sente_rating")], &rated[col("gote_rating")]),
        ("3382.0", "3613.5")
    );
    let wars = row("wars.kif");
    assert_eq!(
        (&wars[col("sente_rank")], &wars[col("gote_rank")]),
        ("4D", "10K")
    );
    assert_eq!(&wars[col("sente")], "amai[4D]", "the name as written");
    assert_eq!(&wars[col("sente_rating")], "");
}

/// The Python side: every column's type in pyarrow and DuckDB, against
/// the column table.
const PARQUET_PROBE: &str = r#"
import json, sys
import duckdb, pyarrow.parquet as pq
out = {}
for name, path in zip(["games", "moves", "names"], sys.argv[1:4]):
    t = pq.read_table(path)
    out[name] = {
        "rows": t.num_rows,
        "pyarrow": [[f.name, str(f.type), f.nullable] for f in t.schema],
        "duckdb": [[r[0], r[1]] for r in duckdb.sql(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()],
    }
out["avg"] = duckdb.sql(f"SELECT avg(time_s), avg(eval) FROM read_parquet('{sys.argv[2]}')").fetchall()[0]
print(json.dumps(out))
"#;

fn parquet_reads_back_typed_in_pyarrow_and_duckdb() -> Result<(), Skip> {
    let python = trials::python("pyarrow", || {
        python::venv("parquet", &["pyarrow", "duckdb"])
    })?;
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = rated_records(dir.path());
    inputs.push(root().join("fixtures/examples"));
    let pq = tables(dir.path(), "parquet", &inputs);
    let csv = tables(dir.path(), "csv", &inputs);
    let probe = dir.path().join("probe.py");
    std::fs::write(&probe, PARQUET_PROBE).unwrap();
    let o = Command::new(&python)
        .arg(&probe)
        .args(&pq)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    fn check<R>(v: &Value, table: &[Column<R>], csv: &Path) {
        let arrow = |ty: ColumnType| match ty {
            ColumnType::Text => "string",
            ColumnType::Integer => "int64",
            ColumnType::Float => "double",
            ColumnType::Bool => "bool",
            // Parquet has no seconds: milliseconds, without a zone.
            ColumnType::Timestamp => "timestamp[ms]",
        };
        let got = v["pyarrow"].as_array().unwrap();
        assert_eq!(got.len(), table.len());
        for (g, c) in got.iter().zip(table) {
            assert_eq!(g[0], c.name);
            assert_eq!(g[1], arrow(c.ty), "pyarrow: {}", c.name);
            assert_eq!(g[2], c.nullable, "pyarrow nullability: {}", c.name);
        }
        let got = v["duckdb"].as_array().unwrap();
        for (g, c) in got.iter().zip(table) {
            assert_eq!(g[0], c.name);
            let ty = g[1].as_str().unwrap();
            assert_eq!(ty, duckdb_type(c.ty), "duckdb: {}", c.name);
        }
        let rows = csv::Reader::from_path(csv).unwrap().records().count();
        assert_eq!(v["rows"], rows, "the rows of {}", csv.display());
    }
    check(&v["games"], GAME_COLUMNS, &csv[0]);
    check(&v["moves"], MOVE_COLUMNS, &csv[1]);
    check(&v["names"], TAG_COLUMNS, &csv[2]);
    assert!(
        v["avg"][0].is_number() && v["avg"][1].is_number(),
        "{}",
        v["avg"]
    );
    Ok(())
}

/// The recipe on real data: a moves table of the whole corpus, where the
/// sniffer alone reads `time_s`, `eval`… as text.
const RECIPE_PROBE: &str = r#"
import json, sys
import duckdb
games_csv, moves_csv, recipe = sys.argv[1:4]
recipe = recipe.replace("'games.csv'", repr(games_csv)).replace("'moves.csv'", repr(moves_csv))
con = duckdb.connect()
for stmt in recipe.split(";"):
    if stmt.strip():
        con.sql(stmt)
out = {
    "games": {r[0]: r[1] for r in con.sql("DESCRIBE games").fetchall()},
    "moves": {r[0]: r[1] for r in con.sql("DESCRIBE moves").fetchall()},
    "avg": con.sql("SELECT avg(time_s), avg(cumulative_s), avg(eval), avg(mate), count(*) FROM moves").fetchall()[0],
    "sniffed": {r[0]: r[1] for r in con.sql(f"DESCRIBE SELECT * FROM read_csv_auto({moves_csv!r})").fetchall()},
}
print(json.dumps(out, default=str))
"#;

fn the_duckdb_recipe_reads_the_corpus_typed() -> Result<(), Skip> {
    let corpus = trials::corpus()?;
    let python = trials::python("duckdb", || python::venv("parquet", &["pyarrow", "duckdb"]))?;
    let dir = tempfile::tempdir().unwrap();
    let (games, moves) = (dir.path().join("games.csv"), dir.path().join("moves.csv"));
    let o = run(&[
        "stats",
        "--no-tags",
        "-o",
        s(&games),
        "--moves",
        s(&moves),
        s(&corpus),
    ]);
    assert!(
        games.exists() && moves.exists(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let probe = dir.path().join("probe.py");
    std::fs::write(&probe, RECIPE_PROBE).unwrap();
    let o = Command::new(&python)
        .arg(&probe)
        .args([s(&games), s(&moves), &duckdb_recipe()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    eprintln!("sniffed without the recipe: {}", v["sniffed"]);
    for c in MOVE_COLUMNS.iter().filter(|c| c.ty != ColumnType::Text) {
        assert_eq!(v["moves"][c.name], duckdb_type(c.ty), "moves.{}", c.name);
    }
    for c in GAME_COLUMNS.iter().filter(|c| c.ty != ColumnType::Text) {
        assert_eq!(v["games"][c.name], duckdb_type(c.ty), "games.{}", c.name);
    }
    assert!(v["avg"][4].as_u64().unwrap() > 100_000, "{}", v["avg"]);
    Ok(())
}

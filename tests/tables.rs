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
            schemas_and_docs_follow_the_column_tables
        ]
        .into_iter()
        .chain(trials![the_tables_load_typed_in_pandas_and_duckdb]),
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

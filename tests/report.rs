//! kifu in CI: SARIF checked against the official SARIF 2.1.0 schema (run
//! by `tests/report_sarif.rs`, which obtains the schema),
//! `--deny`/`--allow` in every output style with the exit codes that
//! follow, the GitHub `::notice` line and job summary, and the JSON output
//! checked against the schema published in docs/schema.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn kifu() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kifu"));
    c.env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null());
    c
}

fn run(args: &[&str]) -> Output {
    kifu().args(args).output().expect("run kifu")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A KIF game whose third move's cumulative time is wrong: one `time`
/// warning on line 5, column 6.
const TIME_WARNING: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:10/00:00:10)\n   2 ３四歩(33)   ( 0:05/00:00:05)\n   3 ２六歩(27)   ( 0:10/00:00:30)\n";

/// A CSA game with nifu on line 7 (ply 3).
const NIFU: &str = "V2.2\nP+59OU57FU00FU\nP-51OU\n+\n+5958OU\n-5141OU\n+0053FU\n";

struct Fixture {
    _dir: tempfile::TempDir,
    time: PathBuf,
    nifu: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let time = dir.path().join("time.kifu");
    let nifu = dir.path().join("nifu.csa");
    std::fs::write(&time, TIME_WARNING).unwrap();
    std::fs::write(&nifu, NIFU).unwrap();
    Fixture {
        _dir: dir,
        time,
        nifu,
    }
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("a valid schema")
}

fn assert_valid(v: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// A validator for the official SARIF schema. The published schema has a
/// `pattern` that is not a valid ECMA 262 regular expression
/// (`run.language`: `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`, an unmatched
/// `]`), which jsonschema refuses when it checks the schema itself; such a
/// pattern (kifu writes no `language`) is left out, and said so. Nothing
/// else is changed.
fn sarif_validator(mut schema: Value) -> jsonschema::Validator {
    for _ in 0..8 {
        match jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
        {
            Ok(v) => return v,
            Err(e) => {
                let at = e.instance_path().to_string();
                let is_bad_pattern = at.ends_with("/pattern")
                    && matches!(e.kind(), jsonschema::error::ValidationErrorKind::Format { format } if format == "regex");
                assert!(
                    is_bad_pattern,
                    "the SARIF schema does not load: {e} at {at}"
                );
                let parent = at.strip_suffix("/pattern").unwrap();
                let obj = schema.pointer_mut(parent).unwrap().as_object_mut().unwrap();
                let p = obj.remove("pattern").unwrap();
                eprintln!("note: left out the schema's invalid regex at {at}: {p}");
            }
        }
    }
    panic!("the SARIF schema does not load");
}

/// Every finding of a validate run, from its JSON output: (path, rule,
/// severity, line, column).
fn json_findings(args: &[&str]) -> Vec<(String, String, String, u64, u64)> {
    let mut a = vec!["validate", "--format", "json"];
    a.extend_from_slice(args);
    let o = run(&a);
    out(&o)
        .lines()
        .flat_map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let path = v["path"].as_str().unwrap().to_string();
            v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    (
                        path.clone(),
                        f["rule"].as_str().unwrap().to_string(),
                        f["severity"].as_str().unwrap().to_string(),
                        f["line"].as_u64().unwrap(),
                        f["column"].as_u64().unwrap(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

// ---- SARIF -----------------------------------------------------------------

/// SARIF output against the official SARIF 2.1.0 `schema`, which
/// `tests/report_sarif.rs` obtains (it is reported ignored without it).
pub fn sarif_validates_against_the_official_schema(schema: Value) {
    let v = sarif_validator(schema);
    let fx = fixture();
    let validate_dir = root().join("fixtures/validate");
    let args = [
        s(&validate_dir),
        s(&fx.time),
        "/nonexistent/kifu-missing.csa",
    ];
    let mut a = vec!["validate", "--format", "sarif"];
    a.extend_from_slice(&args);
    let o = run(&a);
    assert_eq!(o.status.code(), Some(2), "an unreadable input: exit 2");
    let doc: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    assert_valid(&v, &doc, "validate --format sarif");
    // The validator does refuse what SARIF does not allow.
    let mut bad = doc.clone();
    bad["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!v.is_valid(&bad), "a level SARIF does not have");
    let mut bad = doc.clone();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    assert!(!v.is_valid(&bad), "lines start at 1");

    let run0 = &doc["runs"][0];
    let driver = &run0["tool"]["driver"];
    assert_eq!(driver["name"], "kifu");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    // Every rule, with its description, in Rule::ALL order.
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let all: Vec<&str> = kifu::read::Rule::ALL.iter().map(|r| r.id()).collect();
    assert_eq!(ids, all);
    for (r, rule) in rules.iter().zip(kifu::read::Rule::ALL) {
        assert_eq!(r["shortDescription"]["text"], rule.description());
    }
    // One result per finding, at the same place, with its rule.
    let results = run0["results"].as_array().unwrap();
    let mut expected = json_findings(&args);
    expected.sort();
    let mut got: Vec<(String, String, String, u64, u64)> = results
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            let path = uri.strip_prefix("file://").unwrap_or(uri).to_string();
            let rule = r["ruleId"].as_str().unwrap().to_string();
            let index = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(ids[index], rule, "ruleIndex points at the rule");
            (
                path,
                rule,
                r["level"].as_str().unwrap().to_string(),
                loc["region"]["startLine"].as_u64().unwrap_or(0),
                loc["region"]["startColumn"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    got.sort();
    let expected: Vec<_> = expected
        .into_iter()
        .map(|(p, r, sev, l, c)| (p.replace(' ', "%20"), r, sev, l, c))
        .collect();
    assert_eq!(got, expected);
    assert!(got.iter().any(|f| f.1 == "time" && f.2 == "warning"));
    assert!(got.iter().any(|f| f.1 == "io" && f.2 == "error"));
    assert!(got.iter().any(|f| f.1 == "nifu" && f.3 > 0 && f.4 > 0));
    assert_eq!(run0["columnKind"], "unicodeCodePoints");

    // Relative paths are URIs against %SRCROOT%, the working directory.
    let o = kifu()
        .args([
            "validate",
            "--format",
            "sarif",
            "fixtures/validate/nifu.csa",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid(&v, &doc, "relative paths");
    let loc = &doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "fixtures/validate/nifu.csa");
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    let base = doc["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );

    // convert prints SARIF on standard error, notes in the invocation.
    let dir = tempfile::tempdir().unwrap();
    let o = run(&[
        "convert",
        s(&fx.nifu),
        s(&root().join("fixtures/examples/variations.jkf")),
        "--to",
        "csa",
        "--out-dir",
        s(dir.path()),
        "--diagnostics",
        "sarif",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let doc: Value = serde_json::from_slice(&o.stderr).expect("stderr is one SARIF document");
    assert_valid(&v, &doc, "convert --diagnostics sarif");
    let results = doc["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "nifu");
    let notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert!(
        notes.iter().any(|n| n["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("dropped:")),
        "{notes:?}"
    );
}

// ---- --deny and --allow ----------------------------------------------------

/// What a run reported about `rule`: `Some("error")`, `Some("warning")`
/// or `None`, read from the output of each style.
fn reported(format: &str, o: &Output, rule: &str) -> Option<String> {
    let text = out(o);
    let found = |level: &str| -> bool {
        match format {
            "human" => text.contains(&format!("{level}[{rule}]")),
            "github" => text.lines().any(|l| {
                l.starts_with(&format!("::{level} ")) && l.contains(&format!("title=kifu {rule}::"))
            }),
            "json" => text.lines().any(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                v["findings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|f| f["rule"] == rule && f["severity"] == level)
            }),
            "sarif" => {
                let v: Value = serde_json::from_str(&text).unwrap();
                v["runs"][0]["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|r| r["ruleId"] == rule && r["level"] == level)
            }
            _ => unreachable!(),
        }
    };
    ["error", "warning"]
        .into_iter()
        .find(|l| found(l))
        .map(str::to_string)
}

#[test]
fn deny_and_allow_in_every_format_and_the_exit_codes() {
    let fx = fixture();
    let time = s(&fx.time);
    let nifu = s(&fx.nifu);
    // (flags, input, rule, what is reported, exit code)
    type Case<'a> = (&'a [&'a str], &'a str, &'a str, Option<&'a str>, i32);
    let cases: &[Case] = &[
        (&[], time, "time", Some("warning"), 0),
        (&["--deny", "warnings"], time, "time", Some("error"), 1),
        (&["--deny", "time"], time, "time", Some("error"), 1),
        (&["--deny", "dialect"], time, "time", Some("warning"), 0),
        (&["--allow", "time"], time, "time", None, 0),
        (
            &["--deny", "warnings", "--allow", "time"],
            time,
            "time",
            None,
            0,
        ),
        (&[], nifu, "nifu", Some("error"), 1),
        (&["--allow", "nifu"], nifu, "nifu", None, 0),
        (&["--allow", "time"], nifu, "nifu", Some("error"), 1),
    ];
    for format in ["human", "json", "github", "sarif"] {
        for (flags, input, rule, want, code) in cases {
            let mut args = vec!["validate", "--format", format];
            args.extend_from_slice(flags);
            args.push(input);
            let o = run(&args);
            assert_eq!(
                o.status.code(),
                Some(*code),
                "{format} {flags:?} {input}: {}",
                err(&o)
            );
            assert_eq!(
                reported(format, &o, rule).as_deref(),
                *want,
                "{format} {flags:?} {input}: {}",
                out(&o)
            );
        }
    }
    // The JSON `ok` follows what is left.
    let o = run(&["validate", "--format", "json", "--allow", "nifu", nifu]);
    let v: Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(v["ok"], true);
    let o = run(&["validate", "--format", "json", "--deny", "warnings", time]);
    let v: Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(v["ok"], false);
    // The human summary counts what is left.
    let o = run(&["validate", "--deny", "warnings", time]);
    assert!(
        err(&o).contains("1 game in 1 file: 1 invalid, 0 warnings"),
        "{}",
        err(&o)
    );
    let o = run(&["validate", "--allow", "time", time]);
    assert!(
        err(&o).contains("1 game in 1 file: 0 invalid, 0 warnings"),
        "{}",
        err(&o)
    );
    // An unreadable input is an `io` error (2) unless allowed.
    let o = run(&["validate", "--allow", "io", "/nonexistent/x.csa", time]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(!err(&o).contains("error[io]"), "{}", err(&o));
}

#[test]
fn rule_ids_are_checked_before_anything_is_read() {
    for cmd in ["validate", "convert", "stats", "html"] {
        let mut args = vec![cmd, "--deny", "nifuu", "/nonexistent/x.csa"];
        if cmd == "convert" {
            args.extend_from_slice(&["--to", "csa"]);
        }
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let e = err(&o);
        assert!(e.contains("unknown rule `nifuu`"), "{cmd}: {e}");
        for r in kifu::read::Rule::ALL {
            assert!(e.contains(r.id()), "{cmd}: the valid ids are listed: {e}");
        }
        assert!(e.contains("warnings"), "{e}");
        assert!(!e.contains("error[io]"), "{cmd}: nothing read: {e}");
    }
    let o = run(&["validate", "--allow", "warnings", "x.csa"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["validate", "--deny", "nifu", "--allow", "nifu", "x.csa"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("both denied and allowed"), "{}", err(&o));
}

#[test]
fn convert_stats_and_html_follow_deny_and_allow() {
    let fx = fixture();
    let dir = tempfile::tempdir().unwrap();
    // convert: a warning does not stop a game, unless denied.
    let o = run(&["convert", s(&fx.time), "--to", "usi"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("7g7f 3c3d 2g2f"));
    let o = run(&["convert", s(&fx.time), "--to", "usi", "--deny", "warnings"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(out(&o).is_empty(), "a denied game is not converted");
    assert!(err(&o).contains("error[time]"), "{}", err(&o));
    // Every style of findings on standard error.
    for (style, needle) in [
        ("human", "error[time]"),
        ("github", "::error file="),
        ("json", "\"rule\":\"time\""),
        ("sarif", "\"ruleId\":\"time\""),
    ] {
        let o = run(&[
            "convert",
            s(&fx.time),
            "--to",
            "usi",
            "--deny",
            "time",
            "--diagnostics",
            style,
        ]);
        assert_eq!(o.status.code(), Some(1), "{style}");
        assert!(err(&o).contains(needle), "{style}: {}", err(&o));
    }
    // An allowed illegal move is neither printed nor counted.
    let o = run(&[
        "convert",
        s(&fx.nifu),
        "--to",
        "csa",
        "-o",
        s(&dir.path().join("n.csa")),
        "--allow",
        "nifu",
    ]);
    assert!(!err(&o).contains("nifu"), "{}", err(&o));
    // stats: the tables do not change; --diagnostics prints the findings.
    let plain = run(&["stats", s(&fx.time), s(&fx.nifu)]);
    let o = run(&[
        "stats",
        s(&fx.time),
        s(&fx.nifu),
        "--diagnostics",
        "json",
        "--deny",
        "warnings",
    ]);
    assert_eq!(o.status.code(), Some(0), "stats reports in its table");
    assert_eq!(out(&o), out(&plain));
    let lines: Vec<Value> = err(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{}", err(&o));
    assert_eq!(lines[0]["findings"][0]["rule"], "time");
    assert_eq!(lines[0]["findings"][0]["severity"], "error");
    assert_eq!(lines[1]["findings"][0]["rule"], "nifu");
    // With --summary, standard error still holds one SARIF document.
    let o = run(&[
        "stats",
        s(&fx.time),
        s(&fx.nifu),
        "--summary",
        "--diagnostics",
        "sarif",
    ]);
    let doc: Value = serde_json::from_slice(&o.stderr).expect("one SARIF document");
    assert_eq!(doc["runs"][0]["results"].as_array().unwrap().len(), 2);
    let notes = &doc["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert!(notes[0]["message"]["text"]
        .as_str()
        .unwrap()
        .contains("games"));
    let o = run(&[
        "stats",
        s(&fx.nifu),
        "--diagnostics",
        "human",
        "--allow",
        "nifu",
    ]);
    assert!(!err(&o).contains("nifu"), "{}", err(&o));
    // html: a denied warning stops the page.
    let o = run(&[
        "html",
        s(&fx.time),
        "-o",
        s(&dir.path().join("p.html")),
        "--deny",
        "warnings",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(!dir.path().join("p.html").exists());
}

// ---- GitHub ----------------------------------------------------------------

#[test]
fn github_format_ends_with_a_notice_and_writes_a_job_summary() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fx = fixture();
    // A record whose name and text try to add Markdown and HTML.
    let hostile = d.join("a|b <img src=x> [link](x) @team.csa");
    std::fs::write(&hostile, "V2.2\nPI\n+\n+0055FU\n").unwrap();
    let summary = d.join("summary.md");
    std::fs::write(&summary, "previous step\n").unwrap();
    let o = kifu()
        .args(["validate", "--format", "github"])
        .arg(root().join("fixtures/validate"))
        .arg(&fx.time)
        .arg(&hostile)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("::notice title=kifu validate::")
            && last.contains("invalid")
            && last.contains(" games in "),
        "{last}"
    );
    assert_eq!(text.matches("::notice").count(), 1);
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("previous step\n"), "appended, not replaced");
    assert!(md.contains("### kifu validate"), "{md}");
    // Counts per rule.
    assert!(md.contains("| rule | errors | warnings |"), "{md}");
    assert!(md.contains("| `nifu` | 1 | 0 |"), "{md}");
    assert!(md.contains("| `time` | 0 | 1 |"), "{md}");
    // The invalid games, with file, line, rule and message.
    assert!(md.contains("| file | line | rule | message |"), "{md}");
    assert!(
        md.lines()
            .any(|l| l.contains("nifu\\.csa") && l.contains("| `nifu` |")),
        "{md}"
    );
    // Nothing from a record becomes markup.
    assert!(!md.contains("<img"), "{md}");
    assert!(!md.contains("](x)"), "{md}");
    assert!(
        md.contains("a\\|b &lt;img src\\=x&gt; \\[link\\]\\(x\\)"),
        "{md}"
    );
    assert!(md.contains("\\@team"), "{md}");
    // Each table row has exactly the table's four cells.
    for l in md.lines().filter(|l| l.contains("\\.csa")) {
        let cells = l.replace("\\|", "").matches('|').count();
        assert_eq!(cells, 5, "{l}");
    }
    // No summary without the variable, and none for other styles.
    let o = kifu()
        .args(["validate", "--format", "json"])
        .arg(&fx.nifu)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), md);
}

#[test]
fn the_job_summary_lists_a_bounded_number_of_games() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..60 {
        std::fs::write(dir.path().join(format!("g{i:02}.csa")), NIFU).unwrap();
    }
    let summary = dir.path().join("summary.md");
    let o = kifu()
        .args(["validate", "--format", "github"])
        .arg(dir.path())
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(md.matches("| `nifu` |").count(), 50 + 1, "{md}");
    assert!(md.contains("…and 10 more invalid games."), "{md}");
    assert!(md.contains("| `nifu` | 60 | 0 |"), "{md}");
}

// ---- JSON schema -------------------------------------------------------------

#[test]
fn json_output_matches_the_published_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/schema/validate.schema.json")).unwrap(),
    )
    .unwrap();
    let v = validator(&schema);
    let fx = fixture();
    let o = run(&[
        "validate",
        "--format",
        "json",
        s(&root().join("fixtures/validate")),
        s(&root().join("fixtures/examples")),
        s(&fx.time),
        "/nonexistent/x.csa",
    ]);
    let mut n = 0;
    let mut rules = std::collections::BTreeSet::new();
    for line in out(&o).lines() {
        let doc: Value = serde_json::from_str(line).unwrap();
        assert_valid(&v, &doc, line);
        for f in doc["findings"].as_array().unwrap() {
            rules.insert(f["rule"].as_str().unwrap().to_string());
        }
        n += 1;
    }
    assert!(n > 40, "{n} objects");
    assert!(rules.len() > 15, "{rules:?}");
    // The diagnostics of convert: game objects and notes.
    let dir = tempfile::tempdir().unwrap();
    let o = run(&[
        "convert",
        s(&fx.nifu),
        s(&root().join("fixtures/examples/variations.jkf")),
        "--to",
        "csa",
        "--out-dir",
        s(dir.path()),
        "--diagnostics",
        "json",
    ]);
    let lines: Vec<Value> = err(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.iter().any(|l| l.get("note").is_some()), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.get("findings").is_some()),
        "{lines:?}"
    );
    for l in &lines {
        assert_valid(&v, l, &l.to_string());
    }
    // The schema is strict: a field it does not know is refused.
    let mut extra: Value = lines
        .iter()
        .find(|l| l.get("findings").is_some())
        .unwrap()
        .clone();
    extra["surprise"] = Value::Bool(true);
    assert!(!v.is_valid(&extra));
}

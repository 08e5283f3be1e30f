//! SARIF 2.1.0, written as the findings come (constant memory): the
//! header with every rule, one result per finding, then the invocation
//! with the notes that are not findings.

use super::describe;
use kifu::read::{Finding, Rule, Severity};
use serde_json::{json, Value};

/// The schema the document declares.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Notes kept for the invocation at most (the rest are counted).
const MAX_NOTES: usize = 1000;

/// The state of a SARIF document being written.
#[derive(Default)]
pub struct Sarif {
    results: u64,
    notes: Vec<Value>,
    notes_left_out: u64,
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// `path` as a URI reference: relative paths percent-encoded against
/// `%SRCROOT%` (the working directory), absolute ones as `file://` URIs;
/// `None` for standard input.
fn artifact(path: &str) -> Value {
    if path == "-" {
        return json!({"description": {"text": "standard input"}});
    }
    let p = std::path::Path::new(path);
    if p.is_absolute() {
        json!({"uri": format!("file://{}", encode(path))})
    } else {
        let rel = path.strip_prefix("./").unwrap_or(path);
        json!({"uri": encode(rel), "uriBaseId": "%SRCROOT%"})
    }
}

/// Percent-encodes everything but unreserved characters and `/`.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn location(path: &str, line: u32, column: u32) -> Value {
    let mut physical = json!({"artifactLocation": artifact(path)});
    if line > 0 {
        let mut region = json!({"startLine": line});
        if column > 0 {
            region["startColumn"] = json!(column);
        }
        physical["region"] = region;
    }
    json!({"physicalLocation": physical})
}

impl Sarif {
    /// The start of the document, up to the opening of `results`.
    pub fn header() -> String {
        let rules: Vec<Value> = Rule::ALL
            .iter()
            .map(|r| {
                json!({
                    "id": r.id(),
                    "shortDescription": {"text": r.description()},
                    "fullDescription": {"text": format!(
                        "{}. Rule `{}` of kifu validate; see docs/validate.md#rule-ids.",
                        r.description(), r.id())},
                    "defaultConfiguration": {"level": level(r.default_severity())},
                    "help": {"text": format!(
                        "{} (`--allow {}` hides it; `--deny {}` makes it an error).",
                        r.description(), r.id(), r.id())},
                })
            })
            .collect();
        let mut driver = json!({
            "name": "kifu",
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        });
        let uri = option_env!("CARGO_PKG_REPOSITORY")
            .filter(|s| !s.is_empty())
            .or(option_env!("CARGO_PKG_HOMEPAGE").filter(|s| !s.is_empty()));
        if let Some(uri) = uri {
            driver["informationUri"] = json!(uri);
        }
        let mut run = json!({
            "tool": {"driver": driver},
            "columnKind": "unicodeCodePoints",
        });
        if let Ok(cwd) = std::env::current_dir() {
            let mut base = encode(&cwd.to_string_lossy());
            if !base.ends_with('/') {
                base.push('/');
            }
            run["originalUriBaseIds"] = json!({"%SRCROOT%": {"uri": format!("file://{base}")}});
        }
        // The run object without its closing brace, then the results.
        let run = run.to_string();
        let run = run.strip_suffix('}').unwrap_or(&run);
        format!("{{\"$schema\":\"{SCHEMA}\",\"version\":\"2.1.0\",\"runs\":[{run},\"results\":[")
    }

    /// One result, with the separator it needs.
    pub fn result(&mut self, path: &str, index: usize, f: &Finding) -> String {
        let rule_index = Rule::ALL.iter().position(|r| *r == f.rule).unwrap_or(0);
        let mut properties = json!({"game": index});
        if let Some(ply) = f.ply {
            properties["ply"] = json!(ply);
        }
        if let Some(mv) = &f.mv {
            properties["move"] = json!(mv);
        }
        if let Some(sfen) = &f.sfen {
            properties["sfen"] = json!(sfen);
        }
        let v = json!({
            "ruleId": f.rule.id(),
            "ruleIndex": rule_index,
            "level": level(f.severity),
            "message": {"text": describe(f, index)},
            "locations": [location(path, f.line, f.column)],
            "properties": properties,
        });
        let sep = if self.results == 0 { "" } else { "," };
        self.results += 1;
        format!("{sep}{v}")
    }

    /// A note that is not a finding (a conversion that failed, what a
    /// target dropped), kept for the invocation.
    pub fn note(&mut self, path: Option<&str>, severity: Option<Severity>, text: &str) {
        if self.notes.len() >= MAX_NOTES {
            self.notes_left_out += 1;
            return;
        }
        let mut n = json!({
            "level": severity.map_or("note", level),
            "message": {"text": text},
        });
        if let Some(p) = path {
            n["locations"] = json!([location(p, 0, 0)]);
        }
        self.notes.push(n);
    }

    /// The end of the document.
    pub fn footer(&mut self, successful: bool) -> String {
        if self.notes_left_out > 0 {
            let text = format!("{} more notes left out", self.notes_left_out);
            self.notes
                .push(json!({"level": "note", "message": {"text": text}}));
        }
        let invocation = json!({
            "executionSuccessful": successful,
            "toolExecutionNotifications": std::mem::take(&mut self.notes),
        });
        format!("],\"invocations\":[{invocation}]}}]}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_encoded() {
        assert_eq!(encode("a b/棋譜.kif"), "a%20b/%E6%A3%8B%E8%AD%9C.kif");
        assert_eq!(artifact("./x/y.csa")["uri"], "x/y.csa");
        assert_eq!(artifact("/tmp/a#b.kif")["uri"], "file:///tmp/a%23b.kif");
        assert!(artifact("-").get("uri").is_none());
    }

    #[test]
    fn a_document_is_json() {
        let mut s = Sarif::default();
        let f = Finding::error(Rule::Nifu, kifu::record::Location::new(3, 2), "two pawns");
        let doc = format!(
            "{}{}{}{}",
            Sarif::header(),
            s.result("a.csa", 0, &f),
            s.result("a.csa", 1, &f),
            s.footer(true)
        );
        let v: Value = serde_json::from_str(&doc).unwrap();
        assert_eq!(v["runs"][0]["results"].as_array().unwrap().len(), 2);
        assert_eq!(
            v["runs"][0]["tool"]["driver"]["rules"]
                .as_array()
                .unwrap()
                .len(),
            Rule::ALL.len()
        );
    }
}

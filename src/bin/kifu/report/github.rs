//! GitHub Actions: workflow-command annotations, a final `::notice`
//! summary, and a Markdown job summary appended to `GITHUB_STEP_SUMMARY`
//! (GitHub shows only ten annotations of each kind per step; the summary
//! shows the rest).

use super::{describe, Counts};
use crate::out;
use kifu::read::{Finding, Rule, Severity};
use std::fmt::Write as _;

/// Invalid games listed in the job summary at most.
pub const SUMMARY_GAMES: usize = 50;

/// Characters of a message kept in a job-summary cell.
const CELL_CHARS: usize = 300;

/// Escapes an annotation property value.
pub fn prop(s: &str) -> String {
    msg(s).replace(':', "%3A").replace(',', "%2C")
}

/// Escapes an annotation message: control characters made
/// [`out::visible`] (so no line break can end the command and start
/// another), then `%` as the runner requires.
pub fn msg(s: &str) -> String {
    out::visible(s).replace('%', "%25")
}

/// The annotation of a finding of game `index` of `path`.
pub fn annotation(path: &str, index: usize, f: &Finding) -> String {
    let level = if f.severity == Severity::Error {
        "error"
    } else {
        "warning"
    };
    let mut props = format!("file={}", prop(path));
    if f.line > 0 {
        let _ = write!(props, ",line={},col={}", f.line, f.column.max(1));
    }
    let _ = write!(props, ",title={}", prop(&format!("kifu {}", f.rule)));
    format!("::{level} {props}::{}", msg(&describe(f, index)))
}

/// An annotation for a note that is not a finding.
pub fn note(path: Option<&str>, severity: Option<Severity>, text: &str) -> String {
    let level = match severity {
        Some(Severity::Error) => "error",
        Some(Severity::Warning) => "warning",
        None => "notice",
    };
    match path {
        Some(p) => format!("::{level} file={}::{}", prop(p), msg(text)),
        None => format!("::{level}::{}", msg(text)),
    }
}

/// The closing `::notice` line.
pub fn notice(command: &str, summary: &str) -> String {
    format!(
        "::notice title={}::{}",
        prop(&format!("kifu {command}")),
        msg(summary)
    )
}

/// Text for a Markdown table cell or paragraph, shown as written: control
/// characters made visible, HTML's `& < >` as entities, and every ASCII
/// punctuation character Markdown could read (`| * _ [ ] \` @ : …`)
/// escaped with a backslash, so a record cannot add links, mentions,
/// markup or table columns.
pub fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in out::visible(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The first error of an invalid game, for the summary table.
pub struct Row {
    path: String,
    line: u32,
    rule: Rule,
    message: String,
}

/// What the job summary lists.
#[derive(Default)]
pub struct JobSummary {
    rows: Vec<Row>,
    more: u64,
}

impl JobSummary {
    /// An invalid game, with its first error.
    pub fn invalid(&mut self, path: &str, index: usize, f: &Finding) {
        if self.rows.len() >= SUMMARY_GAMES {
            self.more += 1;
            return;
        }
        let mut message: String = describe_short(f, index);
        if message.chars().count() > CELL_CHARS {
            message = message.chars().take(CELL_CHARS).collect::<String>() + "…";
        }
        self.rows.push(Row {
            path: path.to_string(),
            line: f.line,
            rule: f.rule,
            message,
        });
    }

    /// The Markdown text.
    pub fn render(&self, command: &str, summary: &str, counts: &Counts) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "### kifu {command}\n");
        let _ = writeln!(md, "**{}**\n", markdown(summary));
        let per_rule: Vec<_> = Rule::ALL
            .iter()
            .zip(counts.per_rule.iter())
            .filter(|(_, (e, w))| e + w > 0)
            .collect();
        if !per_rule.is_empty() {
            md.push_str("| rule | errors | warnings |\n|---|---:|---:|\n");
            for (rule, (e, w)) in per_rule {
                let _ = writeln!(md, "| `{}` | {e} | {w} |", rule.id());
            }
            md.push('\n');
        }
        if !self.rows.is_empty() {
            let _ = writeln!(
                md,
                "#### Invalid games{}\n",
                if self.more > 0 {
                    format!(" (the first {SUMMARY_GAMES})")
                } else {
                    String::new()
                }
            );
            md.push_str("| file | line | rule | message |\n|---|---:|---|---|\n");
            for r in &self.rows {
                let line = if r.line > 0 {
                    r.line.to_string()
                } else {
                    String::new()
                };
                let _ = writeln!(
                    md,
                    "| {} | {line} | `{}` | {} |",
                    markdown(&r.path),
                    r.rule.id(),
                    markdown(&r.message)
                );
            }
            if self.more > 0 {
                let _ = writeln!(md, "\n…and {} more invalid games.", self.more);
            }
            md.push('\n');
        }
        md
    }
}

/// The message and where in the game, without the SFEN (long, and in
/// the annotations already).
fn describe_short(f: &Finding, index: usize) -> String {
    let mut s = f.message.clone();
    if index > 0 {
        let _ = write!(s, " (game {})", index + 1);
    }
    if let (Some(ply), Some(mv)) = (f.ply, &f.mv) {
        let _ = write!(s, " [ply {ply}, move {mv}]");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cannot_add_markup() {
        assert_eq!(markdown("a|b"), "a\\|b");
        assert_eq!(
            markdown("<script>&x</script>"),
            "&lt;script&gt;&amp;x&lt;\\/script&gt;"
        );
        assert_eq!(markdown("[x](http://e)"), "\\[x\\]\\(http\\:\\/\\/e\\)");
        assert_eq!(markdown("@user *b*"), "\\@user \\*b\\*");
        assert_eq!(markdown("a\nb"), "a\\\\nb");
        assert_eq!(markdown("先手　名人"), "先手　名人");
    }

    #[test]
    fn annotations_cannot_start_commands() {
        let f = Finding::error(
            Rule::Syntax,
            kifu::record::Location::new(1, 1),
            "x\n::error::fake 100%",
        );
        let a = annotation("a,b:c.kif", 0, &f);
        assert_eq!(
            a,
            "::error file=a%2Cb%3Ac.kif,line=1,col=1,title=kifu syntax::x\\n::error::fake 100%25"
        );
    }
}

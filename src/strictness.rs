//! Strictness, as clippy has it: rules denied (their warnings become
//! errors), rules allowed (their findings are neither reported nor
//! counted), and `warnings` (every warning an error).
//!
//! ```
//! use kifu::read::{Finding, Rule, Severity};
//! use kifu::record::Location;
//! use kifu::strictness::Strictness;
//!
//! let s = Strictness::parse(&["warnings"], &["dialect"]).unwrap();
//! let mut findings = vec![
//!     Finding::warning(Rule::Time, Location::new(3, 1), "time goes backwards"),
//!     Finding::warning(Rule::Dialect, Location::new(4, 1), "不成 in KIF"),
//! ];
//! s.apply(&mut findings);
//! assert_eq!(findings.len(), 1);
//! assert_eq!((findings[0].rule, findings[0].severity), (Rule::Time, Severity::Error));
//! assert!(Strictness::parse(&["nifu"], &["nifu"]).is_err());
//! ```

use crate::read::{Finding, Rule, Severity, UnknownRule};
use crate::validate::GameReport;
use std::fmt;

/// The group name that denies every warning (`--deny warnings`).
pub const WARNINGS: &str = "warnings";

/// Which rules are denied or allowed. The default changes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strictness {
    deny_warnings: bool,
    /// Bit `i`: `Rule::ALL[i]` denied.
    deny: u64,
    /// Bit `i`: `Rule::ALL[i]` allowed.
    allow: u64,
}

/// Why a set of `--deny`/`--allow` ids was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrictnessError {
    /// An id that names no rule.
    Unknown(UnknownRule),
    /// The same rule both denied and allowed.
    Conflict(Rule),
    /// `warnings` given to `--allow` (only `--deny warnings` exists).
    AllowWarnings,
}

impl fmt::Display for StrictnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrictnessError::Unknown(u) => write!(f, "{u} (and `{WARNINGS}` to deny)"),
            StrictnessError::Conflict(r) => {
                write!(f, "rule `{r}` is both denied and allowed; give one")
            }
            StrictnessError::AllowWarnings => {
                write!(
                    f,
                    "`{WARNINGS}` can only be denied; allow the rules one by one"
                )
            }
        }
    }
}

impl std::error::Error for StrictnessError {}

fn bit(rule: Rule) -> u64 {
    let i = Rule::ALL
        .iter()
        .position(|r| *r == rule)
        .expect("every rule is in Rule::ALL");
    1 << i
}

impl Strictness {
    /// From the ids given to `--deny` (rule ids or `warnings`) and
    /// `--allow` (rule ids). A rule both denied and allowed is refused.
    pub fn parse<D: AsRef<str>, A: AsRef<str>>(
        deny: &[D],
        allow: &[A],
    ) -> Result<Strictness, StrictnessError> {
        let mut s = Strictness::default();
        for id in deny {
            match id.as_ref() {
                WARNINGS => s.deny_warnings = true,
                id => s.deny |= bit(id.parse().map_err(StrictnessError::Unknown)?),
            }
        }
        for id in allow {
            match id.as_ref() {
                WARNINGS => return Err(StrictnessError::AllowWarnings),
                id => s.allow |= bit(id.parse().map_err(StrictnessError::Unknown)?),
            }
        }
        if let Some(r) = Rule::ALL
            .into_iter()
            .find(|r| s.deny & s.allow & bit(*r) != 0)
        {
            return Err(StrictnessError::Conflict(r));
        }
        Ok(s)
    }

    /// Whether findings of `rule` are dropped.
    pub fn allows(&self, rule: Rule) -> bool {
        self.allow & bit(rule) != 0
    }

    /// Whether `rule` was named by `--deny` (not through `warnings`).
    pub fn denies(&self, rule: Rule) -> bool {
        self.deny & bit(rule) != 0
    }

    /// The severity a finding of `rule` reported as `severity` ends with;
    /// `None` when the rule is allowed.
    pub fn severity(&self, rule: Rule, severity: Severity) -> Option<Severity> {
        if self.allows(rule) {
            None
        } else if self.deny_warnings || self.deny & bit(rule) != 0 {
            Some(Severity::Error)
        } else {
            Some(severity)
        }
    }

    /// Drops the findings of allowed rules and makes denied warnings
    /// errors, keeping the order.
    pub fn apply(&self, findings: &mut Vec<Finding>) {
        if *self == Strictness::default() {
            return;
        }
        findings.retain_mut(|f| match self.severity(f.rule, f.severity) {
            Some(s) => {
                f.severity = s;
                true
            }
            None => false,
        });
    }

    /// [`Strictness::apply`] to a game's findings; the game is `ok` when no
    /// error is left.
    pub fn apply_report(&self, report: &mut GameReport) {
        self.apply(&mut report.findings);
        report.ok = !report
            .findings
            .iter()
            .any(|f| f.severity == Severity::Error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Location;

    fn f(rule: Rule, severity: Severity) -> Finding {
        Finding {
            severity,
            ..Finding::error(rule, Location::new(1, 1), "x")
        }
    }

    #[test]
    fn deny_allow_and_warnings() {
        let s = Strictness::parse(&["time"], &["nifu"]).unwrap();
        assert_eq!(
            s.severity(Rule::Time, Severity::Warning),
            Some(Severity::Error)
        );
        assert_eq!(
            s.severity(Rule::Dialect, Severity::Warning),
            Some(Severity::Warning)
        );
        assert_eq!(s.severity(Rule::Nifu, Severity::Error), None);
        let s = Strictness::parse(&[WARNINGS], &["time"]).unwrap();
        assert_eq!(s.severity(Rule::Time, Severity::Warning), None);
        assert_eq!(
            s.severity(Rule::Dialect, Severity::Warning),
            Some(Severity::Error)
        );
        let mut v = vec![
            f(Rule::Nifu, Severity::Error),
            f(Rule::Time, Severity::Warning),
        ];
        Strictness::parse(&[] as &[&str], &["nifu"])
            .unwrap()
            .apply(&mut v);
        assert_eq!(v, vec![f(Rule::Time, Severity::Warning)]);
    }

    #[test]
    fn bad_ids_are_refused_with_the_list() {
        let e = Strictness::parse(&["nifuu"], &[] as &[&str]).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("unknown rule `nifuu`"), "{text}");
        for r in Rule::ALL {
            assert!(text.contains(r.id()), "{text}");
        }
        assert_eq!(
            Strictness::parse(&["nifu"], &["nifu"]),
            Err(StrictnessError::Conflict(Rule::Nifu))
        );
        assert_eq!(
            Strictness::parse(&[] as &[&str], &[WARNINGS]),
            Err(StrictnessError::AllowWarnings)
        );
    }
}

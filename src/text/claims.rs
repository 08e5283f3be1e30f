//! Two statements of one game's result (two `まで` lines, PSN's
//! `[Result]` tag and the result token after the moves): whether the
//! second agrees with the first, which the reader passes on.

use super::{Finding, Rule};
use crate::record::{Outcome, ResultClaim};

/// What a second statement of the main line's result gives: nothing when
/// it says what the first says; a `claim-mismatch` error when it
/// contradicts it (another winner or outcome, another number of moves,
/// another way of ending), since at most one of them is true; a `dialect`
/// warning when it only adds to it (the first stands, the second is not
/// kept).
pub fn second_claim(first: &ResultClaim, second: &ResultClaim) -> Option<Finding> {
    let mut differences = Vec::new();
    if first.outcome != second.outcome
        && first.outcome != Outcome::Unknown
        && second.outcome != Outcome::Unknown
    {
        differences.push(format!(
            "{} against {}",
            second.outcome.name(),
            first.outcome.name()
        ));
    }
    if let (Some(a), Some(b)) = (first.plies, second.plies) {
        if a != b {
            differences.push(format!("{b} moves against {a}"));
        }
    }
    if let (Some(a), Some(b)) = (&first.kind, &second.kind) {
        if a.reason_id() != b.reason_id() {
            differences.push(format!("{} against {}", b.reason_id(), a.reason_id()));
        }
    }
    if !differences.is_empty() {
        return Some(Finding::error(
            Rule::ClaimMismatch,
            second.location,
            format!(
                "`{}` contradicts `{}` (line {}): {}",
                second.text,
                first.text,
                first.location.line,
                differences.join(", ")
            ),
        ));
    }
    let same =
        first.outcome == second.outcome && first.plies == second.plies && first.kind == second.kind;
    (!same).then(|| {
        Finding::warning(
            Rule::Dialect,
            second.location,
            format!(
                "a second result line `{}` is ignored: `{}` (line {}) stands",
                second.text, first.text, first.location.line
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Location, TerminalKind};

    fn claim(
        text: &str,
        outcome: Outcome,
        plies: Option<u32>,
        kind: Option<TerminalKind>,
    ) -> ResultClaim {
        ResultClaim {
            outcome,
            plies,
            kind,
            text: text.to_string(),
            location: Location::new(9, 1),
        }
    }

    #[test]
    fn contradictions_are_claim_mismatches_and_repeats_are_nothing() {
        let first = claim("まで2手で後手の勝ち", Outcome::GoteWin, Some(2), None);
        let mut first_at = first.clone();
        first_at.location = Location::new(8, 1);
        assert_eq!(second_claim(&first_at, &first), None);
        let other = claim("まで2手で先手の勝ち", Outcome::SenteWin, Some(2), None);
        let f = second_claim(&first_at, &other).unwrap();
        assert_eq!(
            (f.rule, f.severity),
            (Rule::ClaimMismatch, crate::text::Severity::Error)
        );
        assert!(
            f.message.contains("sente_win against gote_win"),
            "{}",
            f.message
        );
        assert!(f.message.contains("(line 8)"), "{}", f.message);
        let count = claim("まで3手で後手の勝ち", Outcome::GoteWin, Some(3), None);
        assert_eq!(
            second_claim(&first_at, &count).unwrap().rule,
            Rule::ClaimMismatch
        );
        let draws = (
            claim(
                "まで2手で千日手",
                Outcome::Draw,
                Some(2),
                Some(TerminalKind::Repetition),
            ),
            claim(
                "まで2手で持将棋",
                Outcome::Draw,
                Some(2),
                Some(TerminalKind::Impasse),
            ),
        );
        assert_eq!(
            second_claim(&draws.0, &draws.1).unwrap().rule,
            Rule::ClaimMismatch
        );
        // Saying more (how the game was won) is no contradiction.
        let more = claim(
            "まで2手で時間切れにより後手の勝ち",
            Outcome::GoteWin,
            Some(2),
            Some(TerminalKind::TimeUp),
        );
        assert_eq!(second_claim(&first_at, &more).unwrap().rule, Rule::Dialect);
    }
}

//! floodgate's `'summary:` comment (shogi-server): the server's statement
//! of how a game ended, `'summary:<reason>:<name> <res>:<name> <res>` with
//! `res` `win`, `lose` or `draw`. A record that reaches the move limit, or
//! ends by perpetual check or an illegal move, has no `%` line: the summary
//! is then the only statement of its result.

use crate::record::{Outcome, TerminalKind};
use crate::rules::color::Color;

/// A `'summary:` comment, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The ending it names.
    pub kind: TerminalKind,
    /// The outcome it states: the players' words matched to the record's
    /// `N+` and `N-` names (early files list gote first, so positions are
    /// not used); `Unknown` when the names do not tell who won.
    pub outcome: Outcome,
}

/// The ending a summary reason names (`max_moves`, `toryo`, `time up`, …;
/// shogi-server writes some with a space, some with `_`: both are read).
fn reason_kind(reason: &str) -> Option<TerminalKind> {
    let r = reason.trim().replace(' ', "_");
    Some(match r.as_str() {
        "toryo" => TerminalKind::Resign,
        // A disconnection: the player who left loses.
        "abnormal" => TerminalKind::Abort,
        "time_up" => TerminalKind::TimeUp,
        "sennichite" | "oute_sennichite" => TerminalKind::Repetition,
        // The illegal move (or declaration) is not recorded: the side to
        // move made it and loses.
        "illegal_move" | "uchifuzume" | "oute_kaihimore" | "illegal_kachi" => {
            TerminalKind::IllegalLoss
        }
        "kachi" => TerminalKind::DeclarationWin,
        "max_moves" => TerminalKind::MaxMoves,
        _ => return None,
    })
}

/// Reads a comment's text (without the `'`) as a floodgate summary.
/// `None` when it is not one (no `summary:` prefix); `Some(Err(()))` when
/// it is one kifu cannot read (an unknown reason, not two players).
/// `names` are the record's `N+` and `N-` names.
pub fn parse(text: &str, names: [Option<&str>; 2]) -> Option<Result<Summary, ()>> {
    let rest = text.strip_prefix("summary:")?;
    Some(parse_rest(rest, names).ok_or(()))
}

fn parse_rest(rest: &str, names: [Option<&str>; 2]) -> Option<Summary> {
    let (reason, players) = rest.split_once(':')?;
    let kind = reason_kind(reason)?;
    let (a, b) = players.split_once(':')?;
    let player = |p: &str| -> Option<(String, Word)> {
        let (name, word) = p.trim().rsplit_once(' ')?;
        let word = match word {
            "win" => Word::Win,
            "lose" => Word::Lose,
            "draw" => Word::Draw,
            _ => return None,
        };
        Some((name.trim().to_string(), word))
    };
    let (a, b) = (player(a)?, player(b)?);
    let outcome = match (a.1, b.1) {
        (Word::Draw, Word::Draw) => Outcome::Draw,
        (Word::Win, Word::Lose) => winner(&a.0, &b.0, names),
        (Word::Lose, Word::Win) => winner(&b.0, &a.0, names),
        _ => Outcome::Unknown,
    };
    Some(Summary { kind, outcome })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    Win,
    Lose,
    Draw,
}

/// The outcome when `won` beat `lost`: the side whose `N` name is the
/// winner's and not the loser's.
fn winner(won: &str, lost: &str, names: [Option<&str>; 2]) -> Outcome {
    let side = |name: &str| -> Option<Color> {
        let black = names[0].is_some_and(|n| n.trim() == name);
        let white = names[1].is_some_and(|n| n.trim() == name);
        match (black, white) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    };
    match (side(won), side(lost)) {
        (Some(w), Some(l)) if w != l => Outcome::win(w),
        // One name matches: the other player is the other side.
        (Some(w), None) if won != lost => Outcome::win(w),
        (None, Some(l)) if won != lost => Outcome::win(!l),
        _ => Outcome::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [Option<&str>; 2] = [Some("Titanda_L"), Some("SILENT_MAJORITY")];

    #[test]
    fn the_server_words_are_read_by_name() {
        let s = parse(
            "summary:max_moves:Titanda_L draw:SILENT_MAJORITY draw",
            NAMES,
        );
        assert_eq!(
            s,
            Some(Ok(Summary {
                kind: TerminalKind::MaxMoves,
                outcome: Outcome::Draw
            }))
        );
        // Gote listed first (2006–2008 files): names decide, not places.
        let s = parse("summary:toryo:SILENT_MAJORITY win:Titanda_L lose", NAMES)
            .unwrap()
            .unwrap();
        assert_eq!(
            (s.kind, s.outcome),
            (TerminalKind::Resign, Outcome::GoteWin)
        );
        let s = parse("summary:time up:Titanda_L win:SILENT_MAJORITY lose", NAMES)
            .unwrap()
            .unwrap();
        assert_eq!(
            (s.kind, s.outcome),
            (TerminalKind::TimeUp, Outcome::SenteWin)
        );
        let s = parse(
            "summary:illegal move:Titanda_L lose:SILENT_MAJORITY win",
            NAMES,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (s.kind, s.outcome),
            (TerminalKind::IllegalLoss, Outcome::GoteWin)
        );
        // Names the record does not have: the ending, with no winner.
        let s = parse("summary:toryo:a win:b lose", NAMES).unwrap().unwrap();
        assert_eq!(s.outcome, Outcome::Unknown);
        // One side's name is enough.
        let s = parse("summary:toryo:a win:Titanda_L lose", NAMES)
            .unwrap()
            .unwrap();
        assert_eq!(s.outcome, Outcome::GoteWin);
        // The same name on both sides tells nothing.
        let same = [Some("gps"), Some("gps")];
        let s = parse("summary:toryo:gps win:gps lose", same)
            .unwrap()
            .unwrap();
        assert_eq!(s.outcome, Outcome::Unknown);
    }

    #[test]
    fn other_comments_and_unknown_summaries() {
        assert_eq!(parse("rating:a:b", NAMES), None);
        assert_eq!(parse("summary:resigned:a win:b lose", NAMES), Some(Err(())));
        assert_eq!(parse("summary:toryo:a win", NAMES), Some(Err(())));
        assert_eq!(parse("summary:toryo:a won:b lost", NAMES), Some(Err(())));
        assert_eq!(parse("summary:", NAMES), Some(Err(())));
    }
}

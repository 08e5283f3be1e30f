//! The `まで` summary line (`まで76手で先手の勝ち`, `まで11手詰`, …):
//! reading and writing.

use super::lexicon::*;
use crate::record::{Outcome, TerminalKind};
use crate::rules::color::Color;

/// A `まで` summary line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The number of moves it states.
    pub plies: Option<u32>,
    /// The outcome it states (`Unknown` when it cannot be told without a
    /// position, e.g. `まで11手詰`: see [`Summary::mated`]).
    pub outcome: Outcome,
    /// The terminal it states, if any.
    pub kind: Option<TerminalKind>,
    /// Whether it says the game ended in mate (`詰`/`詰み`), so the winner is
    /// the side that made the last move.
    pub mated: bool,
}

/// Parses a `まで` summary line (`まで76手で先手の勝ち`, `まで11手詰`,
/// `まで3手で時間切れにより先手の勝ち`, `まで3手で後手の反則勝ち`, …).
pub fn parse_summary(line: &str) -> Option<Summary> {
    let s = trim(line).strip_prefix("まで")?;
    let s = s.strip_prefix('、').unwrap_or(s);
    let digits: String = s
        .chars()
        .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
        .collect();
    let mut plies = None;
    let mut rest = &s[digits.len()..];
    if !digits.is_empty() {
        let n: String = digits
            .chars()
            .map(|c| {
                if c.is_ascii_digit() {
                    c
                } else {
                    char::from(b'0' + (c as u32 - '０' as u32) as u8)
                }
            })
            .collect();
        plies = n.parse::<u32>().ok();
        rest = rest.strip_prefix('手').unwrap_or(rest);
    }
    let rest = trim(rest);
    let rest = rest.strip_prefix('で').unwrap_or(rest);
    let mut sum = Summary {
        plies,
        outcome: Outcome::Unknown,
        kind: None,
        mated: false,
    };
    let t = trim(rest);
    match t {
        "詰" | "詰み" => {
            sum.kind = Some(TerminalKind::Checkmate);
            sum.mated = true;
            return Some(sum);
        }
        "不詰" => {
            sum.kind = Some(TerminalKind::NoMate);
            return Some(sum);
        }
        "中断" => {
            sum.kind = Some(TerminalKind::Abort);
            sum.outcome = Outcome::Aborted;
            return Some(sum);
        }
        "封じ手" => {
            sum.kind = Some(TerminalKind::Sealed);
            sum.outcome = Outcome::Aborted;
            return Some(sum);
        }
        "千日手" => {
            sum.kind = Some(TerminalKind::Repetition);
            sum.outcome = Outcome::Draw;
            return Some(sum);
        }
        "持将棋" => {
            sum.kind = Some(TerminalKind::Impasse);
            sum.outcome = Outcome::Draw;
            return Some(sum);
        }
        "最大手数" | "引き分け" => {
            sum.kind = Some(if t == "最大手数" {
                TerminalKind::MaxMoves
            } else {
                TerminalKind::Draw
            });
            sum.outcome = Outcome::Draw;
            return Some(sum);
        }
        _ => {}
    }
    // `…により` names how the game was won (bioshogi writes 切断により,
    // 時間切れにより, 反則により and エラーにより before the winner).
    let (t, by) = [
        ("時間切れにより", Some(TerminalKind::TimeUp)),
        ("反則により", None),
        ("切断により", Some(TerminalKind::Abort)),
        ("エラーにより", Some(TerminalKind::Error)),
    ]
    .into_iter()
    .find_map(|(p, k)| t.strip_prefix(p).map(|r| (r, Some(k))))
    .unwrap_or((t, None));
    let (color, n) = side_word(t)?;
    let tail = t[n..].strip_prefix('の').unwrap_or(&t[n..]);
    let (winner, kind) = match tail {
        // 反則により: the loser fouled.
        "勝ち" => (
            color,
            by.map(|k| k.unwrap_or(TerminalKind::IllegalAction(!color))),
        ),
        "反則勝ち" => (color, Some(TerminalKind::IllegalWin)),
        "反則負け" => (!color, Some(TerminalKind::IllegalLoss)),
        "入玉勝ち" | "宣言勝ち" => (color, Some(TerminalKind::DeclarationWin)),
        "トライ勝ち" => (color, Some(TerminalKind::Try)),
        "不戦勝" => (color, Some(TerminalKind::DefaultWin)),
        "不戦敗" => (!color, Some(TerminalKind::DefaultLoss)),
        "切れ負け" | "時間切れ負け" => (!color, Some(TerminalKind::TimeUp)),
        "負け" => (!color, None),
        _ => return None,
    };
    sum.outcome = Outcome::win(winner);
    sum.kind = kind;
    Some(sum)
}

/// Writes the `まで` line for a line of `plies` moves ending in `kind` with
/// `to_move` to move (no line break). `None` when the kind has no summary
/// (e.g. `不戦勝` before any move is still written; an `Other` kind is not).
pub fn write_summary(
    plies: u32,
    kind: &TerminalKind,
    to_move: Color,
    handicap: bool,
) -> Option<String> {
    use TerminalKind::*;
    let side = |c: Color| side_name(c, handicap);
    let tail = match kind {
        Resign | DefaultLoss => format!("{}の勝ち", side(!to_move)),
        TimeUp => format!("時間切れにより{}の勝ち", side(!to_move)),
        IllegalWin => format!("{}の反則勝ち", side(to_move)),
        IllegalLoss => format!("{}の反則負け", side(to_move)),
        IllegalAction(c) => format!("{}の反則負け", side(*c)),
        DeclarationWin => format!("{}の入玉勝ち", side(to_move)),
        DefaultWin => format!("{}の勝ち", side(to_move)),
        Try => format!("{}の勝ち", side(!to_move)),
        Abort => "中断".to_string(),
        Sealed => "封じ手".to_string(),
        Repetition => "千日手".to_string(),
        Impasse | DeclarationDraw => "持将棋".to_string(),
        MaxMoves => "持将棋".to_string(),
        Checkmate => return Some(format!("まで{plies}手で詰")),
        NoMate => "不詰".to_string(),
        Draw => "持将棋".to_string(),
        Matta | Error | Other(_) => "中断".to_string(),
    };
    Some(format!("まで{plies}手で{tail}"))
}

//! Japanese notation shared by KIF and KI2: the vocabulary
//! ([`lexicon`]: numerals, piece names, move words, terminal words, header
//! keys), the relative marks of KI2 ([`marks`]), the move grammar both
//! formats read ([`moves`]), board diagrams ([`bod`]), the `まで` summary
//! ([`summary`]), the line reader both formats share ([`reader`]) and what both writers share ([`writer`]).
//!
//! `kif` and `ki2` both depend on this module; neither depends on the
//! other.

pub mod bod;
// The vocabulary, relative marks and move text live with the move notations
// in the input layer (the resolver needs them); kept here under their old
// paths for the KIF and KI2 code (and its tests) that name them.
#[allow(unused_imports)]
pub use crate::text::notation::{lexicon, marks, moves};
pub(crate) mod reader;
pub mod summary;
pub(crate) mod writer;

pub use bod::*;
pub use lexicon::*;
pub use summary::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Outcome, TerminalKind};
    use crate::rules::color::Color;
    use crate::rules::role::Role;
    use crate::rules::variant::Variant;

    #[test]
    fn digits_and_squares() {
        assert_eq!(digit_value('１'), Some(1));
        assert_eq!(digit_value('９'), Some(9));
        assert_eq!(digit_value('7'), Some(7));
        assert_eq!(digit_value('0'), None);
        let (sq, n) = parse_square("７六歩").unwrap();
        assert_eq!((sq.file(), sq.rank(), n), (7, 6, 6));
        let mut s = String::new();
        push_square(sq, &mut s);
        assert_eq!(s, "７六");
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("十八"), Some((18, 6)));
        assert_eq!(parse_count("十"), Some((10, 3)));
        assert_eq!(parse_count("二十"), Some((20, 6)));
        assert_eq!(parse_count("三十二　"), Some((32, 9)));
        for n in 1..=255u8 {
            let mut s = String::new();
            count_kanji(n, &mut s);
            assert_eq!(parse_count(&s), Some((n, s.len())), "{s}");
        }
        assert_eq!(parse_count("三"), Some((3, 3)));
        assert_eq!(parse_count("12"), Some((12, 2)));
        let mut s = String::new();
        count_kanji(15, &mut s);
        assert_eq!(s, "十五");
    }

    #[test]
    fn hands() {
        let (c, h) = parse_hand_line("後手の持駒：飛　金四　銀四　桂二　香二　歩十五　")
            .unwrap()
            .unwrap();
        assert_eq!(c, Color::White);
        assert_eq!(h.count(Role::Pawn), 15);
        assert_eq!(h.count(Role::Gold), 4);
        let (_, h) = parse_hand_line("上手の持駒：飛角金").unwrap().unwrap();
        assert_eq!(h.count(Role::Bishop), 1);
        let (_, h) = parse_hand_line("先手の持駒：なし").unwrap().unwrap();
        assert!(h.is_empty());
        let mut s = String::new();
        write_hand_line(
            Color::White,
            &parse_hand_line("後手の持駒：歩十五 飛").unwrap().unwrap().1,
            false,
            Variant::Standard,
            &mut s,
        );
        assert_eq!(s, "後手の持駒：飛　歩十五　");
    }

    #[test]
    fn summaries() {
        let s = parse_summary("まで76手で先手の勝ち").unwrap();
        assert_eq!(
            (s.plies, s.outcome, s.kind),
            (Some(76), Outcome::SenteWin, None)
        );
        let s = parse_summary("まで11手詰").unwrap();
        assert!(s.mated);
        let s = parse_summary("まで3手で時間切れにより先手の勝ち").unwrap();
        assert_eq!(s.kind, Some(TerminalKind::TimeUp));
        let s = parse_summary("まで3手で後手の反則勝ち").unwrap();
        assert_eq!(s.outcome, Outcome::GoteWin);
        assert_eq!(
            parse_summary("まで3手で千日手").unwrap().outcome,
            Outcome::Draw
        );
    }

    /// `まで` lines as Shogi Wars (bioshogi), ShogiHome and Shogi Club 24
    /// write them: the winner and how.
    #[test]
    fn summary_lines_of_real_producers() {
        for (line, outcome, kind) in [
            ("まで93手で後手の勝ち", Outcome::GoteWin, None),
            (
                "まで93手で時間切れにより先手の勝ち",
                Outcome::SenteWin,
                Some(TerminalKind::TimeUp),
            ),
            (
                "まで93手で切断により後手の勝ち",
                Outcome::GoteWin,
                Some(TerminalKind::Abort),
            ),
            (
                "まで93手で反則により先手の勝ち",
                Outcome::SenteWin,
                Some(TerminalKind::IllegalAction(Color::White)),
            ),
            (
                "まで93手でエラーにより先手の勝ち",
                Outcome::SenteWin,
                Some(TerminalKind::Error),
            ),
            (
                "まで6手で先手の反則勝ち",
                Outcome::SenteWin,
                Some(TerminalKind::IllegalWin),
            ),
        ] {
            let s = parse_summary(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!((s.outcome, s.kind), (outcome, kind), "{line}");
            assert_eq!(s.plies, Some(if line.contains("93") { 93 } else { 6 }));
        }
    }
}

//! The KIF board diagram (BOD), as the KIF writer puts it in records.

use super::Options;
use crate::japanese::{write_bod_with, BodExtras};
use crate::rules::position::Position;

/// The position as a KIF/BOD board diagram: gote's hand, the framed board,
/// sente's hand, the `手数＝N  ▲７六歩  まで` line (when moves were played;
/// the move from [`Options::last_move_ki2`]) and the turn line when gote is
/// to move. Any KIF reader (and kifu itself) reads it back. Flip and
/// coordinates do not apply: the format has one orientation.
pub fn bod(pos: &Position, opts: &Options) -> String {
    let mut out = String::with_capacity(512);
    let extras = BodExtras {
        last_move: opts.last_move_ki2.as_deref(),
        handicap: opts.handicap,
    };
    write_bod_with(&pos.to_setup(), extras, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;
    use crate::rules::variant::Variant;

    #[test]
    fn after_one_move() {
        let mut pos = Position::new(Variant::Standard);
        pos.play(Move::from_usi("7g7f", Variant::Standard).unwrap())
            .unwrap();
        let opts = Options {
            last_move_ki2: Some("▲７六歩".to_string()),
            ..Options::default()
        };
        let text = bod(&pos, &opts);
        let expected = "\
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂v香|一
| ・v飛 ・ ・ ・ ・ ・v角 ・|二
|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六
| 歩 歩 ・ 歩 歩 歩 歩 歩 歩|七
| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八
| 香 桂 銀 金 玉 金 銀 桂 香|九
+---------------------------+
先手の持駒：なし
手数＝1  ▲７六歩  まで
後手番
";
        assert_eq!(text, expected);
        // It reads back as a KIF start position, last move included.
        let games = crate::read::read_all(
            format!("{text}手数----指手--\n").as_bytes(),
            Some(crate::read::Format::Kif),
            &Default::default(),
        );
        assert_eq!(games.len(), 1);
        assert!(!games[0].has_errors(), "{:?}", games[0].findings);
        let mut setup = games[0].record.start.setup.clone();
        setup.ply = pos.ply();
        assert_eq!(setup, pos.to_setup());
    }

    #[test]
    fn handicap_names() {
        let pos =
            Position::from_sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        let opts = Options {
            handicap: true,
            ..Options::default()
        };
        let text = bod(&pos, &opts);
        assert!(text.starts_with("上手の持駒：なし\n"));
        assert!(text.contains("\n下手の持駒：なし\n"));
        assert!(text.ends_with("上手番\n"));
    }
}

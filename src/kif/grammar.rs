//! The KIF move line grammar (`   1 ７六歩(77)   ( 0:01/00:00:01)+`): move
//! number, move text or terminal word, time, branch mark. Syntax only, no
//! position; the move text is [`crate::japanese::moves`]'s.

use crate::japanese::lexicon::is_space;
use crate::japanese::moves::{
    dest, move_text, side_mark, spaces, A_MOVE_NUMBER, A_MOVE_OR_TERMINAL, A_TIME, A_TIME_CLOSE,
};
#[allow(unused_imports)] // `Dest`, `MoveText`, `Origin`: named here by the tests
pub use crate::japanese::moves::{is_move_line, offset, Body, Dest, MoveText, Origin};
use crate::record::MoveTime;
use crate::rules::color::Color;
use crate::text::notation::fast::Vocab;
use crate::text::syntax::{expect, into_error, PResult, SyntaxError};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_till1, take_while1};
use nom::character::complete::{char as ch, digit1};
use nom::combinator::{cut, map, map_opt, opt, peek, recognize, rest, value};
use nom::sequence::{delimited, preceded};
use nom::Parser;

/// One KIF move line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KifLine<'a> {
    /// The move number as written.
    pub number: u32,
    /// A ▲/△ mark after the number (a dialect).
    pub mark: Option<Color>,
    /// Byte offset of the body.
    pub body_offset: usize,
    /// The body text as written (up to the time).
    pub written: &'a str,
    /// The move or terminal.
    pub body: Body<'a>,
    /// The time, if written.
    pub time: Option<MoveTime>,
    /// The trailing `+` branch mark.
    pub branch: bool,
    /// Byte offset of unexpected trailing text, if any.
    pub trailing: Option<usize>,
}

/// A move number, ASCII or full-width digits (`12`, `１２`).
fn number(i: &str) -> PResult<&str, u32> {
    let digits = take_while1(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    let value = |d: &str| {
        d.chars().try_fold(0u32, |n, c| {
            let v = c.to_digit(10).unwrap_or_else(|| c as u32 - '０' as u32);
            n.checked_mul(10)?.checked_add(v)
        })
    };
    expect(A_MOVE_NUMBER, map_opt(digits, value)).parse(i)
}

/// One field of a time: digits (an explicit `+` tolerated).
fn time_field(i: &str) -> PResult<&str, u64> {
    map_opt(
        delimited(spaces, preceded(opt(ch('+')), digit1), spaces),
        |d: &str| d.parse::<u64>().ok(),
    )
    .parse(i)
}

/// `s`, `m:s` or `h:m:s` in milliseconds; nothing (spaces) is `None`.
fn clock(i: &str) -> PResult<&str, Option<u64>> {
    let colon = || preceded(ch(':'), time_field);
    let fields = (time_field, opt(colon()), opt(colon()));
    let to_ms = |(a, b, c): (u64, Option<u64>, Option<u64>)| {
        let secs = match (b, c) {
            (None, _) => a,
            (Some(s), None) => a.checked_mul(60)?.checked_add(s)?,
            (Some(m), Some(s)) => a
                .checked_mul(3600)?
                .checked_add(m.checked_mul(60)?)?
                .checked_add(s)?,
        };
        secs.checked_mul(1000)
    };
    alt((map(map_opt(fields, to_ms), Some), value(None, spaces))).parse(i)
}

/// A KIF time `( 0:12/00:01:05)`; tolerates spaces, `00:01 / 00:00:01`, a
/// missing total (`0:5/`) and an hour field in the spent part.
pub fn time(i: &str) -> PResult<&str, MoveTime> {
    peek(expect(
        A_TIME_CLOSE,
        (ch('('), take_till(|c| c == ')'), ch(')')),
    ))
    .parse(i)?;
    let inner = (clock, opt(preceded(ch('/'), clock)));
    let mt = |(spent_ms, total): (Option<u64>, Option<Option<u64>>)| MoveTime {
        spent_ms,
        total_ms: total.flatten(),
    };
    expect(A_TIME, map(delimited(ch('('), inner, ch(')')), mt)).parse(i)
}

/// A word of a KIF terminal line: up to a space, `(` or `+`.
fn word(i: &str) -> PResult<&str, &str> {
    take_till1(|c: char| is_space(c) || c == '(' || c == '+').parse(i)
}

/// A terminal word as written, with the side first as Shogi Club 24 writes
/// it (`先手 反則負け`).
fn terminal(i: &str) -> PResult<&str, &str> {
    let side = alt((tag("先手"), tag("下手"), tag("後手"), tag("上手")));
    expect(
        A_MOVE_OR_TERMINAL,
        alt((recognize((side, take_while1(is_space), word)), word)),
    )
    .parse(i)
}

/// The body of a KIF move line: a move when it starts with a destination,
/// else a terminal word.
fn kif_body(i: &str) -> PResult<&str, Body<'_>> {
    alt((
        preceded(peek(dest), cut(map(move_text, Body::Move))),
        map(terminal, Body::Terminal),
    ))
    .parse(i)
}

/// Parses a KIF move line (`   1 ７六歩(77)   ( 0:01/00:00:01)+`).
pub fn kif_line(line: &str) -> Result<KifLine<'_>, SyntaxError<&str>> {
    if let Some(l) = kif_line_fast(line) {
        return Ok(l);
    }
    kif_line_nom(line)
}

/// [`kif_line`] by the nom parsers alone.
fn kif_line_nom(line: &str) -> Result<KifLine<'_>, SyntaxError<&str>> {
    kif_line_parts(line)
        .map(|(_, l)| l)
        .map_err(|e| into_error(e, line))
}

fn kif_line_parts(line: &str) -> PResult<&str, KifLine<'_>> {
    let (i, (_, number, _, mark)) = (spaces, number, spaces, opt(side_mark)).parse(line)?;
    let body_offset = offset(line, i);
    let (after, body) = kif_body(i)?;
    let written = &i[..i.len() - after.len()];
    let (i, (_, time, _, branch, _, trailing)) = (
        spaces,
        opt(preceded(peek(ch('(')), cut(time))),
        spaces,
        opt(preceded(spaces, ch('+'))),
        spaces,
        rest,
    )
        .parse(after)?;
    let _ = i;
    Ok((
        "",
        KifLine {
            number,
            mark,
            body_offset,
            written,
            body,
            time,
            branch: branch.is_some(),
            trailing: (!trailing.is_empty()).then(|| offset(line, trailing)),
        },
    ))
}

/// The fast path of [`kif_line`] (see [`crate::text::notation::fast`]):
/// the plain move line, with the same result as the nom parsers; `None`
/// for anything else (terminal words, a side mark, an error), which the
/// nom parsers then read.
fn kif_line_fast(line: &str) -> Option<KifLine<'_>> {
    kif_line_utf8(line).map(|(l, _)| l)
}

/// [`kif_line_fast`] with the 1-based column of the move text: what
/// [`kif_line`] reads from a plain move line, and its body's column.
#[inline]
pub(crate) fn kif_line_utf8(line: &str) -> Option<(KifLine<'_>, u32)> {
    let f = Vocab::utf8().kif_line(line.as_bytes())?;
    let written = line.get(f.body..f.written_end)?;
    Some((
        KifLine {
            number: f.number,
            mark: None,
            body_offset: f.body,
            written,
            body: match f.mt {
                Some(mt) => Body::Move(mt),
                None => Body::Terminal(written),
            },
            time: f.time,
            branch: f.branch,
            trailing: f.trailing,
        },
        f.column,
    ))
}

/// A plain KIF move line read straight from its Shift_JIS bytes, without
/// decoding the line: the line as [`kif_line`] reads the decoded line
/// (but for `written`, left empty), the move text's Shift_JIS bytes, and
/// the 1-based column of the move text; `body_offset` is a byte offset in
/// the Shift_JIS line. `None` unless the whole line is a plain move line
/// with nothing the reader would report (trailing text, `不成`, a KI2
/// relative mark): such lines are decoded and read by [`kif_line`].
#[inline]
pub(crate) fn kif_line_sjis(line: &[u8]) -> Option<(KifLine<'static>, &[u8], u32)> {
    let v = Vocab::sjis();
    let f = v.kif_line(line)?;
    let mt = f.mt?;
    if f.trailing.is_some()
        || mt.wrote_funari
        || mt.mark.horizontal.is_some()
        || mt.mark.vertical.is_some()
    {
        return None;
    }
    let written = line.get(f.body..f.written_end)?;
    Some((
        KifLine {
            number: f.number,
            mark: None,
            body_offset: f.body,
            written: "",
            body: Body::Move(mt),
            time: f.time,
            branch: f.branch,
            trailing: None,
        },
        written,
        f.column,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::role::Role;

    #[test]
    fn kif_lines() {
        let l = kif_line("   1 ７六歩(77)   ( 0:01/00:00:01)+").unwrap();
        assert_eq!(l.number, 1);
        assert!(l.branch);
        assert_eq!(l.written, "７六歩(77)");
        assert_eq!(
            l.time,
            Some(MoveTime {
                spent_ms: Some(1000),
                total_ms: Some(1000)
            })
        );
        let l = kif_line("  10 同　玉(22)").unwrap();
        match l.body {
            Body::Move(m) => {
                assert_eq!(m.dest, Dest::Same);
                assert_eq!(m.role, Role::King);
            }
            _ => panic!(),
        }
        let l = kif_line("  12 詰み         ( 0:00/00:00:00)").unwrap();
        assert_eq!(l.body, Body::Terminal("詰み"));
        let l = kif_line("1 ７六歩(77) (00:01 / 00:00:01)").unwrap();
        assert_eq!(l.time.unwrap().total_ms, Some(1000));
        let l = kif_line("5 ５五角(33) ( 0:5/)").unwrap();
        assert_eq!(l.time.unwrap().spent_ms, Some(5000));
        assert_eq!(l.time.unwrap().total_ms, None);
        assert!(kif_line("3 ７六x(77)").is_err());
    }

    /// Fragments KIF move lines are made of, right and wrong.
    const FRAGMENTS: &[&str] = &[
        " ",
        "  ",
        "\t",
        "\u{3000}",
        "1",
        "12",
        "４",
        "０",
        "9999999999",
        "▲",
        "△",
        "７",
        "7",
        "六",
        "6",
        "０",
        "十",
        "同",
        "同　",
        "歩",
        "成銀",
        "成",
        "不成",
        "生",
        "打",
        "右",
        "直",
        "上",
        "引",
        "(77)",
        "(７７)",
        "(70)",
        "(7",
        "(",
        ")",
        "( 0:01/00:00:01)",
        "(1:2:3:4)",
        "( 0:5/)",
        "(+5)",
        "(  )",
        "(99999999999999999999)",
        ":",
        "/",
        "+",
        "投了",
        "先手",
        "x",
        "詰み",
        "後手",
        "上手",
        "中断",
        "反則負け",
        "\u{a0}",
        "☗",
        "▽",
        "ab",
        "ひよこ",
        "竜",
        "王",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20000))]
        #[test]
        fn fast_path_agrees_with_nom(parts in proptest::collection::vec(0usize..FRAGMENTS.len(), 0..14)) {
            let line: String = parts.iter().map(|&i| FRAGMENTS[i]).collect();
            if let Some((fast, col)) = kif_line_utf8(&line) {
                proptest::prop_assert_eq!(col, crate::text::syntax::column(&line, fast.body_offset), "{}", line);
                proptest::prop_assert_eq!(Ok(fast), kif_line_nom(&line), "{}", line);
            }
        }

        #[test]
        fn fast_path_agrees_on_plain_lines(
            n in 0u32..300, f in 0usize..9, r in 0usize..9, role in 0usize..6, suf in 0usize..4,
            of in 1u8..10, or in 1u8..10, t in 0u64..100000, pad in 0usize..4,
        ) {
            let dest = if f == 0 { "同　".to_string() } else {
                format!("{}{}", crate::japanese::lexicon::ZENKAKU_DIGITS[f], crate::japanese::lexicon::KANJI_DIGITS[r])
            };
            let role = ["歩", "成銀", "龍", "と", "玉", "金"][role];
            let suf = ["", "成", "不成", "打"][suf];
            let origin = if suf == "打" { String::new() } else { format!("({of}{or})") };
            let line = format!("{}{n} {dest}{role}{suf}{origin}{}( {}:{:02}/{:02}:{:02}:{:02})",
                " ".repeat(pad), " ".repeat(pad), t / 60, t % 60, t / 3600, t / 60 % 60, t % 60);
            let fast = kif_line_fast(&line);
            proptest::prop_assert!(fast.is_some(), "{}", line);
            proptest::prop_assert_eq!(Ok(fast.unwrap()), kif_line_nom(&line), "{}", line);
            let (sjis, _, bad) = encoding_rs::SHIFT_JIS.encode(&line);
            proptest::prop_assert!(!bad);
            let fast = kif_line_sjis(&sjis);
            // `不成` is a dialect the reader reports: left to nom.
            proptest::prop_assert_eq!(fast.is_some(), suf != "不成", "{}", line);
            sjis_agrees(&line, fast)?;
        }

        /// The Shift_JIS bytes path agrees with nom on the decoded line
        /// wherever it answers.
        #[test]
        fn sjis_path_agrees_with_nom(parts in proptest::collection::vec(0usize..FRAGMENTS.len(), 0..14)) {
            let line: String = parts.iter().map(|&i| FRAGMENTS[i]).collect();
            let (sjis, _, bad) = encoding_rs::SHIFT_JIS.encode(&line);
            if !bad {
                sjis_agrees(&line, kif_line_sjis(&sjis))?;
            }
        }

        /// Arbitrary bytes: the Shift_JIS path answers only for lines that
        /// decode, and then as nom reads the decoded line.
        #[test]
        fn sjis_path_on_any_bytes(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40)) {
            let fast = kif_line_sjis(&bytes);
            if fast.is_some() {
                let line = encoding_rs::SHIFT_JIS
                    .decode_without_bom_handling_and_without_replacement(&bytes);
                proptest::prop_assert!(line.is_some());
                sjis_agrees(&line.unwrap(), fast)?;
            }
        }
    }

    /// What [`kif_line_sjis`] answered for the Shift_JIS form of `line` is
    /// what nom reads from `line` (the body offset compared as a column).
    fn sjis_agrees(
        line: &str,
        fast: Option<(KifLine<'_>, &[u8], u32)>,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        if let Some((fast, written, col)) = fast {
            let nom = kif_line_nom(line);
            proptest::prop_assert!(nom.is_ok(), "{}", line);
            let nom = nom.unwrap();
            proptest::prop_assert_eq!(col, crate::text::syntax::column(line, nom.body_offset));
            let written = crate::text::WrittenText::shift_jis(written).text();
            proptest::prop_assert_eq!(&*written, nom.written, "{}", line);
            proptest::prop_assert_eq!(
                KifLine {
                    body_offset: 0,
                    written: "",
                    ..fast
                },
                KifLine {
                    body_offset: 0,
                    written: "",
                    ..nom
                },
                "{}",
                line
            );
        }
        Ok(())
    }
}

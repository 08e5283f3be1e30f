//! The KI2 move line grammar (`▲７六歩    △３四歩    ▲同　角成`): side
//! marks and the tokens between them. Syntax only, no position; the move
//! text is [`crate::japanese::moves`]'s.

use crate::japanese::lexicon::is_space;
use crate::japanese::moves::{
    dest, dest_fast, is_side_mark, move_text, move_text_fast, side_mark, skip_spaces, spaces,
    A_KI2_SUFFIX, A_MOVE_AFTER_MARK, A_SIDE_MARK,
};
pub use crate::japanese::moves::{is_ki2_move_line, offset, Body};
use crate::rules::color::Color;
use crate::text::syntax::{expect, into_error, PResult, SyntaxError};
use nom::branch::alt;
use nom::bytes::complete::take_till;
use nom::combinator::{cut, map, peek, rest, verify};
use nom::sequence::{preceded, terminated};
use nom::Parser;

/// One KI2 move token (between side marks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ki2Token<'a> {
    /// Byte offset of the mark in the line.
    pub offset: usize,
    /// The side mark.
    pub color: Color,
    /// The token as written (mark included, spaces trimmed).
    pub written: &'a str,
    /// The move or a terminal word.
    pub body: Body<'a>,
}

/// The body of a KI2 token (the text up to the next side mark, trailing
/// spaces trimmed): a move and nothing after it, or a terminal word.
fn ki2_body(i: &str) -> PResult<&str, Body<'_>> {
    let the_end = expect(A_KI2_SUFFIX, nom::combinator::eof);
    let word = verify(preceded(spaces, rest), |w: &str| !w.is_empty());
    alt((
        preceded(
            peek(dest),
            cut(terminated(map(move_text, Body::Move), the_end)),
        ),
        expect(A_MOVE_AFTER_MARK, map(word, Body::Terminal)),
    ))
    .parse(i)
}

/// One KI2 token: a side mark and what follows up to the next mark; the
/// body is parsed on its own slice (so the token's end is where a move
/// must end).
fn ki2_token(i: &str) -> PResult<&str, (Color, &str, Body<'_>)> {
    let (after_mark, color) = expect(A_SIDE_MARK, side_mark).parse(i)?;
    let (next, token) = take_till(is_side_mark).parse(after_mark)?;
    let body_text = token.trim_end_matches(is_space);
    let (_, body) = ki2_body(body_text)?;
    let written = &i[..i.len() - after_mark.len() + body_text.len()];
    let (next, _) = spaces(next)?;
    Ok((next, (color, written, body)))
}

/// The fast path of [`ki2_token`] (see [`crate::japanese::moves`]): a side
/// mark and a plain move, with the same result as the nom parsers; `None`
/// for anything else, which the nom parsers then read.
fn ki2_token_fast(i: &str) -> Option<(&str, (Color, &str, Body<'_>))> {
    let c = i.chars().next()?;
    let color = match c {
        '▲' | '☗' | '▼' => Color::Black,
        '△' | '☖' | '▽' => Color::White,
        _ => return None,
    };
    let after_mark = &i[c.len_utf8()..];
    let end = after_mark.find(is_side_mark).unwrap_or(after_mark.len());
    let (token, next) = after_mark.split_at(end);
    let body_text = token.trim_end_matches(is_space);
    dest_fast(body_text)?;
    let (rest, mt) = move_text_fast(body_text)?;
    if !rest.is_empty() {
        return None;
    }
    let written = &i[..i.len() - after_mark.len() + body_text.len()];
    Some((skip_spaces(next), (color, written, Body::Move(mt))))
}

/// The tokens of a KI2 move line, in order; an error ends them.
pub struct Ki2Tokens<'a> {
    line: &'a str,
    rest: &'a str,
}

impl<'a> Iterator for Ki2Tokens<'a> {
    type Item = Result<Ki2Token<'a>, SyntaxError<&'a str>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let start = self.rest;
        if let Some((next, (color, written, body))) = ki2_token_fast(start) {
            self.rest = next;
            return Some(Ok(Ki2Token {
                offset: offset(self.line, start),
                color,
                written,
                body,
            }));
        }
        match ki2_token(start) {
            Ok((next, (color, written, body))) => {
                self.rest = next;
                Some(Ok(Ki2Token {
                    offset: offset(self.line, start),
                    color,
                    written,
                    body,
                }))
            }
            Err(e) => {
                self.rest = "";
                Some(Err(into_error(e, start)))
            }
        }
    }
}

/// The tokens of a KI2 move line (`▲７六歩    △３四歩`), without
/// allocating.
pub fn ki2_tokens(line: &str) -> Ki2Tokens<'_> {
    Ki2Tokens {
        line,
        rest: line.trim_start_matches(is_space),
    }
}

/// Splits a KI2 move line into tokens and parses each. Stops at the first
/// error, returning the tokens before it and the error.
pub fn ki2_line(line: &str) -> (Vec<Ki2Token<'_>>, Option<SyntaxError<&str>>) {
    let mut out = Vec::new();
    for t in ki2_tokens(line) {
        match t {
            Ok(t) => out.push(t),
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::japanese::marks::{Horizontal, Vertical};

    #[test]
    fn ki2_tokens() {
        let (t, e) = ki2_line("▲７六歩    △３四歩    ▲同　角成  △同銀");
        assert!(e.is_none());
        assert_eq!(t.len(), 4);
        assert_eq!(t[2].written, "▲同　角成");
        let (t, e) = ki2_line("▲５五金左上 △５四銀右引不成");
        assert!(e.is_none());
        match t[1].body {
            Body::Move(m) => {
                assert_eq!(m.mark.horizontal, Some(Horizontal::Right));
                assert_eq!(m.mark.vertical, Some(Vertical::Down));
                assert_eq!(m.promote, Some(false));
            }
            _ => panic!(),
        }
    }

    const FRAGMENTS: &[&str] = &[
        " ", "  ", "\t", "\u{3000}", "▲", "△", "☗", "▽", "７", "7", "六", "6", "０", "同", "同　",
        "歩", "成銀", "成", "不成", "生", "打", "右", "左", "直", "上", "寄", "引", "(77)", "(",
        ")", "投了", "x", "詰み", "竜", "王",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20000))]
        #[test]
        fn fast_path_agrees_with_nom(parts in proptest::collection::vec(0usize..FRAGMENTS.len(), 0..14)) {
            let line: String = parts.iter().map(|&i| FRAGMENTS[i]).collect();
            if let Some(fast) = ki2_token_fast(&line) {
                proptest::prop_assert_eq!(Ok(fast), ki2_token(&line), "{}", line);
            }
        }
    }
}

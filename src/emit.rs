//! The output layer below the formats: what every writer shares, its
//! [`Output`], [`WriteError`] and the account of what the target format
//! could not hold ([`Dropped`]), and what every writer decides alike
//! (header entries that restate the start, the terminal a result line
//! states). `write` (the dispatch over the formats) re-exports it under
//! its public paths (`kifu::write::…`).

use std::fmt;

/// What a writer had to leave out or change because the target format
/// cannot hold it, and what it kept only as comment text. `kifu convert`
/// prints it as one line per input ([`Dropped::note`]: `dropped: header
/// 放送日, 3 comments; kept as comments: time control`).
///
/// Every writer counts here exactly what reading its output back would not
/// give again; the round-trip tests (`tests/convert.rs`,
/// `tests/dropped.rs`) hold them to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Variations (alternative lines).
    pub variations: usize,
    /// Comments.
    pub comments: usize,
    /// Move times (or their precision: milliseconds a format writes in
    /// seconds).
    pub times: usize,
    /// Header entries, by key.
    pub headers: Named,
    /// Terminal events that could not be expressed (or only
    /// approximately), by their `reason` word.
    pub terminals: Named,
    /// Result lines (`まで…`, `[Result]`, a result header) whose content the
    /// output does not carry: a result apart from the moves that the
    /// written terminal does not state, or that states another number of
    /// moves.
    pub results: usize,
    /// Engine evaluations the output holds only approximately: a mate
    /// score written as ±30000 in CSA (the number of moves to the mate is
    /// lost). An evaluation kept as comment text is in `as_comments`.
    pub evaluations: usize,
    /// What the output keeps only as comment text, not as the data it is,
    /// by what it is: `engine evaluation` (an evaluation whose PV does not
    /// replay, or cannot be written in the target's form, stays the
    /// comment it was), `time control` (a time control the CSA `$TIME` or
    /// `$TIME_LIMIT` line cannot state). The text is all there; a program
    /// that reads the target's own fields does not find it in them.
    pub as_comments: Named,
    /// Texts changed to fit the format: a line break (or another line
    /// separator: VT, FF, NEL, U+2028, …) in a field written on one line (a
    /// header, a player's name), a line separator other than CR and LF in
    /// a comment (written as a line break), a `}` in a PSN comment block,
    /// a comment line that would read back as the format's own syntax.
    pub altered: usize,
}

/// Names with counts, in the order first seen (what [`Dropped`] lists by
/// name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Named(Vec<(String, usize)>);

impl Named {
    /// Counts one more `name`.
    pub fn add(&mut self, name: &str) {
        self.add_n(name, 1);
    }

    fn add_n(&mut self, name: &str, n: usize) {
        if n == 0 {
            return;
        }
        match self.0.iter_mut().find(|(k, _)| k == name) {
            Some(e) => e.1 += n,
            None => self.0.push((name.to_string(), n)),
        }
    }

    /// How many in all.
    pub fn count(&self) -> usize {
        self.0.iter().map(|(_, n)| n).sum()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `name` was counted.
    pub fn contains(&self, name: &str) -> bool {
        self.0.iter().any(|(k, _)| k == name)
    }

    /// The names and their counts, in the order first seen.
    pub fn iter(&self) -> impl Iterator<Item = (&str, usize)> {
        self.0.iter().map(|(k, n)| (k.as_str(), *n))
    }
}

impl Dropped {
    /// Whether nothing was dropped.
    pub fn is_empty(&self) -> bool {
        *self == Dropped::default()
    }

    /// Adds another account to this one.
    pub fn add(&mut self, other: &Dropped) {
        self.variations += other.variations;
        self.comments += other.comments;
        self.times += other.times;
        for (k, n) in other.headers.iter() {
            self.headers.add_n(k, n);
        }
        for (k, n) in other.terminals.iter() {
            self.terminals.add_n(k, n);
        }
        self.results += other.results;
        self.evaluations += other.evaluations;
        for (k, n) in other.as_comments.iter() {
            self.as_comments.add_n(k, n);
        }
        self.altered += other.altered;
    }

    /// Whether something was lost (not only kept as comment text).
    pub fn lost_any(&self) -> bool {
        Dropped {
            as_comments: Named::default(),
            ..self.clone()
        } != Dropped::default()
    }

    /// The account as `kifu convert` prints it, one line: `dropped: …`
    /// for what was lost (as [`Dropped`]'s `Display` lists it), then
    /// `kept as comments: …` for what only comment text holds (`dropped:
    /// 3 variations; kept as comments: engine evaluation (×200)`); empty
    /// when nothing is either.
    pub fn note(&self) -> String {
        let mut parts = Vec::new();
        if self.lost_any() {
            parts.push(format!("dropped: {self}"));
        }
        if !self.as_comments.is_empty() {
            let kept: Vec<String> = self
                .as_comments
                .iter()
                .map(|(k, n)| {
                    if n == 1 {
                        k.to_string()
                    } else {
                        format!("{k} (×{n})")
                    }
                })
                .collect();
            parts.push(format!("kept as comments: {}", kept.join(", ")));
        }
        parts.join("; ")
    }
}

impl fmt::Display for Dropped {
    /// `header 放送日, 3 variations, 41 comments, terminal event try` (only
    /// what was lost, not what was kept as comment text: see
    /// [`Dropped::note`]; a name counted more than once gets `(×N)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn count(items: &mut Vec<String>, n: usize, one: &str, many: &str) {
            if n > 0 {
                items.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        }
        fn named(items: &mut Vec<String>, list: &Named, what: &str) {
            for (k, n) in list.iter() {
                if n == 1 {
                    items.push(format!("{what} {k}"));
                } else {
                    items.push(format!("{what} {k} (×{n})"));
                }
            }
        }
        let mut items = Vec::new();
        named(&mut items, &self.headers, "header");
        count(&mut items, self.variations, "variation", "variations");
        count(&mut items, self.comments, "comment", "comments");
        count(&mut items, self.times, "move time", "move times");
        count(&mut items, self.results, "result line", "result lines");
        named(&mut items, &self.terminals, "terminal event");
        count(
            &mut items,
            self.evaluations,
            "engine mate score written as ±30000",
            "engine mate scores written as ±30000",
        );
        count(&mut items, self.altered, "altered text", "altered texts");
        f.write_str(&items.join(", "))
    }
}

/// Whether `c` ends a line for some line-aware reader: LF and CR, which
/// kifu's readers split on, and the other line separators of Unicode that
/// Python's `str.splitlines`, editors and terminals also take for line
/// breaks: VT, FF, the information separators FS, GS and RS, NEL (U+0085),
/// LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029).
pub fn is_line_separator(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\x0B'
            | '\x0C'
            | '\x1C'
            | '\x1D'
            | '\x1E'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// `s` for a field written on one line: every line break (CRLF, and each
/// of [`is_line_separator`]) becomes a space, and `altered` counts the
/// change, so that no text of a record can start a line of its own in the
/// output, for kifu's readers or any other line-aware one.
pub fn one_line<'a>(s: &'a str, altered: &mut usize) -> std::borrow::Cow<'a, str> {
    if s.contains(is_line_separator) {
        *altered += 1;
        std::borrow::Cow::Owned(s.replace("\r\n", " ").replace(is_line_separator, " "))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// The lines of a multi-line text, split as the readers split lines (CRLF,
/// lone CR, LF) and at every other [`is_line_separator`], for formats that
/// write each line of a comment with its own prefix: no part of a comment
/// starts a line without it. The text read back has a line break where
/// such a separator was; [`extra_breaks`] tells when to count that.
pub fn text_lines(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.find(is_line_separator) {
            Some(i) => {
                let skip = if r[i..].starts_with("\r\n") {
                    2
                } else {
                    r[i..].chars().next().map_or(1, char::len_utf8)
                };
                rest = Some(&r[i + skip..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Whether [`text_lines`] breaks `s` where kifu's readers would not (at a
/// separator other than CR and LF): the text then reads back changed, an
/// alteration to count.
pub fn extra_breaks(s: &str) -> bool {
    s.contains(|c| is_line_separator(c) && c != '\n' && c != '\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_as_readers_split_them() {
        let v: Vec<&str> = text_lines("a\r\nb\rc\nd").collect();
        assert_eq!(v, ["a", "b", "c", "d"]);
        assert_eq!(text_lines("").collect::<Vec<_>>(), [""]);
        let mut n = 0;
        assert_eq!(one_line("x\r\ny\nz", &mut n), "x y z");
        assert_eq!(one_line("xyz", &mut n), "xyz");
        assert_eq!(n, 1);
        let forged = "a\x0Bb\x0Cc\x1Cd\x1De\x1Ef\u{85}g\u{2028}h\u{2029}i";
        assert_eq!(one_line(forged, &mut n), "a b c d e f g h i");
        assert_eq!(n, 2);
        let v: Vec<&str> = text_lines(forged).collect();
        assert_eq!(v, ["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
        assert!(extra_breaks(forged) && !extra_breaks("a\r\nb"));
    }
}

/// A written record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The text (UTF-8; encode it with [`crate::text::decode::encode`] for
    /// Shift_JIS targets).
    pub text: String,
    /// What could not be written.
    pub dropped: Dropped,
}

/// Why a record could not be written at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// What went wrong, for a person.
    pub message: String,
}

impl WriteError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> WriteError {
        WriteError {
            message: message.into(),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WriteError {}

// ---------------------------------------------------------------------------
// What every writer decides alike: header entries that restate the start,
// the terminal a result line states, and whether a result line survives.

/// Whether a header entry only restates the start position: a `手合割` (or
/// `Handicap`) entry naming the standard start or the variant the record
/// starts from. Every writer writes the start in its own way (a `手合割`
/// line, `PI`, a JKF preset, a PSN tag), so leaving such an entry out loses
/// nothing.
pub(crate) fn restates_start(
    key: &crate::record::HeaderKey,
    value: &str,
    record: &crate::record::Record,
) -> bool {
    use crate::record::HeaderKey;
    let HeaderKey::Other(k) = key else {
        return false;
    };
    if k != "手合割" && !k.eq_ignore_ascii_case("handicap") {
        return false;
    }
    let setup = &record.start.setup;
    let same = |s: &crate::rules::setup::Setup| {
        s.variant == setup.variant
            && s.board == setup.board
            && s.hands == setup.hands
            && s.turn == setup.turn
    };
    if let Some(h) = crate::rules::handicap::Handicap::from_name(value) {
        return same(&h.setup());
    }
    let v = crate::text::notation::lexicon::trim(value);
    let variant = match v {
        "5五将棋" | "５五将棋" => crate::rules::variant::Variant::Minishogi,
        "どうぶつしょうぎ" => crate::rules::variant::Variant::Doubutsu,
        _ => return false,
    };
    same(&crate::record::Start::variant(variant).setup)
}

/// The side to move after the main line, and the number of the last
/// main-line move counted from the game's first move (what a `まで` line
/// states).
pub(crate) fn main_end(record: &crate::record::Record) -> (crate::rules::color::Color, u32) {
    let n = record.main.moves.len() as u32;
    let turn = record.start.setup.turn;
    let to_move = if n.is_multiple_of(2) { turn } else { !turn };
    (to_move, n + record.start.setup.ply.saturating_sub(1))
}

/// The terminal a result line states, when the main line has none of its
/// own: `まで4手で後手の勝ち` after gote's move is sente's resignation,
/// `まで5手で中断` an interruption. `None` when the line states no terminal
/// the side to move makes true (a winner who is to move, with no reason).
pub(crate) fn claim_terminal(
    claim: &crate::record::ResultClaim,
    to_move: crate::rules::color::Color,
) -> Option<crate::record::TerminalKind> {
    use crate::record::{Outcome, TerminalKind};
    let kind = match &claim.kind {
        Some(k) => k.clone(),
        None => match claim.outcome.winner() {
            Some(w) if w != to_move => TerminalKind::Resign,
            _ => return None,
        },
    };
    // The terminal must give the result the line states.
    let o = kind.outcome(to_move);
    (claim.outcome == Outcome::Unknown || o == claim.outcome).then_some(kind)
}

/// The terminal a writer writes at the end of the main line: the record's,
/// or, when the main line has none, the one its result line states
/// (`まで4手で後手の勝ち` after gote's move: sente resigned; `まで5手で中断`).
/// CSA, JKF and KI2 write the result of a KIF `まで` line or a PSN
/// `[Result]` so.
///
/// ```
/// use kifu::record::TerminalKind;
/// let kif = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で後手の勝ち\n";
/// let game = &kifu::read::read_all(kif.as_bytes(), None, &Default::default())[0];
/// assert!(game.record.main.terminal.is_none());
/// let t = kifu::write::main_terminal(&game.record).unwrap();
/// assert_eq!(t.kind, TerminalKind::Resign);
/// ```
pub fn main_terminal(
    record: &crate::record::Record,
) -> Option<std::borrow::Cow<'_, crate::record::Terminal>> {
    use std::borrow::Cow;
    if let Some(t) = &record.main.terminal {
        return Some(Cow::Borrowed(t));
    }
    let claim = record.claim.as_ref()?;
    let (to_move, _) = main_end(record);
    let kind = claim_terminal(claim, to_move)?;
    Some(Cow::Owned(crate::record::Terminal {
        kind,
        time: Default::default(),
        comments: Vec::new(),
        location: claim.location,
    }))
}

/// Whether the record's result line (if any) is carried by an output that
/// writes the terminal `written` at the end of the main line: a reader of
/// the output gets the same result, reason and number of moves back (a
/// KIF writer would write the same `まで` line again).
pub(crate) fn claim_carried(
    record: &crate::record::Record,
    written: Option<&crate::record::TerminalKind>,
) -> bool {
    use crate::record::Outcome;
    let Some(claim) = &record.claim else {
        return true;
    };
    let (to_move, plies) = main_end(record);
    if claim.plies.is_some_and(|n| n != plies) {
        return false;
    }
    let Some(k) = written else {
        return claim.kind.is_none() && claim.outcome == Outcome::Unknown;
    };
    if claim.outcome != Outcome::Unknown && claim.outcome != k.outcome(to_move) {
        return false;
    }
    match &claim.kind {
        None => true,
        Some(c) => same_kind(c, k, to_move),
    }
}

/// Whether a result line stating the terminal `claimed` is stated again by
/// the terminal `written` (with `to_move` to move).
pub(crate) fn same_kind(
    claimed: &crate::record::TerminalKind,
    written: &crate::record::TerminalKind,
    to_move: crate::rules::color::Color,
) -> bool {
    use crate::record::TerminalKind;
    claimed == written
        || (claimed.reason() == written.reason()
            && claimed.outcome(to_move) == written.outcome(to_move))
        // `持将棋` is the KIF word of every drawn ending but repetition.
        || (*claimed == TerminalKind::Impasse
            && matches!(
                written,
                TerminalKind::MaxMoves | TerminalKind::DeclarationDraw | TerminalKind::Draw
            ))
}

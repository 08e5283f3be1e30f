//! What every reader sends its events through: starts the game on the
//! first event, keeps track of what the visitor asked to skip, and holds
//! each game to the caps below (the same in every format), so that readers
//! need not.

use super::visitor::{MoveEvent, Visitor};
use super::{Finding, Rule};
use crate::record::{HeaderKey, Location, MoveTime, ResultClaim, Start, TerminalKind};

/// The most variations one game may hold (all depths together): the
/// variation beyond is reported once (rule `limit`, at its line and
/// column) and left out with every later one; the rest of the game is read.
pub const MAX_GAME_VARIATIONS: u32 = 1 << 16;

/// The most text one game may keep in comments and header entries
/// together, each comment line or header entry counting
/// [`TEXT_ENTRY_COST`] bytes more than its text: the entry beyond is
/// reported once (rule `limit`, at its line and column) and left out with
/// every later one; the moves are still read.
pub const MAX_GAME_TEXT_BYTES: usize = 16 << 20;

/// What one comment line or header entry counts towards
/// [`MAX_GAME_TEXT_BYTES`] beyond its text: about what holding it costs in
/// a built record, so that many short lines are bounded as a few long ones.
pub const TEXT_ENTRY_COST: usize = 64;

/// The most findings the reader reports for one game: the findings beyond
/// are counted, not kept, and one `limit` finding at the first of them
/// says how many there were.
pub const MAX_GAME_FINDINGS: u32 = 10_000;

/// A visitor with the skip state of one game.
pub(crate) struct Sink<'v, V: Visitor + ?Sized> {
    v: &'v mut V,
    index: usize,
    begun: bool,
    /// The visitor skips the rest of the game.
    skip: bool,
    /// Depth inside a skipped variation (0 = not in one).
    skip_depth: u32,
    /// Events go to the visitor: begun, not skipping, not in a skipped
    /// variation (the three tests of every event in one).
    open: bool,
    /// Variations sent to the visitor ([`MAX_GAME_VARIATIONS`]).
    variations: u32,
    /// Comment and header bytes sent, with their entry costs
    /// ([`MAX_GAME_TEXT_BYTES`]).
    text_bytes: usize,
    /// Findings sent ([`MAX_GAME_FINDINGS`]).
    findings: u32,
    /// Findings beyond the cap, and where the first of them was.
    findings_over: Option<(u64, Location)>,
}

impl<'v, V: Visitor + ?Sized> Sink<'v, V> {
    /// A sink for game `index`; nothing is sent until the first event.
    pub fn new(v: &'v mut V, index: usize) -> Sink<'v, V> {
        Sink {
            v,
            index,
            begun: false,
            skip: false,
            skip_depth: 0,
            open: false,
            variations: 0,
            text_bytes: 0,
            findings: 0,
            findings_over: None,
        }
    }

    /// Whether the game has begun (an event was sent).
    pub fn begun(&self) -> bool {
        self.begun
    }

    /// Begins the game if it has not begun.
    #[inline]
    pub fn begin(&mut self) {
        if !self.begun {
            self.begin_now();
        }
    }

    #[cold]
    #[inline(never)]
    fn begin_now(&mut self) {
        self.begun = true;
        if self.v.begin_game(self.index).is_break() {
            self.skip = true;
        }
        self.reopen();
    }

    fn reopen(&mut self) {
        self.open = self.begun && !self.skip && self.skip_depth == 0;
    }

    #[inline]
    fn live(&mut self) -> bool {
        if self.open {
            return true;
        }
        self.begin();
        self.open
    }

    #[inline]
    fn sent(&mut self, flow: super::Flow) {
        if flow.is_break() {
            self.skip = true;
            self.open = false;
        }
    }

    pub fn finding(&mut self, f: Finding) {
        if self.live() {
            if self.findings >= MAX_GAME_FINDINGS {
                let at = Location {
                    line: f.line,
                    column: f.column,
                };
                self.findings_over.get_or_insert((0, at)).0 += 1;
                return;
            }
            self.findings += 1;
            let r = self.v.finding(f);
            self.sent(r);
        }
    }

    /// Whether `bytes` more of comment or header text fit the game's
    /// [`MAX_GAME_TEXT_BYTES`]; the first entry that does not is reported.
    fn text_fits(&mut self, bytes: usize, at: Location) -> bool {
        let cost = bytes.saturating_add(TEXT_ENTRY_COST);
        if self.text_bytes <= MAX_GAME_TEXT_BYTES && MAX_GAME_TEXT_BYTES - self.text_bytes >= cost {
            self.text_bytes += cost;
            return true;
        }
        if self.text_bytes <= MAX_GAME_TEXT_BYTES {
            // Over from now on: reported once.
            self.text_bytes = usize::MAX;
            self.limit(
                at,
                format!(
                    "the game's comments and header entries exceed {} MiB (each line counted {TEXT_ENTRY_COST} bytes more than its text); this one and the rest are not read",
                    MAX_GAME_TEXT_BYTES >> 20
                ),
            );
        }
        false
    }

    /// Reports a cap the game goes over (a `limit` error, sent whatever
    /// the findings cap).
    fn limit(&mut self, at: Location, message: String) {
        let r = self.v.finding(Finding::error(Rule::Limit, at, message));
        self.sent(r);
    }

    pub fn header(&mut self, key: &HeaderKey, value: &str, at: Location) {
        if self.live() && self.text_fits(key_len(key) + value.len(), at) && self.open {
            let r = self.v.header(key, value, at);
            self.sent(r);
        }
    }

    pub fn start(&mut self, start: &Start) {
        if self.live() {
            let r = self.v.start(start);
            self.sent(r);
        }
    }

    pub fn comment(&mut self, text: &str, at: Location) {
        if self.live() && self.text_fits(text.len(), at) && self.open {
            let r = self.v.comment(text, at);
            self.sent(r);
        }
    }

    #[inline]
    pub fn movement(&mut self, mv: &MoveEvent<'_>) {
        if self.live() {
            let r = self.v.movement(mv);
            self.sent(r);
        }
    }

    #[inline]
    pub fn time(&mut self, time: MoveTime, at: Location) {
        if self.live() {
            let r = self.v.time(time, at);
            self.sent(r);
        }
    }

    pub fn terminal(&mut self, kind: &TerminalKind, at: Location) {
        if self.live() {
            let r = self.v.terminal(kind, at);
            self.sent(r);
        }
    }

    pub fn claim(&mut self, claim: &ResultClaim) {
        if self.live() {
            let r = self.v.claim(claim);
            self.sent(r);
        }
    }

    pub fn begin_variation(&mut self, ply: u32, at: Location) {
        self.begin();
        if self.skip {
            return;
        }
        if self.skip_depth > 0 {
            self.skip_depth += 1;
        } else if self.variations >= MAX_GAME_VARIATIONS {
            if self.variations == MAX_GAME_VARIATIONS {
                self.variations += 1;
                self.limit(
                    at,
                    format!(
                        "the game has more than {MAX_GAME_VARIATIONS} variations; this one and the rest are not read"
                    ),
                );
            }
            if !self.skip {
                self.skip_depth = 1;
            }
        } else {
            self.variations += 1;
            if self.v.begin_variation(ply, at).is_break() {
                self.skip_depth = 1;
            }
        }
        self.reopen();
    }

    pub fn end_variation(&mut self) {
        if self.skip {
            return;
        }
        if self.skip_depth > 0 {
            self.skip_depth -= 1;
            self.reopen();
        } else {
            let r = self.v.end_variation();
            self.sent(r);
        }
    }

    /// Ends the game (beginning it first if nothing was sent), with the
    /// count of the findings beyond [`MAX_GAME_FINDINGS`] if there were.
    pub fn finish(mut self) -> V::Output {
        self.begin();
        if let Some((n, at)) = self.findings_over.take() {
            if !self.skip {
                self.limit(
                    at,
                    format!(
                        "{n} more findings in this game after the first {MAX_GAME_FINDINGS}, from here on, are not listed"
                    ),
                );
            }
        }
        self.v.end_game()
    }
}

/// The bytes of a header key that a built record holds.
fn key_len(key: &HeaderKey) -> usize {
    match key {
        HeaderKey::Other(k) => k.len(),
        _ => 0,
    }
}

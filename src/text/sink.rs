//! What every reader sends its events through: starts the game on the
//! first event and keeps track of what the visitor asked to skip, so that
//! readers need not.

use super::visitor::{MoveEvent, Visitor};
use super::Finding;
use crate::record::{HeaderKey, Location, MoveTime, ResultClaim, Start, TerminalKind};

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
        }
    }

    /// Whether the game has begun (an event was sent).
    pub fn begun(&self) -> bool {
        self.begun
    }

    /// Whether the visitor skips the rest of the game: a reader may stop
    /// parsing and look only for the game's end.
    #[allow(dead_code)]
    pub fn skipping(&self) -> bool {
        self.skip
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
            let r = self.v.finding(f);
            self.sent(r);
        }
    }

    pub fn header(&mut self, key: &HeaderKey, value: &str, at: Location) {
        if self.live() {
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
        if self.live() {
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

    #[allow(dead_code)]
    pub fn claim(&mut self, claim: &ResultClaim) {
        if self.live() {
            let r = self.v.claim(claim);
            self.sent(r);
        }
    }

    #[allow(dead_code)]
    pub fn begin_variation(&mut self, ply: u32, at: Location) {
        self.begin();
        if self.skip {
            return;
        }
        if self.skip_depth > 0 {
            self.skip_depth += 1;
        } else if self.v.begin_variation(ply, at).is_break() {
            self.skip_depth = 1;
        }
        self.reopen();
    }

    #[allow(dead_code)]
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

    /// Ends the game (beginning it first if nothing was sent).
    pub fn finish(mut self) -> V::Output {
        self.begin();
        self.v.end_game()
    }
}

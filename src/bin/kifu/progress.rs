//! A progress bar on standard error, shown only on a terminal and only when
//! the work lasts more than a moment.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Files and games done, with a rate and an ETA over files (or over
/// bytes, when a tar is read as it streams: see [`Progress::bytes`]).
pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
    shown: bool,
    games: u64,
    /// By bytes: where each input starts in the bar (by input index).
    offsets: Option<Vec<u64>>,
}

impl Progress {
    /// A bar over `files` files; hidden unless `enabled` and stderr is a terminal.
    pub fn new(files: u64, enabled: bool) -> Progress {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(files), ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} files  {msg}  [{elapsed_precise}, ETA {eta}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
            shown: false,
            games: 0,
            offsets: None,
        }
    }

    /// A bar over bytes: `sizes` are those of the inputs, by input index
    /// (a tar read as it streams counts its compressed size, and its
    /// members move the bar by the archive's bytes read, not one by one);
    /// hidden unless `enabled` and stderr is a terminal.
    pub fn bytes(sizes: &[u64], enabled: bool) -> Progress {
        let mut offsets = Vec::with_capacity(sizes.len());
        let mut total = 0u64;
        for &n in sizes {
            offsets.push(total);
            total += n;
        }
        let mut p = Progress::new(0, enabled);
        if let Some(bar) = &p.bar {
            bar.set_length(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {bytes}/{total_bytes}  {msg}  [{elapsed_precise}, ETA {eta}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
        }
        p.offsets = Some(offsets);
        p
    }

    fn maybe_show(&mut self) {
        if let Some(bar) = &self.bar {
            if !self.shown && self.start.elapsed() > Duration::from_millis(700) {
                bar.set_draw_target(ProgressDrawTarget::stderr());
                self.shown = true;
            }
        }
    }

    /// One more game.
    pub fn game(&mut self) {
        self.games += 1;
        if self.games.is_multiple_of(64) {
            self.maybe_show();
            if let Some(bar) = &self.bar {
                let secs = self.start.elapsed().as_secs_f64().max(1e-3);
                bar.set_message(format!(
                    "{} games, {:.0} games/s",
                    self.games,
                    self.games as f64 / secs
                ));
            }
        }
    }

    /// One more file read: `input` its index, `size` its bytes, `read`
    /// the bytes of its archive read when it was (a member of a tar read
    /// as it streams; 0 otherwise).
    pub fn file(&mut self, input: usize, size: u64, read: u64) {
        self.maybe_show();
        let Some(bar) = &self.bar else { return };
        match &self.offsets {
            None => bar.inc(1),
            Some(offsets) => {
                let at = offsets.get(input).copied().unwrap_or(0);
                let to = if read > 0 { at + read } else { at + size };
                if to > bar.position() {
                    bar.set_position(to);
                }
            }
        }
    }

    /// Prints a human-readable line (made visible, see
    /// [`crate::out::visible`]) on standard error, above the bar.
    pub fn println(&self, text: &str) {
        match &self.bar {
            Some(bar) if self.shown => bar.suspend(|| crate::out::err(text)),
            _ => crate::out::err(text),
        }
    }

    /// Prints text that is already safe to show (escaped, or a machine
    /// format) on standard error, above the bar, followed by a newline.
    pub fn print_raw(&self, text: &str) {
        match &self.bar {
            Some(bar) if self.shown => bar.suspend(|| crate::out::err_raw(text)),
            _ => crate::out::err_raw(text),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

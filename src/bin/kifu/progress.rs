//! A progress bar on standard error, shown only on a terminal and only when
//! the work lasts more than a moment.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Files and games done, with a rate and an ETA over files.
pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
    shown: bool,
    games: u64,
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
        }
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

    /// One more file.
    pub fn file(&mut self) {
        self.maybe_show();
        if let Some(bar) = &self.bar {
            bar.inc(1);
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

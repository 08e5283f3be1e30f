//! Calls that Ctrl-C interrupts. The work runs on its own thread, without
//! the GIL; the calling thread waits for it and looks for signals every
//! [`TICK`], so that `KeyboardInterrupt` arrives at once even while an
//! input blocks (a FIFO with no writer) or never ends (`/dev/zero`). On a
//! signal the library's [`Stop`] is set: the batch runner opens nothing
//! more and every read of an open input fails, so the thread ends soon
//! after (a thread blocked opening a FIFO ends when a writer comes or the
//! process exits, reading nothing).

use kifu::batch::{Stop, WORKER_STACK};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::time::Duration;

/// How often a waiting call looks for signals.
pub const TICK: Duration = Duration::from_millis(50);

/// Runs `work` on its own thread and waits for it without the GIL,
/// raising what a signal handler raises (`KeyboardInterrupt`) within
/// [`TICK`] of the signal, after setting the [`Stop`] `work` was given.
pub fn run<T, W>(py: Python<'_>, work: W) -> PyResult<T>
where
    T: Send + 'static,
    W: FnOnce(Stop) -> T + Send + 'static,
{
    let stop = Stop::new();
    let (tx, rx) = sync_channel(1);
    let s = stop.clone();
    std::thread::Builder::new()
        .name("kifu-call".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let _ = tx.send(work(s));
        })?;
    let mut rx = rx;
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(TICK);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(v) => return Ok(v),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop.stop();
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "kifu: the worker thread panicked; nothing was returned",
                ))
            }
        }
    }
}

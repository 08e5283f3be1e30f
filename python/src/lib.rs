//! `kifu._kifu`: the extension module behind the `kifu` Python package.
//!
//! Every function calls the `kifu` library (its reader, validator,
//! statistics collector and batch runner); nothing here parses, replays or
//! counts on its own. The GIL is released while the library works, and
//! Ctrl-C interrupts every call (`interrupt`).

use pyo3::prelude::*;

mod inputs;
mod interrupt;
mod positions;
mod read;
mod stats;
mod validate;

/// The extension module.
#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(read::read, m)?)?;
    m.add_function(wrap_pyfunction!(inputs::discover, m)?)?;
    m.add_function(wrap_pyfunction!(validate::validate, m)?)?;
    m.add_function(wrap_pyfunction!(stats::stats, m)?)?;
    m.add_function(wrap_pyfunction!(positions::positions_buffer, m)?)?;
    m.add_function(wrap_pyfunction!(positions::position_fields, m)?)?;
    m.add_class::<positions::Buffer>()?;
    m.add_class::<read::Game>()?;
    m.add_class::<read::GameResult>()?;
    m.add_class::<read::Finding>()?;
    m.add_class::<validate::Report>()?;
    m.add_class::<stats::StatsStream>()?;
    Ok(())
}

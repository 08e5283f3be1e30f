#![no_main]
//! Bytes read as csa: every game is validated, summarised and written to every format.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifu_fuzz::read_target(data, Some(kifu::read::Format::Csa));
});

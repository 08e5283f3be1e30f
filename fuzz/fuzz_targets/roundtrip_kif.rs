#![no_main]
//! Bytes read as kif, written back as kif and read again: the second read
//! adds no error and gives the same move tree.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifu_fuzz::roundtrip_target(data, kifu::read::Format::Kif);
});

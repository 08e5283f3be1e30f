#![no_main]
//! Bytes read as ki2, written back as ki2 and read again: the second read
//! adds no error and gives the same move tree.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifu_fuzz::roundtrip_target(data, kifu::read::Format::Ki2);
});

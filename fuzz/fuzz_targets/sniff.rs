#![no_main]
//! Bytes read with no format hint (the sniffer picks the reader).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifu_fuzz::read_target(data, None);
});

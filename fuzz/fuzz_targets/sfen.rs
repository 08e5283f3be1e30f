#![no_main]
//! SFEN text: parse, check, write, parse again.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifu_fuzz::sfen_target(data);
});

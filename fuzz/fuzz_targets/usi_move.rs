#![no_main]
//! USI move text: parse in every variant, check and play on a few positions.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifu_fuzz::usi_move_target(data);
});

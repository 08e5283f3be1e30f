#![no_main]
//! A visitor stopping games and skipping variations at random points: the
//! reader keeps its place in a multi-game stream.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifu_fuzz::visitor_break_target(data);
});

#![no_main]
//! Bytes decoded into moves (indices among the legal moves, raw
//! from/to/promote triples and drops); the engine's invariants must hold
//! after every move.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kifu_fuzz::replay_target(data);
});

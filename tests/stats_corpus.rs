//! The `kifu stats` tests that need what a machine may lack: the facts of
//! two real records of the shared corpus, and the tables loaded by
//! python3. Runs on `tests/support/trials.rs` (`harness = false`): without
//! them each is reported `ignored`, with the reason. The tests themselves
//! are in `tests/stats.rs`, included as a module.

#[allow(dead_code, unused_imports)]
#[path = "stats.rs"]
mod stats_tests;
#[path = "support/trials.rs"]
mod trials;

use trials::Skip;

fn main() {
    trials::main(trials![
        known_facts_of_real_records,
        loads_in_python_pandas_and_duckdb_when_present,
    ]);
}

fn known_facts_of_real_records() -> Result<(), Skip> {
    stats_tests::known_facts_of_real_records(&trials::corpus()?);
    Ok(())
}

fn loads_in_python_pandas_and_duckdb_when_present() -> Result<(), Skip> {
    stats_tests::loads_in_python_pandas_and_duckdb_when_present(&trials::program("python3")?);
    Ok(())
}

//! SARIF output checked against the official SARIF 2.1.0 schema, which is
//! fetched at test time (`tests/support/sarif_schema.rs`: through cargo,
//! or `KIFU_SARIF_SCHEMA`). Runs on `tests/support/trials.rs`
//! (`harness = false`): when the schema cannot be had (no network) the test
//! is reported `ignored`, with the reason. The test itself is in
//! `tests/report.rs`, included as a module.

#[allow(dead_code, unused_imports)]
#[path = "report.rs"]
mod report_tests;
#[path = "support/sarif_schema.rs"]
mod sarif_schema;
#[path = "support/trials.rs"]
mod trials;

use trials::Skip;

fn main() {
    trials::main(trials![sarif_validates_against_the_official_schema]);
}

fn sarif_validates_against_the_official_schema() -> Result<(), Skip> {
    let schema = sarif_schema::sarif_schema().map_err(|why| {
        Skip::new(
            "sarif-schema",
            format!("the SARIF 2.1.0 schema could not be obtained: {why}"),
        )
    })?;
    report_tests::sarif_validates_against_the_official_schema(schema);
    Ok(())
}

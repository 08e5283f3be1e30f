//! The selection tests that need the shared corpus (`../shared/corpus`):
//! real records of one game in several formats. Runs on
//! `tests/support/trials.rs` (`harness = false`): without the corpus it is
//! reported `ignored`, with the reason.

#[path = "support/trials.rs"]
mod trials;

use kifu::read::Reader;
use kifu::select::GameKey;
use kifu::validate::{ValidateOptions, Validator};
use trials::Skip;

fn main() {
    trials::main(trials![
        real_records_of_one_game_in_several_formats_share_a_key
    ]);
}

fn real_records_of_one_game_in_several_formats_share_a_key() -> Result<(), Skip> {
    // Real records from the shared corpus (read in place, never copied):
    // json-kifu-format's test files hold some games in several formats.
    let root = trials::corpus()?.join("json-kifu-format/files");
    let groups: [&[&str]; 4] = [
        &[
            "csa/8mai.csa",
            "ki2/8mai.ki2",
            "ki2/8mai.ki2u",
            "kif/8mai.kif",
        ],
        &["csa/9fu.csa", "ki2/9fu.ki2", "kif/9fu.kif"],
        &["csa/chudan.csa", "ki2/chudan.ki2", "kif/chudan.kif"],
        &["jkf/ryuou201409020101.jkf", "kif/ryuou201409020101.kif"],
    ];
    let mut firsts = Vec::new();
    for group in groups {
        let keys: Vec<GameKey> = group
            .iter()
            .map(|f| {
                let mut r = Reader::from_path(root.join(f)).unwrap();
                r.read_game(&mut Validator::new(ValidateOptions::default()))
                    .unwrap()
                    .game_key
            })
            .collect();
        assert!(keys.iter().all(|k| *k == keys[0]), "{group:?}: {keys:?}");
        firsts.push(keys[0]);
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 4, "four different games");
    Ok(())
}

//! Conversion fidelity (issue 15): what each target keeps, and a
//! `dropped:` account that names what it lost and nothing else.

use kifu::convert::{ConvertOptions, Target};
use kifu::read::{self, Encoding, Format, ReadOptions};
use kifu::record::Record;

fn read(text: &str, format: Format) -> Record {
    let games = read::read_all(text.as_bytes(), Some(format), &ReadOptions::default());
    assert_eq!(games.len(), 1);
    games.into_iter().next().unwrap().record
}

fn write(rec: &Record, t: Target) -> kifu::write::Output {
    let opts = ConvertOptions {
        encoding: Some(Encoding::Utf8),
        ..ConvertOptions::default()
    };
    t.write_one(rec, &opts).unwrap()
}

/// A one-move mate (gold drop) written by hand in CSA.
const MATE_CSA: &str = "V2.2\nN+Alpha\nN-Beta\nP1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  * +FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \nP+00KI\nP-00AL\n+\n+0012KI\n%TSUMI\n";

#[test]
fn ki2_keeps_a_checkmate_ending() {
    let rec = read(MATE_CSA, Format::Csa);
    let out = write(&rec, Target::Ki2u);
    assert!(out.text.contains("詰み"), "{}", out.text);
    assert!(out.dropped.terminals.is_empty(), "{:?}", out.dropped);
    let back = read(&out.text, Format::Ki2);
    assert_eq!(
        back.main.terminal.as_ref().map(|t| t.kind.clone()),
        Some(kifu::record::TerminalKind::Checkmate)
    );
}

#[test]
fn a_result_stated_only_in_a_made_line_reaches_csa_and_jkf() {
    // No 投了 line: only `まで3手で先手の勝ち` says gote resigned.
    let kif = "手合割：平手\n先手：Alpha\n後手：Beta\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\nまで3手で先手の勝ち\n";
    let rec = read(kif, Format::Kif);
    let csa = write(&rec, Target::Csa);
    assert!(csa.text.contains("\n%TORYO\n"), "{}", csa.text);
    assert_eq!(csa.dropped.results, 0, "{:?}", csa.dropped);
    let jkf = write(&rec, Target::Jkf);
    assert!(jkf.text.contains("\"TORYO\""), "{}", jkf.text);
    assert_eq!(jkf.dropped.results, 0, "{:?}", jkf.dropped);
    // USI cannot hold it: counted.
    let usi = write(&rec, Target::Usi);
    assert!(
        usi.dropped.results + usi.dropped.terminals.count() >= 1,
        "{:?}",
        usi.dropped
    );
}

#[test]
fn dropped_names_what_was_dropped() {
    let kif = "手合割：平手\n放送日：2024/01/02\n手数----指手--\n*opening note\n   1 ７六歩(77)\n*one\n   2 ３四歩(33)\n*two\n";
    let rec = read(kif, Format::Kif);
    let out = write(&rec, Target::Usi);
    assert_eq!(out.dropped.to_string(), "header 放送日, 3 comments");
}

#[test]
fn jkf_keeps_handicap_players_and_does_not_count_the_preset_lost() {
    let kif = "手合割：香落ち\n下手：Alpha\n上手：Beta\n手数----指手--\n   1 ３四歩(33)\n   2 ７六歩(77)\n";
    let rec = read(kif, Format::Kif);
    let out = write(&rec, Target::Jkf);
    let v: serde_json::Value = serde_json::from_str(&out.text).unwrap();
    assert_eq!(v["header"]["下手"], "Alpha", "{}", out.text);
    assert_eq!(v["header"]["上手"], "Beta", "{}", out.text);
    assert!(v["header"].get("先手").is_none(), "{}", out.text);
    assert_eq!(v["initial"]["preset"], "KY", "{}", out.text);
    assert!(out.dropped.is_empty(), "{}", out.dropped);
    // And an even game with 手合割：平手 drops nothing either.
    let even = read(
        "手合割：平手\n先手：Alpha\n後手：Beta\n手数----指手--\n   1 ７六歩(77)\n",
        Format::Kif,
    );
    let out = write(&even, Target::Jkf);
    assert!(out.dropped.is_empty(), "{}", out.dropped);
    assert!(out.text.contains("\"先手\""), "{}", out.text);
}

#[test]
fn shift_jis_output_maps_both_wave_dashes_to_0x8160() {
    let kif = "手合割：平手\n棋戦：春〜夏／秋～冬\n手数----指手--\n   1 ７六歩(77)\n*−３ ‖ ¢ £ ¬\n";
    let rec = read(kif, Format::Kif);
    let out = Target::Kif
        .write_one(&rec, &ConvertOptions::default())
        .unwrap();
    let bytes = kifu::convert::encode_output(&out.text, Encoding::ShiftJis).unwrap();
    let wave: Vec<usize> = bytes
        .windows(2)
        .enumerate()
        .filter(|(_, w)| *w == [0x81, 0x60])
        .map(|(i, _)| i)
        .collect();
    assert_eq!(wave.len(), 2, "〜 and ～ both give 0x8160");
    for pair in [
        [0x81u8, 0x7C],
        [0x81, 0x61],
        [0x81, 0x91],
        [0x81, 0x92],
        [0x81, 0xCA],
    ] {
        assert!(bytes.windows(2).any(|w| w == pair), "{pair:x?}");
    }
}

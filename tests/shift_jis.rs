//! Writing Shift_JIS as Windows (CP932) writes it: the JIS-style characters
//! (`〜` U+301C, `‖`, `−`, `—`, `¢`, `£`, `¬`) get the bytes CP932 has for
//! them instead of being refused, and read back as Windows reads them.
//! Runs on `tests/support/trials.rs` (`harness = false`): the comparison
//! with Python's encoder is reported `ignored` without python3.

use kifu::convert::{encode_output, ConvertOptions, Target};
use kifu::read::decode::{encode, CP932_EQUIVALENTS};
use kifu::read::{self, Encoding, Format, ReadOptions};
use trials::Skip;

#[path = "support/trials.rs"]
mod trials;

fn main() {
    trials::main(
        tests![
            jis_style_characters_get_their_cp932_bytes,
            a_record_with_a_wave_dash_converts_to_shift_jis_kif,
        ]
        .into_iter()
        .chain(trials![
            every_jis_style_character_is_written_as_python_shift_jis_writes_it
        ]),
    );
}

fn jis_style_characters_get_their_cp932_bytes() {
    let expected: [(char, &[u8]); 7] = [
        ('\u{301C}', &[0x81, 0x60]),
        ('\u{2016}', &[0x81, 0x61]),
        ('\u{2212}', &[0x81, 0x7C]),
        ('\u{2014}', &[0x81, 0x5C]),
        ('\u{00A2}', &[0x81, 0x91]),
        ('\u{00A3}', &[0x81, 0x92]),
        ('\u{00AC}', &[0x81, 0xCA]),
    ];
    for ((from, to), (c, bytes)) in CP932_EQUIVALENTS.iter().zip(expected) {
        assert_eq!(*from, c);
        let s = from.to_string();
        assert_eq!(encode(&s, Encoding::ShiftJis).unwrap(), bytes, "{from:?}");
        // The CP932 character has the same bytes, and is what they read as.
        assert_eq!(encode(&to.to_string(), Encoding::ShiftJis).unwrap(), bytes);
        let (back, _, bad) = encoding_rs::SHIFT_JIS.decode(bytes);
        assert!(!bad);
        assert_eq!(back, to.to_string(), "{from:?}");
    }
    // Mixed with text that needs no mapping, in one go.
    assert_eq!(
        encode("10時〜12時 ¢", Encoding::ShiftJis).unwrap(),
        encoding_rs::SHIFT_JIS
            .encode("10時～12時 ￠")
            .0
            .into_owned()
    );
    // What CP932 has no bytes for is still refused, with its name.
    assert_eq!(encode("▲☗", Encoding::ShiftJis), Err('☗'));
}

fn a_record_with_a_wave_dash_converts_to_shift_jis_kif() {
    let kif =
        "手合割：平手\n棋戦：春〜夏の部\n手数----指手--\n   1 ７六歩(77)\n*１０時〜１２時 ‖ −３\n";
    let game = &read::read_all(kif.as_bytes(), Some(Format::Kif), &ReadOptions::default())[0];
    let out = Target::Kif
        .write_one(&game.record, &ConvertOptions::default())
        .unwrap();
    let bytes = encode_output(&out.text, Encoding::ShiftJis).unwrap();
    assert!(out.dropped.is_empty(), "{}", out.dropped);
    let back = &read::read_all(&bytes, Some(Format::Kif), &ReadOptions::default())[0];
    assert_eq!(
        back.record.header.get(&kifu::record::HeaderKey::Event),
        Some("春～夏の部")
    );
    assert_eq!(
        back.record.main.moves[0].comments,
        ["１０時～１２時 ∥ －３"]
    );
}

/// Every character a JIS-style Shift_JIS encoder (Python's `shift_jis`,
/// which follows JIS X 0208) writes is written to the same bytes: the table
/// misses none. Needs python3 (reported ignored without it).
fn every_jis_style_character_is_written_as_python_shift_jis_writes_it() -> Result<(), Skip> {
    let script = "import sys\nfor cp in range(0x80, 0x10000):\n    c = chr(cp)\n    try:\n        b = c.encode('shift_jis')\n    except Exception:\n        continue\n    sys.stdout.write('%x %s\\n' % (cp, b.hex()))\n";
    let o = std::process::Command::new(trials::program("python3")?)
        .args(["-c", script])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = o.stdout;
    let text = String::from_utf8(out).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let (cp, hex) = line.split_once(' ').unwrap();
        let c = char::from_u32(u32::from_str_radix(cp, 16).unwrap()).unwrap();
        let want: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        match encode(&c.to_string(), Encoding::ShiftJis) {
            Ok(b) if b == want => {}
            other => failures.push(format!("U+{:04X} {c}: {other:?}, want {hex}", c as u32)),
        }
        checked += 1;
    }
    assert!(checked > 6000, "only {checked} characters listed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}

//! The rules catalogue (fixtures/rules/): single-move legality, game ends
//! and entering-king declarations, each row checked by an independent engine
//! (see fixtures/rules/README.md).

use kifu::rules::parse_sfen;
use kifu::rules::{Declaration, ImpasseRule, Replay};
use kifu::{Color, Move, Position, Variant, Waivers};

fn rows(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/fixtures/rules/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    lines.next().expect("header row");
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn position(variant: &str, sfen: &str) -> Position {
    let v: Variant = variant.parse().expect("variant");
    let setup = parse_sfen(sfen, Some(v)).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    Position::from_setup(setup, Waivers::TSUME).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

#[test]
fn single_moves() {
    let rows = rows("moves.tsv");
    assert!(rows.len() >= 40, "catalogue too small: {}", rows.len());
    let mut failures = Vec::new();
    let mut kinds = std::collections::BTreeSet::new();
    for r in &rows {
        let (variant, sfen, usi, expect) = (&r[0], &r[1], &r[2], &r[3]);
        let pos = position(variant, sfen);
        let v = pos.variant();
        let Some(m) = Move::from_usi(usi, v) else {
            failures.push(format!("{sfen} {usi}: unparsable move"));
            continue;
        };
        let got = match pos.check(m) {
            Ok(()) => "legal".to_string(),
            Err(e) => e.id().to_string(),
        };
        kinds.insert(expect.clone());
        if &got != expect {
            failures.push(format!(
                "{variant} {sfen} {usi}: expected {expect}, got {got} ({})",
                r.get(4).map_or("", |s| s)
            ));
        }
        // The generator must agree with the checker.
        let generated = pos.legal_moves().contains(&m);
        if generated != (got == "legal") {
            failures.push(format!(
                "{sfen} {usi}: legal_moves says {generated}, check says {got}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for id in kifu::IllegalMove::ALL.iter().map(|k| k.id()) {
        assert!(kinds.contains(id), "no catalogue row for {id}");
    }
}

#[test]
fn game_endings() {
    let mut failures = Vec::new();
    for r in rows("endings.tsv") {
        let (variant, sfen, moves, expect) = (&r[0], &r[1], &r[2], &r[3]);
        let pos = position(variant, sfen);
        let v = pos.variant();
        let mut replay = Replay::new(pos);
        let mut bad = false;
        for usi in moves.split_whitespace().filter(|m| *m != "-") {
            let m = Move::from_usi(usi, v).expect("move");
            if let Err(e) = replay.play(m) {
                failures.push(format!("{sfen} [{moves}]: {usi} illegal ({e})"));
                bad = true;
                break;
            }
        }
        if bad {
            continue;
        }
        let got = match replay.end() {
            None => "ongoing:none".to_string(),
            Some(end) => {
                let kind = match end.reason {
                    kifu::rules::EndReason::Checkmate => "checkmate",
                    kifu::rules::EndReason::NoLegalMoves => "stalemate",
                    kifu::rules::EndReason::Repetition => match end.outcome {
                        kifu::record::Outcome::Draw => "repetition-draw",
                        _ => "repetition-loss",
                    },
                    kifu::rules::EndReason::PerpetualCheck => "perpetual-check",
                    kifu::rules::EndReason::KingCapture => "lion-capture",
                    kifu::rules::EndReason::Try => "try-win",
                };
                let who = match end.outcome.winner() {
                    Some(Color::Black) => "sente",
                    Some(Color::White) => "gote",
                    None => "none",
                };
                format!("{kind}:{who}")
            }
        };
        // A failed try is the lion being captured: same rule, different note.
        let expect = expect.replace("try-fail", "lion-capture");
        if got != expect {
            failures.push(format!(
                "{variant} {sfen} [{moves}]: expected {expect}, got {got} ({})",
                r.get(4).map_or("", |s| s)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn declarations() {
    let mut failures = Vec::new();
    for r in rows("declarations.tsv") {
        let (rule, sfen, expect) = (&r[0], &r[1], &r[2]);
        let pos = position("standard", sfen);
        let rule = match rule.as_str() {
            "24" => ImpasseRule::Points24,
            _ => ImpasseRule::Points27,
        };
        let got = match pos.declaration(rule, 0) {
            Declaration::Win => "win",
            Declaration::Draw => "draw",
            Declaration::Lose => "lose",
        };
        if got != expect {
            failures.push(format!(
                "{sfen} ({rule:?}): expected {expect}, got {got} ({})",
                r.get(3).map_or("", |s| s)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

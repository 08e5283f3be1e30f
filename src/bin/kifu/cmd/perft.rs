//! `kifu perft`.

use crate::args::PerftArgs;
use crate::out::{self, Out};
use kifu::rules::parse_sfen;
use kifu::{Position, Waivers};
use std::time::Instant;

pub fn run(a: PerftArgs) -> std::io::Result<u8> {
    let pos = match &a.sfen {
        None => Position::new(a.variant),
        Some(s) => {
            let variant = if a.variant == kifu::Variant::Standard {
                None
            } else {
                Some(a.variant)
            };
            match parse_sfen(s, variant)
                .map_err(|e| e.to_string())
                .and_then(|setup| {
                    Position::from_setup(setup, Waivers::TSUME).map_err(|e| e.to_string())
                }) {
                Ok(p) => p,
                Err(e) => {
                    out::err(&format!("kifu perft: {e}"));
                    return Ok(out::FAILURE);
                }
            }
        }
    };
    let mut o = Out::new();
    let start = Instant::now();
    let total = if a.divide && a.depth > 0 {
        let mut total = 0;
        let v = pos.variant();
        for m in pos.legal_moves() {
            let mut next = pos;
            next.play_unchecked(m);
            let n = next.perft(a.depth - 1);
            if !o.line(&format!("{} {n}", m.usi(v))) {
                break;
            }
            o.flush();
            total += n;
        }
        total
    } else {
        pos.perft(a.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    o.line(&format!(
        "time {:.3}s, {:.0} nodes/s\nnodes {total}",
        secs,
        total as f64 / secs.max(1e-9)
    ));
    o.finish()?;
    Ok(out::OK)
}

use kifu::read::{lines_from_bytes, ReadOptions};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let opts = ReadOptions::default();
    let lines = lines_from_bytes(&bytes, &opts);
    let g = if path.to_lowercase().ends_with(".ki2") || path.ends_with(".ki2u") {
        kifu::ki2::Reader::new(lines, &opts).next().unwrap()
    } else {
        kifu::kif::Reader::new(lines, &opts).next().unwrap()
    };
    for f in &g.findings { println!("{:?} {}:{} {} {} {:?} {:?}", f.severity, f.line, f.column, f.rule, f.message, f.ply, f.mv); }
    let r = &g.record;
    println!("start {} handicap {:?}", kifu::sfen::write_sfen(&r.start.setup), r.start.handicap);
    println!("header {:?}", r.header.entries);
    println!("claim {:?}", r.claim);
    fn dump(l: &kifu::record::Line, depth: usize, first: usize) {
        for (i, n) in l.moves.iter().enumerate() {
            println!("{}{} {} {} {:?} c={:?}", "  ".repeat(depth), first + i, n.mv, n.written, n.time, n.comments);
            for v in &n.variations { println!("{}-- var at {}", "  ".repeat(depth), first + i); dump(v, depth + 1, first + i); }
        }
        if let Some(t) = &l.terminal { println!("{}T {:?} {:?}", "  ".repeat(depth), t.kind, t.comments); }
    }
    dump(&r.main, 0, 1);
    if std::env::args().nth(2).as_deref() == Some("kif") {
        print!("{}", kifu::kif::write(r, &Default::default()).unwrap().text);
    }
    if std::env::args().nth(2).as_deref() == Some("ki2") {
        print!("{}", kifu::ki2::write(r, &Default::default()).unwrap().text);
    }
}

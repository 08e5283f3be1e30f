fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args[1].parse().unwrap();
    let pos = if args.len() > 2 {
        kifu::Position::from_sfen(&args[2..].join(" ")).unwrap()
    } else {
        kifu::Position::default()
    };
    let t = std::time::Instant::now();
    let n = pos.perft(depth);
    println!("{n} {:?}", t.elapsed());
}

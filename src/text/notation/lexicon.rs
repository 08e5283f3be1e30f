//! The vocabulary of Japanese notation: numerals, squares, piece names,
//! counts, side words, terminal words, header keys, display width and the
//! producer sniffing of `#` lines. Pure text, no position.

use crate::record::{HeaderKey, TerminalKind};
use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// Full-width digits `１`..`９` (index 0 = `１`).
pub const ZENKAKU_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Kanji numerals `一`..`九` (index 0 = `一`).
pub const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The ideographic space U+3000.
pub const IDEOGRAPHIC_SPACE: char = '\u{3000}';

/// Whether `c` is a space KIF/KI2 files use: ASCII space, tab or U+3000.
pub fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == IDEOGRAPHIC_SPACE
}

/// Trims ASCII and ideographic spaces (and a stray U+FEFF) at both ends.
pub fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == IDEOGRAPHIC_SPACE || c == '\u{feff}')
}

/// A file digit: full-width `１`..`９` or ASCII `1`..`9`.
pub fn digit_value(c: char) -> Option<u8> {
    match c {
        '１'..='９' => Some((c as u32 - 0xFF10) as u8),
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// A kanji numeral `一`..`九` (also `１`..`９` and `1`..`9`, tolerated as
/// ranks).
pub fn kanji_value(c: char) -> Option<u8> {
    KANJI_DIGITS
        .iter()
        .position(|&k| k == c)
        .map(|i| i as u8 + 1)
        .or_else(|| digit_value(c))
}

/// Parses a square at the start of `s` (`７六`, `7六`, `７6`); returns it and
/// the bytes used.
pub fn parse_square(s: &str) -> Option<(Square, usize)> {
    let mut it = s.char_indices();
    let (_, f) = it.next()?;
    let file = digit_value(f)?;
    let (i, r) = it.next()?;
    let rank = kanji_value(r)?;
    Some((Square::new(file, rank)?, i + r.len_utf8()))
}

/// Writes a square as KIF does (`７六`).
pub fn push_square(sq: Square, out: &mut String) {
    out.push(ZENKAKU_DIGITS[(sq.file() - 1) as usize]);
    out.push(KANJI_DIGITS[(sq.rank() - 1) as usize]);
}

/// Piece names accepted in moves, longest first (so `成銀` wins over `成`).
pub(crate) const ROLE_NAMES: &[(&str, Role)] = &[
    ("ライオン", Role::King),
    ("にわとり", Role::ProPawn),
    ("ひよこ", Role::Pawn),
    ("きりん", Role::Giraffe),
    ("ぞう", Role::Elephant),
    ("成銀", Role::ProSilver),
    ("成桂", Role::ProKnight),
    ("成香", Role::ProLance),
    ("成歩", Role::ProPawn),
    ("歩", Role::Pawn),
    ("香", Role::Lance),
    ("桂", Role::Knight),
    ("銀", Role::Silver),
    ("金", Role::Gold),
    ("角", Role::Bishop),
    ("飛", Role::Rook),
    ("玉", Role::King),
    ("王", Role::King),
    ("と", Role::ProPawn),
    ("全", Role::ProSilver),
    ("圭", Role::ProKnight),
    ("杏", Role::ProLance),
    ("馬", Role::Horse),
    ("龍", Role::Dragon),
    ("竜", Role::Dragon),
];

/// Parses a piece name at the start of `s` (`歩`, `成銀`, `全`, `竜`, `王`,
/// doubutsu `ひよこ`, …); returns the role and the bytes used.
pub fn parse_role(s: &str) -> Option<(Role, usize)> {
    ROLE_NAMES
        .iter()
        .find(|(n, _)| s.starts_with(n))
        .map(|&(n, r)| (r, n.len()))
}

/// The piece name a writer uses in moves (`龍`, `玉`, `成銀`).
pub fn role_name(role: Role, variant: Variant) -> &'static str {
    role.kanji(variant)
}

/// The role of a one-character board cell (`歩`, `全`, `龍`, doubutsu `ひ`, …).
pub fn parse_board_char(c: char) -> Option<Role> {
    Some(match c {
        '歩' => Role::Pawn,
        '香' => Role::Lance,
        '桂' => Role::Knight,
        '銀' => Role::Silver,
        '金' => Role::Gold,
        '角' => Role::Bishop,
        '飛' => Role::Rook,
        '玉' | '王' | 'ラ' => Role::King,
        'と' | 'に' => Role::ProPawn,
        '杏' => Role::ProLance,
        '圭' => Role::ProKnight,
        '全' => Role::ProSilver,
        '馬' => Role::Horse,
        '龍' | '竜' => Role::Dragon,
        'き' => Role::Giraffe,
        'ぞ' => Role::Elephant,
        'ひ' => Role::Pawn,
        _ => return None,
    })
}

/// Parses a kanji count at the start of `s` (`十八`..`十一`, `十`, `一`..`九`,
/// or ASCII/full-width digits); returns it and the bytes used.
pub fn parse_count(s: &str) -> Option<(u8, usize)> {
    let mut chars = s.char_indices();
    let (_, c) = chars.next()?;
    if c == '十' {
        let rest = &s[c.len_utf8()..];
        if let Some(n) = rest.chars().next().and_then(|d| {
            KANJI_DIGITS
                .iter()
                .position(|&k| k == d)
                .map(|i| (i as u8 + 1, d))
        }) {
            return Some((10 + n.0, c.len_utf8() + n.1.len_utf8()));
        }
        return Some((10, c.len_utf8()));
    }
    if let Some(i) = KANJI_DIGITS.iter().position(|&k| k == c) {
        // `二十`, `三十二`: tens.
        let rest = &s[c.len_utf8()..];
        if rest.starts_with('十') && i >= 1 {
            let tens = (i as u8 + 1) * 10;
            let used = c.len_utf8() + '十'.len_utf8();
            if let Some(u) = rest['十'.len_utf8()..]
                .chars()
                .next()
                .and_then(|d| KANJI_DIGITS.iter().position(|&k| k == d))
            {
                return Some((tens + u as u8 + 1, used + KANJI_DIGITS[u].len_utf8()));
            }
            return Some((tens, used));
        }
        return Some((i as u8 + 1, c.len_utf8()));
    }
    // Digits (ASCII or full-width), possibly two.
    let dv = |c: char| match c {
        '0'..='9' => Some(c as u8 - b'0'),
        '０'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => None,
    };
    let mut n: u32 = 0;
    let mut used = 0;
    for (i, c) in s.char_indices() {
        match dv(c) {
            Some(d) if n < 100 => {
                n = n * 10 + d as u32;
                used = i + c.len_utf8();
            }
            _ => break,
        }
    }
    (used > 0 && n <= 255).then_some((n as u8, used))
}

/// A count as hand lines write it (`二`, `十`, `十八`; `三十二` and, from
/// 100 on, ASCII digits for counts no real file has).
pub fn count_kanji(n: u8, out: &mut String) {
    if n >= 100 {
        out.push_str(&n.to_string());
        return;
    }
    let (tens, units) = (n / 10, n % 10);
    if tens >= 2 {
        out.push(KANJI_DIGITS[(tens - 1) as usize]);
    }
    if tens >= 1 {
        out.push('十');
    }
    if units >= 1 {
        out.push(KANJI_DIGITS[(units - 1) as usize]);
    }
}

/// Terminal words and their kinds, longest first: the nine words of the
/// KIF spec and what Kifu for Windows, ShogiGUI, Shogidokoro, ShogiHome
/// (tsshogi), MyShogi, 81Dojo, Shogi Club 24, lishogi and ぴよ将棋 write
/// (docs/formats/kif.md lists them by producer). Files are decoded before
/// they are matched, so Shift_JIS, EUC-JP and UTF-8 files share this table.
const TERMINAL_WORDS: &[(&str, TerminalKind)] = &[
    ("連続王手の千日手", TerminalKind::IllegalWin),
    ("王手連続千日手", TerminalKind::IllegalWin),
    ("最大手数超過", TerminalKind::MaxMoves),
    ("時間切れ負け", TerminalKind::TimeUp),
    ("入玉宣言勝ち", TerminalKind::DeclarationWin),
    ("宣言勝ち", TerminalKind::DeclarationWin),
    ("入玉勝ち", TerminalKind::DeclarationWin),
    ("勝ち宣言", TerminalKind::DeclarationWin),
    ("切れ負け", TerminalKind::TimeUp),
    ("時間切れ", TerminalKind::TimeUp),
    ("反則勝ち", TerminalKind::IllegalWin),
    ("反則負け", TerminalKind::IllegalLoss),
    ("最大手数", TerminalKind::MaxMoves),
    ("引き分け", TerminalKind::Draw),
    ("引分け", TerminalKind::Draw),
    ("持将棋", TerminalKind::Impasse),
    ("千日手", TerminalKind::Repetition),
    ("封じ手", TerminalKind::Sealed),
    ("不戦勝", TerminalKind::DefaultWin),
    ("不戦敗", TerminalKind::DefaultLoss),
    ("トライ", TerminalKind::Try),
    ("投了", TerminalKind::Resign),
    ("中断", TerminalKind::Abort),
    ("詰み", TerminalKind::Checkmate),
    ("不詰", TerminalKind::NoMate),
    ("詰", TerminalKind::Checkmate),
    ("待った", TerminalKind::Matta),
];

/// The terminal kind of a KIF terminal word (`投了`, `詰み`, `切れ負け`, …).
/// The whole (trimmed) word must match.
pub fn terminal_from_word(word: &str) -> Option<TerminalKind> {
    let w = trim(word);
    TERMINAL_WORDS
        .iter()
        .find(|(n, _)| *n == w)
        .map(|(_, k)| k.clone())
}

/// A terminal preceded by the side it names, as Shogi Club 24 writes a
/// foul (`  93 先手 反則負け`): the side and the word after it.
pub fn side_terminal(text: &str) -> Option<(Color, &str)> {
    let t = trim(text);
    let (color, n) = side_word(t)?;
    let rest = &t[n..];
    let word = trim(rest);
    (rest.starts_with(is_space) && !word.is_empty() && !word.contains(is_space))
        .then_some((color, word))
}

/// The terminal a side-named word states (`先手 反則負け` → sente fouled)
/// when `to_move` is to move; `None` when the word and the side together say
/// something kifu cannot hold (a resignation by the side not to move).
pub fn side_terminal_kind(side: Color, kind: TerminalKind, to_move: Color) -> Option<TerminalKind> {
    use TerminalKind::*;
    match kind {
        IllegalLoss => Some(IllegalAction(side)),
        IllegalWin => Some(IllegalAction(!side)),
        IllegalAction(c) => Some(IllegalAction(c)),
        // Words about the side to move.
        Resign | TimeUp | Checkmate | DefaultLoss | DefaultWin | DeclarationWin
        | DeclarationDraw | Try => (side == to_move).then_some(kind),
        // Words that name no winner.
        k => Some(k),
    }
}

/// The tokens programs write after the USI moves of a game to say how it
/// ended (`… moves 7g7f 3c3d resign`): tsshogi/ShogiHome's `resign`,
/// `rep_draw`, `draw`, `timeout`, `break`, `win`, and ShogiBoardQ's `mate`,
/// `illegal`, `lose`, `sennichite`, `checkmate`, in any case. `illegal`
/// (written for both 反則勝ち and 反則負け) and `lose` do not say enough
/// for a result: they are kept verbatim.
pub fn terminal_from_usi(token: &str) -> Option<TerminalKind> {
    let t = token.to_ascii_lowercase();
    Some(match t.as_str() {
        "resign" => TerminalKind::Resign,
        "win" => TerminalKind::DeclarationWin,
        "draw" => TerminalKind::Draw,
        "rep_draw" | "sennichite" => TerminalKind::Repetition,
        "timeout" => TerminalKind::TimeUp,
        "break" => TerminalKind::Abort,
        "mate" | "checkmate" => TerminalKind::Checkmate,
        "illegal" | "lose" => TerminalKind::Other(t),
        _ => return None,
    })
}

/// English terminal words some programs write into KIF (81Dojo writes
/// ` 194  Time-up   ( 0:0/)`); readers accept them as a dialect.
pub fn terminal_from_english(word: &str) -> Option<TerminalKind> {
    Some(match trim(word).to_ascii_lowercase().as_str() {
        "time-up" | "timeup" | "time_up" => TerminalKind::TimeUp,
        "resign" | "resigns" | "resignation" => TerminalKind::Resign,
        "interrupt" | "abort" => TerminalKind::Abort,
        "sennichite" | "repetition" => TerminalKind::Repetition,
        "jishogi" | "impasse" => TerminalKind::Impasse,
        "mate" | "checkmate" => TerminalKind::Checkmate,
        _ => return None,
    })
}

/// The word a KIF writer uses for `kind`, when KIF has one (the nine words
/// of the spec plus the widely read 不詰, 封じ手, 最大手数, トライ, 不戦勝,
/// 不戦敗).
pub fn terminal_word(kind: &TerminalKind) -> Option<&'static str> {
    use TerminalKind::*;
    Some(match kind {
        Resign => "投了",
        Abort => "中断",
        Repetition => "千日手",
        Impasse => "持将棋",
        DeclarationWin => "入玉勝ち",
        TimeUp => "切れ負け",
        IllegalLoss => "反則負け",
        IllegalWin => "反則勝ち",
        Checkmate => "詰み",
        NoMate => "不詰",
        MaxMoves => "最大手数",
        Try => "トライ",
        Sealed => "封じ手",
        DefaultWin => "不戦勝",
        DefaultLoss => "不戦敗",
        _ => return None,
    })
}

/// Maps a KIF header key onto a [`HeaderKey`]; unknown keys are kept
/// verbatim.
pub fn header_key(key: &str) -> HeaderKey {
    match key {
        "先手" | "下手" => HeaderKey::Sente,
        "後手" | "上手" => HeaderKey::Gote,
        "棋戦" => HeaderKey::Event,
        "場所" => HeaderKey::Site,
        "開始日時" | "対局日" => HeaderKey::StartTime,
        "終了日時" => HeaderKey::EndTime,
        "持ち時間" => HeaderKey::TimeControl,
        "戦型" => HeaderKey::Opening,
        "表題" => HeaderKey::Title,
        other => HeaderKey::Other(other.to_string()),
    }
}

/// The KIF key for a [`HeaderKey`]; `handicap` selects 下手/上手 for the
/// players.
pub fn header_key_name(key: &HeaderKey, handicap: bool) -> &str {
    match key {
        HeaderKey::Sente => {
            if handicap {
                "下手"
            } else {
                "先手"
            }
        }
        HeaderKey::Gote => {
            if handicap {
                "上手"
            } else {
                "後手"
            }
        }
        HeaderKey::Event => "棋戦",
        HeaderKey::Site => "場所",
        HeaderKey::StartTime => "開始日時",
        HeaderKey::EndTime => "終了日時",
        HeaderKey::TimeControl => "持ち時間",
        HeaderKey::Opening => "戦型",
        HeaderKey::Title => "表題",
        HeaderKey::Other(k) => k,
    }
}

/// The side a KIF side word names: 先手/下手 = Black, 後手/上手 = White.
pub fn side_word(s: &str) -> Option<(Color, usize)> {
    for (w, c) in [
        ("先手", Color::Black),
        ("下手", Color::Black),
        ("後手", Color::White),
        ("上手", Color::White),
    ] {
        if s.starts_with(w) {
            return Some((c, w.len()));
        }
    }
    None
}

/// The name of the side as KIF writes it (先手/後手, 下手/上手 in handicap games).
pub fn side_name(c: Color, handicap: bool) -> &'static str {
    match (c, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

/// Display width of text as Japanese fixed-pitch fonts draw it (ASCII and
/// half-width katakana 1, everything else 2).
pub fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            if (c as u32) < 0x80 || ('\u{ff61}'..='\u{ff9f}').contains(&c) {
                1
            } else {
                2
            }
        })
        .sum()
}

/// Guesses which program wrote a KIF/KI2 file from one of its `#` lines
/// (`#KIF version=2.0` → Kifu for Windows V7 family; `# Generated by
/// Shogidokoro`; `# ---- ぴよ将棋…`; `# ---- Kifu for Windows…`).
pub fn producer(comment_line: &str) -> Option<&'static str> {
    let l = comment_line;
    if !l.starts_with('#') {
        return None;
    }
    let table: [(&str, &str); 8] = [
        ("Shogidokoro", "Shogidokoro"),
        ("将棋所", "Shogidokoro"),
        ("ぴよ将棋", "Piyo Shogi"),
        ("Kifu for iPhone", "Kifu for iPhone"),
        ("Kifu for Windows", "Kifu for Windows"),
        ("Kifu for", "Kifu for"),
        ("ShogiGUI", "ShogiGUI"),
        ("KIF version=2.0", "KIF 2.0 writer"),
    ];
    table.iter().find(|(k, _)| l.contains(k)).map(|(_, v)| *v)
}

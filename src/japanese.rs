//! Japanese notation shared by KIF and KI2: numerals, piece names, move
//! words (同 成 不成 打, relative marks), terminal words, header keys, and
//! board diagrams (BOD) with hand lines.
//!
//! Everything here is pure text ↔ vocabulary; nothing holds a position.

use crate::record::{HeaderKey, Outcome, TerminalKind};
use crate::rules::color::Color;
use crate::rules::hand::Hand;
use crate::rules::role::{Piece, Role};
use crate::rules::setup::Setup;
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
const ROLE_NAMES: &[(&str, Role)] = &[
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

/// A `まで` summary line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The number of moves it states.
    pub plies: Option<u32>,
    /// The outcome it states (`Unknown` when it cannot be told without a
    /// position, e.g. `まで11手詰`: see [`Summary::mated`]).
    pub outcome: Outcome,
    /// The terminal it states, if any.
    pub kind: Option<TerminalKind>,
    /// Whether it says the game ended in mate (`詰`/`詰み`), so the winner is
    /// the side that made the last move.
    pub mated: bool,
}

/// Parses a `まで` summary line (`まで76手で先手の勝ち`, `まで11手詰`,
/// `まで3手で時間切れにより先手の勝ち`, `まで3手で後手の反則勝ち`, …).
pub fn parse_summary(line: &str) -> Option<Summary> {
    let s = trim(line).strip_prefix("まで")?;
    let s = s.strip_prefix('、').unwrap_or(s);
    let digits: String = s
        .chars()
        .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
        .collect();
    let mut plies = None;
    let mut rest = &s[digits.len()..];
    if !digits.is_empty() {
        let n: String = digits
            .chars()
            .map(|c| {
                if c.is_ascii_digit() {
                    c
                } else {
                    char::from(b'0' + (c as u32 - '０' as u32) as u8)
                }
            })
            .collect();
        plies = n.parse::<u32>().ok();
        rest = rest.strip_prefix('手').unwrap_or(rest);
    }
    let rest = trim(rest);
    let rest = rest.strip_prefix('で').unwrap_or(rest);
    let mut sum = Summary {
        plies,
        outcome: Outcome::Unknown,
        kind: None,
        mated: false,
    };
    let t = trim(rest);
    match t {
        "詰" | "詰み" => {
            sum.kind = Some(TerminalKind::Checkmate);
            sum.mated = true;
            return Some(sum);
        }
        "不詰" => {
            sum.kind = Some(TerminalKind::NoMate);
            return Some(sum);
        }
        "中断" => {
            sum.kind = Some(TerminalKind::Abort);
            sum.outcome = Outcome::Aborted;
            return Some(sum);
        }
        "封じ手" => {
            sum.kind = Some(TerminalKind::Sealed);
            sum.outcome = Outcome::Aborted;
            return Some(sum);
        }
        "千日手" => {
            sum.kind = Some(TerminalKind::Repetition);
            sum.outcome = Outcome::Draw;
            return Some(sum);
        }
        "持将棋" => {
            sum.kind = Some(TerminalKind::Impasse);
            sum.outcome = Outcome::Draw;
            return Some(sum);
        }
        "最大手数" | "引き分け" => {
            sum.kind = Some(if t == "最大手数" {
                TerminalKind::MaxMoves
            } else {
                TerminalKind::Draw
            });
            sum.outcome = Outcome::Draw;
            return Some(sum);
        }
        _ => {}
    }
    // `…により` names how the game was won (bioshogi writes 切断により,
    // 時間切れにより, 反則により and エラーにより before the winner).
    let (t, by) = [
        ("時間切れにより", Some(TerminalKind::TimeUp)),
        ("反則により", None),
        ("切断により", Some(TerminalKind::Abort)),
        ("エラーにより", Some(TerminalKind::Error)),
    ]
    .into_iter()
    .find_map(|(p, k)| t.strip_prefix(p).map(|r| (r, Some(k))))
    .unwrap_or((t, None));
    let (color, n) = side_word(t)?;
    let tail = t[n..].strip_prefix('の').unwrap_or(&t[n..]);
    let (winner, kind) = match tail {
        // 反則により: the loser fouled.
        "勝ち" => (
            color,
            by.map(|k| k.unwrap_or(TerminalKind::IllegalAction(!color))),
        ),
        "反則勝ち" => (color, Some(TerminalKind::IllegalWin)),
        "反則負け" => (!color, Some(TerminalKind::IllegalLoss)),
        "入玉勝ち" | "宣言勝ち" => (color, Some(TerminalKind::DeclarationWin)),
        "トライ勝ち" => (color, Some(TerminalKind::Try)),
        "不戦勝" => (color, Some(TerminalKind::DefaultWin)),
        "不戦敗" => (!color, Some(TerminalKind::DefaultLoss)),
        "切れ負け" | "時間切れ負け" => (!color, Some(TerminalKind::TimeUp)),
        "負け" => (!color, None),
        _ => return None,
    };
    sum.outcome = Outcome::win(winner);
    sum.kind = kind;
    Some(sum)
}

/// Writes the `まで` line for a line of `plies` moves ending in `kind` with
/// `to_move` to move (no line break). `None` when the kind has no summary
/// (e.g. `不戦勝` before any move is still written; an `Other` kind is not).
pub fn write_summary(
    plies: u32,
    kind: &TerminalKind,
    to_move: Color,
    handicap: bool,
) -> Option<String> {
    use TerminalKind::*;
    let side = |c: Color| side_name(c, handicap);
    let tail = match kind {
        Resign | DefaultLoss => format!("{}の勝ち", side(!to_move)),
        TimeUp => format!("時間切れにより{}の勝ち", side(!to_move)),
        IllegalWin => format!("{}の反則勝ち", side(to_move)),
        IllegalLoss => format!("{}の反則負け", side(to_move)),
        IllegalAction(c) => format!("{}の反則負け", side(*c)),
        DeclarationWin => format!("{}の入玉勝ち", side(to_move)),
        DefaultWin => format!("{}の勝ち", side(to_move)),
        Try => format!("{}の勝ち", side(!to_move)),
        Abort => "中断".to_string(),
        Sealed => "封じ手".to_string(),
        Repetition => "千日手".to_string(),
        Impasse | DeclarationDraw => "持将棋".to_string(),
        MaxMoves => "持将棋".to_string(),
        Checkmate => return Some(format!("まで{plies}手で詰")),
        NoMate => "不詰".to_string(),
        Draw => "持将棋".to_string(),
        Matta | Error | Other(_) => "中断".to_string(),
    };
    Some(format!("まで{plies}手で{tail}"))
}

// ---------------------------------------------------------------- BOD

/// Hand roles in the order Kifu for Windows writes them.
const HAND_ORDER: [Role; 9] = [
    Role::Rook,
    Role::Bishop,
    Role::Gold,
    Role::Silver,
    Role::Knight,
    Role::Lance,
    Role::Pawn,
    Role::Giraffe,
    Role::Elephant,
];

/// Parses a hand line (`先手の持駒：角二　桂　`, `後手の持駒：なし`,
/// `上手の持駒：飛角金`); returns the side and its hand. Items may be
/// separated by U+3000, ASCII spaces or nothing. `Err` carries the byte
/// offset of the first item that is not a piece.
pub fn parse_hand_line(line: &str) -> Option<Result<(Color, Hand), usize>> {
    let (color, n) = side_word(line)?;
    let rest = line[n..].strip_prefix("の持駒")?;
    let body_start = n + "の持駒".len();
    let (rest, sep) = if let Some(r) = rest.strip_prefix('：') {
        (r, '：'.len_utf8())
    } else if let Some(r) = rest.strip_prefix(':') {
        (r, 1)
    } else {
        return None;
    };
    let base = body_start + sep;
    Some(
        parse_hand_items(rest)
            .map(|h| (color, h))
            .map_err(|e| e + base),
    )
}

/// Parses hand items (`角二　桂　`, `なし`).
fn parse_hand_items(s: &str) -> Result<Hand, usize> {
    let mut hand = Hand::EMPTY;
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        let c = match rest.chars().next() {
            Some(c) => c,
            None => break,
        };
        if is_space(c) || c == '、' || c == ',' {
            i += c.len_utf8();
            continue;
        }
        if rest.starts_with("なし") {
            i += "なし".len();
            continue;
        }
        let (role, n) = parse_role(rest).ok_or(i)?;
        if role.hand_index().is_none() && !matches!(role, Role::Giraffe | Role::Elephant) {
            return Err(i);
        }
        i += n;
        let (count, m) = parse_count(&s[i..]).unwrap_or((1, 0));
        i += m;
        let total = hand.count(role).saturating_add(count);
        if !hand.set(role, total) {
            return Err(i - m - n);
        }
    }
    Ok(hand)
}

/// Writes a hand line (`先手の持駒：角二　桂　` or `…：なし`), no line break.
pub fn write_hand_line(
    color: Color,
    hand: &Hand,
    handicap: bool,
    variant: Variant,
    out: &mut String,
) {
    out.push_str(side_name(color, handicap));
    out.push_str("の持駒：");
    if hand.is_empty() {
        out.push_str("なし");
        return;
    }
    for role in HAND_ORDER {
        let n = hand.count(role);
        if n == 0 {
            continue;
        }
        if variant == Variant::Doubutsu {
            out.push_str(role.kanji(variant));
        } else {
            out.push(role.board_char(variant));
        }
        if n > 1 {
            count_kanji(n, out);
        }
        out.push(IDEOGRAPHIC_SPACE);
    }
}

/// The side to move from a turn line (`先手番`, `後手番`, `上手番`, `下手番`).
pub fn parse_turn_line(line: &str) -> Option<Color> {
    let t = trim(line);
    let (c, n) = side_word(t)?;
    (&t[n..] == "番").then_some(c)
}

/// Parses one board row (`|v香v桂 ・ … |一`): the pieces from the
/// leftmost file to file 1, and the rank kanji after the frame if present.
/// `Err` carries a 0-based character column and a message.
#[allow(clippy::type_complexity)]
pub fn parse_board_row(line: &str) -> Result<(Vec<Option<Piece>>, Option<u8>), (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let start = chars
        .iter()
        .position(|&c| c == '|')
        .ok_or((0, "expected `|`".to_string()))?;
    let end = chars
        .iter()
        .rposition(|&c| c == '|')
        .filter(|&e| e > start)
        .ok_or((chars.len(), "expected a closing `|`".to_string()))?;
    let mut cells = Vec::with_capacity(9);
    let mut i = start + 1;
    while i < end {
        let c = chars[i];
        let (color, pc, used) = match c {
            'v' | 'V' => (Color::White, chars.get(i + 1).copied(), 2),
            ' ' | '+' | '^' | IDEOGRAPHIC_SPACE => (Color::Black, chars.get(i + 1).copied(), 2),
            _ => (Color::Black, Some(c), 1),
        };
        if i + used > end {
            return Err((i, format!("expected a piece or `・`, found `{c}`")));
        }
        match pc {
            Some('・') => cells.push(None),
            Some(p) => match parse_board_char(p) {
                Some(role) => cells.push(Some(Piece::new(color, role))),
                None => {
                    return Err((
                        i + used - 1,
                        format!("expected a piece or `・`, found `{p}`"),
                    ));
                }
            },
            None => return Err((i, "expected a piece".to_string())),
        }
        i += used;
    }
    let rank = chars.get(end + 1).and_then(|&c| kanji_value(c));
    Ok((cells, rank))
}

/// Collects the lines of a board diagram into a [`Setup`].
#[derive(Clone, Debug, Default)]
pub struct BoardBuilder {
    rows: Vec<Vec<Option<Piece>>>,
    hands: [Hand; 2],
    turn: Option<Color>,
    ply: Option<u32>,
    /// The destination of the last move in a `手数＝N  ▲６二角成  まで` line.
    pub last_to: Option<Square>,
    /// Whether any board row was given.
    pub has_board: bool,
    /// Whether any hand line was given.
    pub has_hands: bool,
}

impl BoardBuilder {
    /// Adds a row of cells.
    pub fn push_row(&mut self, cells: Vec<Option<Piece>>) {
        self.rows.push(cells);
        self.has_board = true;
    }

    /// Sets one side's hand.
    pub fn set_hand(&mut self, color: Color, hand: Hand) {
        self.hands[color.index()] = hand;
        self.has_hands = true;
    }

    /// Sets the side to move.
    pub fn set_turn(&mut self, color: Color) {
        self.turn = Some(color);
    }

    /// Both hands as read (Black's, White's).
    pub fn hands(&self) -> [Hand; 2] {
        self.hands
    }

    /// The turn, if a turn line was read.
    pub fn turn(&self) -> Option<Color> {
        self.turn
    }

    /// Parses a `手数＝N  ▲６二角成  まで` line; returns whether it was one.
    pub fn move_number_line(&mut self, line: &str) -> bool {
        let t = trim(line);
        let rest = match t.strip_prefix("手数＝").or_else(|| t.strip_prefix("手数=")) {
            Some(r) => r,
            None => return false,
        };
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        self.ply = digits.parse().ok();
        let rest = trim(&rest[digits.len()..]);
        let rest = rest.trim_start_matches(['▲', '△', '☗', '☖']);
        if let Some((sq, _)) = parse_square(rest) {
            self.last_to = Some(sq);
        }
        true
    }

    /// The move count of the diagram (`手数＝N`).
    pub fn ply(&self) -> Option<u32> {
        self.ply
    }

    /// Builds the setup. `Err` when the rows do not form a known board.
    pub fn build(&self) -> Result<Setup, String> {
        let ranks = self.rows.len();
        let files = self.rows.first().map_or(0, |r| r.len());
        if self.rows.iter().any(|r| r.len() != files) {
            return Err("board rows have different lengths".to_string());
        }
        let variant = Variant::from_dimensions(files, ranks).ok_or_else(|| {
            format!("a board of {files}×{ranks} squares is not a known variant (expected 9×9, 5×5 or 3×4)")
        })?;
        let mut setup = Setup::empty(variant);
        for (r, row) in self.rows.iter().enumerate() {
            for (i, cell) in row.iter().enumerate() {
                if let Some(sq) = Square::new((files - i) as u8, r as u8 + 1) {
                    setup.board[sq.index()] = *cell;
                }
            }
        }
        setup.hands = self.hands;
        setup.turn = self.turn.unwrap_or(Color::Black);
        setup.ply = self.ply.map_or(1, |p| p.saturating_add(1));
        Ok(setup)
    }
}

/// What a board diagram says besides the pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BodExtras<'a> {
    /// The last move as KI2 writes it (`▲７六歩`), for the
    /// `手数＝N  ▲７六歩  まで` line.
    pub last_move: Option<&'a str>,
    /// Name the sides 下手/上手 (handicap games) instead of 先手/後手.
    pub handicap: bool,
}

/// Writes a board diagram (hands, frame, rows, turn line), each line ending
/// in `\n`, as the KIF writer puts it in a record.
pub fn write_bod(setup: &Setup, out: &mut String) {
    write_bod_with(setup, BodExtras::default(), out);
}

/// Writes a board diagram like [`write_bod`], with the last move in the
/// `手数＝` line and the handicap side names when `extras` asks for them.
pub fn write_bod_with(setup: &Setup, extras: BodExtras<'_>, out: &mut String) {
    let rules = setup.variant.rules();
    let files = rules.files;
    let ranks = rules.ranks;
    let handicap = extras.handicap;
    write_hand_line(Color::White, &setup.hands[1], handicap, setup.variant, out);
    out.push('\n');
    out.push(' ');
    for f in (1..=files).rev() {
        out.push(' ');
        out.push(ZENKAKU_DIGITS[(f - 1) as usize]);
    }
    out.push('\n');
    let frame = "-".repeat(files as usize * 3);
    out.push('+');
    out.push_str(&frame);
    out.push_str("+\n");
    for r in 1..=ranks {
        out.push('|');
        for f in (1..=files).rev() {
            let sq = Square::new(f, r).expect("board square");
            match setup.board[sq.index()] {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(p.role.board_char(setup.variant));
                }
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[(r - 1) as usize]);
        out.push('\n');
    }
    out.push('+');
    out.push_str(&frame);
    out.push_str("+\n");
    write_hand_line(Color::Black, &setup.hands[0], handicap, setup.variant, out);
    out.push('\n');
    if setup.ply > 1 {
        out.push_str(&format!("手数＝{}  ", setup.ply - 1));
        if let Some(m) = extras.last_move {
            out.push_str(m);
            out.push_str("  ");
        }
        out.push_str("まで\n");
    }
    if setup.turn == Color::White {
        out.push_str(side_name(Color::White, handicap));
        out.push_str("番\n");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_squares() {
        assert_eq!(digit_value('１'), Some(1));
        assert_eq!(digit_value('９'), Some(9));
        assert_eq!(digit_value('7'), Some(7));
        assert_eq!(digit_value('0'), None);
        let (sq, n) = parse_square("７六歩").unwrap();
        assert_eq!((sq.file(), sq.rank(), n), (7, 6, 6));
        let mut s = String::new();
        push_square(sq, &mut s);
        assert_eq!(s, "７六");
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("十八"), Some((18, 6)));
        assert_eq!(parse_count("十"), Some((10, 3)));
        assert_eq!(parse_count("二十"), Some((20, 6)));
        assert_eq!(parse_count("三十二　"), Some((32, 9)));
        for n in 1..=255u8 {
            let mut s = String::new();
            count_kanji(n, &mut s);
            assert_eq!(parse_count(&s), Some((n, s.len())), "{s}");
        }
        assert_eq!(parse_count("三"), Some((3, 3)));
        assert_eq!(parse_count("12"), Some((12, 2)));
        let mut s = String::new();
        count_kanji(15, &mut s);
        assert_eq!(s, "十五");
    }

    #[test]
    fn hands() {
        let (c, h) = parse_hand_line("後手の持駒：飛　金四　銀四　桂二　香二　歩十五　")
            .unwrap()
            .unwrap();
        assert_eq!(c, Color::White);
        assert_eq!(h.count(Role::Pawn), 15);
        assert_eq!(h.count(Role::Gold), 4);
        let (_, h) = parse_hand_line("上手の持駒：飛角金").unwrap().unwrap();
        assert_eq!(h.count(Role::Bishop), 1);
        let (_, h) = parse_hand_line("先手の持駒：なし").unwrap().unwrap();
        assert!(h.is_empty());
        let mut s = String::new();
        write_hand_line(
            Color::White,
            &parse_hand_line("後手の持駒：歩十五 飛").unwrap().unwrap().1,
            false,
            Variant::Standard,
            &mut s,
        );
        assert_eq!(s, "後手の持駒：飛　歩十五　");
    }

    #[test]
    fn summaries() {
        let s = parse_summary("まで76手で先手の勝ち").unwrap();
        assert_eq!(
            (s.plies, s.outcome, s.kind),
            (Some(76), Outcome::SenteWin, None)
        );
        let s = parse_summary("まで11手詰").unwrap();
        assert!(s.mated);
        let s = parse_summary("まで3手で時間切れにより先手の勝ち").unwrap();
        assert_eq!(s.kind, Some(TerminalKind::TimeUp));
        let s = parse_summary("まで3手で後手の反則勝ち").unwrap();
        assert_eq!(s.outcome, Outcome::GoteWin);
        assert_eq!(
            parse_summary("まで3手で千日手").unwrap().outcome,
            Outcome::Draw
        );
    }
}

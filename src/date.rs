//! Start dates as records write them, read into a calendar date and time
//! checked by [`jiff`] (`2023/02/30` is not a date).
//!
//! Accepted: the forms shogi programs write (`2024/01/02 10:00:00`,
//! `1999/07/15(木) 19:07:12`, `2024-01-02T10:00`, `2024.01.02`,
//! `20240102`, `2024年1月2日 10時05分`), full-width digits and
//! punctuation, Japanese era dates (`平成30年1月2日`, `令和元年5月1日`,
//! `昭和五十四年三月一日`, `H30.1.2`) and partial dates (`令和5年`,
//! `2024.??.??`, `2024年5月`, `2024/05`, `202405`, and `2024` when it is
//! the whole text). A trailing `JST`, `Z` or UTC offset is accepted and
//! dropped: the time is kept as written on the wall clock.
//!
//! Era dates before 明治6年 (1873) are refused: Japan used the lunisolar
//! calendar until then, so their month and day are not Gregorian ones.
//!
//! ```
//! use kifu::date::{parse, Precision};
//!
//! let d = parse("平成30年1月2日(火) 10:05").unwrap();
//! assert_eq!(d.iso(), "2018-01-02T10:05:00");
//! assert_eq!(d.precision(), Precision::Minute);
//! assert_eq!(parse("令和5年").unwrap().iso(), "2023-01-01T00:00:00");
//! assert!(parse("2023/02/30").is_none());
//! ```

use jiff::civil::{Date, DateTime, Time};
use std::fmt;

/// How much of the date and time the record gave; the parts not given are
/// the start of the period (January, the 1st, midnight).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Precision {
    /// `令和5年`, `2024.??.??`.
    Year,
    /// `2024年1月`.
    Month,
    /// `2024/01/02`.
    Day,
    /// `2024/01/02 10時`.
    Hour,
    /// `2024/01/02 10:05`.
    Minute,
    /// `2024/01/02 10:05:30`.
    Second,
}

impl Precision {
    /// `year`, `month`, `day`, `hour`, `minute` or `second`.
    pub const fn name(self) -> &'static str {
        match self {
            Precision::Year => "year",
            Precision::Month => "month",
            Precision::Day => "day",
            Precision::Hour => "hour",
            Precision::Minute => "minute",
            Precision::Second => "second",
        }
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A start date and time read from a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartTime {
    datetime: DateTime,
    precision: Precision,
}

impl StartTime {
    /// The date and time (parts not given are the start of the period).
    pub fn datetime(&self) -> DateTime {
        self.datetime
    }

    /// How much the record gave.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// ISO 8601 in one form for every date: `2024-01-02T10:00:00`.
    pub fn iso(&self) -> String {
        self.datetime.strftime("%Y-%m-%dT%H:%M:%S").to_string()
    }
}

/// A Japanese era: its names, the first day of its year 1 as counted in
/// dates (元年), and its first and last days.
struct Era {
    names: &'static [&'static str],
    first_year: i16,
    start: (i16, i8, i8),
    end: Option<(i16, i8, i8)>,
}

/// The eras of the Gregorian calendar in Japan. 明治 counts its years
/// from 1868, but dates before 1873 are lunisolar: refused.
const ERAS: [Era; 5] = [
    Era {
        names: &["明治", "M"],
        first_year: 1868,
        start: (1873, 1, 1),
        end: Some((1912, 7, 30)),
    },
    Era {
        names: &["大正", "T"],
        first_year: 1912,
        start: (1912, 7, 30),
        end: Some((1926, 12, 25)),
    },
    Era {
        names: &["昭和", "S"],
        first_year: 1926,
        start: (1926, 12, 25),
        end: Some((1989, 1, 7)),
    },
    Era {
        names: &["平成", "H"],
        first_year: 1989,
        start: (1989, 1, 8),
        end: Some((2019, 4, 30)),
    },
    Era {
        names: &["令和", "R"],
        first_year: 2019,
        start: (2019, 5, 1),
        end: None,
    },
];

/// Full-width digits and punctuation as ASCII, ideographic space as a
/// space, kanji numerals (`三十`, `二〇二四`, `元`) as digits.
fn normalize(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let chars: Vec<char> = raw.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_kanji_numeral(c) {
            let start = i;
            while i < chars.len() && is_kanji_numeral(chars[i]) {
                i += 1;
            }
            match kanji_number(&chars[start..i]) {
                Some(n) => out.push_str(&n.to_string()),
                None => out.extend(&chars[start..i]),
            }
            continue;
        }
        let mapped = match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            '\u{3000}' | '\t' => ' ',
            '元' => '1',
            // Full-width ASCII punctuation and letters.
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            c => c,
        };
        out.push(mapped);
        i += 1;
    }
    out
}

fn is_kanji_numeral(c: char) -> bool {
    matches!(
        c,
        '〇' | '零'
            | '一'
            | '二'
            | '三'
            | '四'
            | '五'
            | '六'
            | '七'
            | '八'
            | '九'
            | '十'
            | '百'
            | '千'
    )
}

fn kanji_digit(c: char) -> Option<u32> {
    Some(match c {
        '〇' | '零' => 0,
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

/// `三十` = 30, `二十三` = 23, `千九百七十九` = 1979, `二〇二四` = 2024.
fn kanji_number(run: &[char]) -> Option<u32> {
    if run.iter().all(|c| kanji_digit(*c).is_some()) {
        return run.iter().try_fold(0u32, |n, c| {
            n.checked_mul(10)?.checked_add(kanji_digit(*c)?)
        });
    }
    let mut total = 0u32;
    let mut digit: Option<u32> = None;
    for &c in run {
        let unit = match c {
            '十' => 10,
            '百' => 100,
            '千' => 1000,
            c => {
                if digit.is_some() {
                    return None;
                }
                digit = Some(kanji_digit(c)?);
                continue;
            }
        };
        total = total.checked_add(digit.take().unwrap_or(1) * unit)?;
    }
    total.checked_add(digit.unwrap_or(0))
}

/// The text with every parenthesised part (a weekday: `(火)`, `（Tue）`)
/// left out.
fn without_parentheses(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.checked_sub(1)?,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    (depth == 0).then_some(out)
}

/// A number and the text after it, up to the next number.
#[derive(Debug)]
struct Token<'a> {
    digits: &'a str,
    after: &'a str,
}

fn tokens(s: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let body = &rest[start..];
        let end = body
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(body.len());
        let digits = &body[..end];
        let tail = &body[end..];
        let next = tail
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(tail.len());
        out.push(Token {
            digits,
            after: &tail[..next],
        });
        rest = &tail[next..];
    }
    out
}

/// Whether `rest` (what follows the last number) may end a date: nothing,
/// a time zone (`JST`, `Z`, `+09:00`) or `?` parts of a partial date.
fn ignorable_tail(rest: &str) -> bool {
    let t = rest.trim();
    t.is_empty()
        || t.eq_ignore_ascii_case("jst")
        || t.eq_ignore_ascii_case("z")
        || t.chars().all(|c| matches!(c, '?' | '.' | '/' | '-'))
}

/// Reads a start date as records write it; `None` when the text is not
/// one of the accepted forms or not a real date.
pub fn parse(raw: &str) -> Option<StartTime> {
    if let Some((date, time)) = quick_parts(raw.trim()) {
        return build(None, &date, &time);
    }
    parse_general(raw)
}

/// Date parts and time parts, as [`build`] takes them.
type QuickParts = ([(i16, &'static str); 3], [(i16, &'static str); 3]);

/// The date and time parts of `YYYY/MM/DD HH:MM:SS` exactly (what most
/// CSA `$START_TIME` lines hold), as [`parse_general`] splits it, without
/// its normalising copies; `None` for any other text.
fn quick_parts(text: &str) -> Option<QuickParts> {
    let b = text.as_bytes();
    let shape = b"dddd/dd/dd dd:dd:dd";
    if b.len() != shape.len() {
        return None;
    }
    for (&c, &s) in b.iter().zip(shape) {
        let ok = if s == b'd' {
            c.is_ascii_digit()
        } else {
            c == s
        };
        if !ok {
            return None;
        }
    }
    let n =
        |r: std::ops::Range<usize>| b[r].iter().fold(0i16, |a, &d| a * 10 + i16::from(d - b'0'));
    Some((
        [(n(0..4), "/"), (n(5..7), "/"), (n(8..10), " ")],
        [(n(11..13), ":"), (n(14..16), ":"), (n(17..19), "")],
    ))
}

/// [`parse`] for any text.
fn parse_general(raw: &str) -> Option<StartTime> {
    let norm = normalize(raw.trim());
    let text = without_parentheses(&norm)?;
    let text = text.trim();
    if text.is_empty() || text.len() > 200 {
        return None;
    }
    let (era, body) = split_era(text)?;
    if !body.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut toks = tokens(body);
    strip_offset(&mut toks);
    let parts = expand(&toks, era.is_some())?;
    // The date ends after its third part, or at a space, `T` or `日`.
    let mut date_len = parts.len();
    for (i, (_, after)) in parts.iter().enumerate() {
        if i == 2 || ends_date(after) {
            date_len = i + 1;
            break;
        }
    }
    let (date, time) = parts.split_at(date_len);
    build(era, date, time)
}

/// Numbers and the separators after them; compact stamps (`20240102`,
/// `202401021005`, `20240102 101530`) split into their parts.
fn expand<'a>(toks: &[Token<'a>], era: bool) -> Option<Vec<(i16, &'a str)>> {
    let mut parts = Vec::with_capacity(6);
    for (i, t) in toks.iter().enumerate() {
        let d = t.digits;
        match (i, d.len()) {
            (0, 1..=2) if era => parts.push((d.parse().ok()?, t.after)),
            (0, 4) if !era => parts.push((d.parse().ok()?, t.after)),
            // A compact month, `202005`.
            (0, 6) if !era && toks.len() == 1 => {
                parts.push((d[0..4].parse().ok()?, "/"));
                parts.push((d[4..6].parse().ok()?, t.after));
            }
            (0, 8 | 12 | 14) if !era => {
                parts.push((d[0..4].parse().ok()?, "/"));
                let mut k = 4;
                while k < d.len() {
                    let sep = if k + 2 == d.len() {
                        t.after
                    } else if k == 6 {
                        " "
                    } else if k < 6 {
                        "/"
                    } else {
                        ":"
                    };
                    parts.push((d[k..k + 2].parse().ok()?, sep));
                    k += 2;
                }
            }
            (0, _) => return None,
            (_, 1..=2) => parts.push((d.parse().ok()?, t.after)),
            // A compact time after a date: `101530`, `1015`.
            (_, 4 | 6) if parts.len() == 3 && toks[i - 1].after.trim().is_empty() => {
                let mut k = 0;
                while k < d.len() {
                    let sep = if k + 2 == d.len() { t.after } else { ":" };
                    parts.push((d[k..k + 2].parse().ok()?, sep));
                    k += 2;
                }
            }
            _ => return None,
        }
    }
    Some(parts)
}

/// Removes a trailing UTC offset (`+09:00`, `+0900`, `-05:00`) after a
/// time of day.
fn strip_offset(toks: &mut Vec<Token<'_>>) {
    let n = toks.len();
    if n >= 4 {
        // hh:mm[:ss]+hh:mm
        let sign = toks[n - 3].after.trim();
        if (sign == "+" || sign == "-")
            && toks[n - 2].after.trim() == ":"
            && toks[n - 1].after.trim().is_empty()
        {
            toks.truncate(n - 2);
            if let Some(t) = toks.last_mut() {
                t.after = "";
            }
            return;
        }
    }
    if n >= 3 {
        let sign = toks[n - 2].after.trim();
        if (sign == "+" || sign == "-")
            && toks[n - 1].digits.len() == 4
            && toks[n - 1].after.trim().is_empty()
        {
            toks.truncate(n - 1);
            if let Some(t) = toks.last_mut() {
                t.after = "";
            }
        }
    }
}

fn ends_date(after: &str) -> bool {
    let t = after.trim_start();
    after.starts_with(' ') || t.starts_with('T') || t.starts_with('日')
}

/// The era a text starts with (`平成`, `H`), and the rest.
fn split_era(text: &str) -> Option<(Option<&'static Era>, &str)> {
    for era in &ERAS {
        for name in era.names {
            if let Some(rest) = text.strip_prefix(name) {
                let rest = rest.trim_start();
                if rest.starts_with(|c: char| c.is_ascii_digit()) {
                    return Some((Some(era), rest));
                }
            }
            if name.len() == 1 {
                let lower = name.to_ascii_lowercase();
                if let Some(rest) = text.strip_prefix(lower.as_str()) {
                    if rest.starts_with(|c: char| c.is_ascii_digit()) {
                        return Some((Some(era), rest));
                    }
                }
            }
        }
    }
    Some((None, text))
}

/// A separator between date parts: one of `/ - .` (the same throughout)
/// or the marks `年 月 日`.
fn date_sep_ok(after: &str, index: usize, style: &mut Option<char>) -> bool {
    let t = after.trim();
    let mark = match index {
        0 => '年',
        1 => '月',
        _ => '日',
    };
    if t.starts_with(mark) {
        return true;
    }
    match t.chars().next() {
        Some(c @ ('/' | '-' | '.')) if t.len() == 1 => match style {
            Some(s) => *s == c,
            None => {
                *style = Some(c);
                true
            }
        },
        _ => false,
    }
}

fn build(
    era: Option<&'static Era>,
    date: &[(i16, &str)],
    time: &[(i16, &str)],
) -> Option<StartTime> {
    let mut style = None;
    let (year_n, year_after) = *date.first()?;
    let year = match era {
        Some(e) => e.first_year.checked_add(year_n)?.checked_sub(1)?,
        None => year_n,
    };
    if !(1..=9999).contains(&year) {
        return None;
    }
    // Separators between the date parts given.
    for (i, (_, after)) in date.iter().enumerate() {
        let last = i + 1 == date.len();
        if last {
            let t = after.trim();
            let mark_ok = match i {
                0 => t.starts_with('年'),
                1 => t.starts_with('月'),
                _ => t.starts_with('日'),
            };
            let rest = t.strip_prefix(['年', '月', '日']).unwrap_or(t).trim_start();
            if !(mark_ok || t.is_empty() || ends_date(after) || ignorable_tail(t)) {
                return None;
            }
            if !(time.is_empty() || rest.is_empty() || rest.starts_with('T')) {
                return None;
            }
            if time.is_empty() && !(rest.is_empty() || ignorable_tail(rest)) {
                return None;
            }
        } else if !date_sep_ok(after, i, &mut style) {
            return None;
        }
    }
    // A year alone: with a mark (`2024年`, an era), `?` parts, or the
    // whole text (`開始日時：2019`, `[Date "2019"]`: a date field that gives
    // only the year); never before a time of day.
    if date.len() == 1
        && era.is_none()
        && !year_after.trim_start().starts_with(['年', '.', '/', '-'])
        && !(year_after.trim().is_empty() && time.is_empty())
    {
        return None;
    }
    let month = date.get(1).map_or(1, |p| p.0);
    let day = date.get(2).map_or(1, |p| p.0);
    let d = Date::new(year, i8::try_from(month).ok()?, i8::try_from(day).ok()?).ok()?;
    if let Some(e) = era {
        let (y, m, dd) = e.start;
        if d < Date::new(y, m, dd).ok()? {
            return None;
        }
        if let Some((y, m, dd)) = e.end {
            if d > Date::new(y, m, dd).ok()? {
                return None;
            }
        }
    }
    let mut precision = match date.len() {
        1 => Precision::Year,
        2 => Precision::Month,
        _ => Precision::Day,
    };
    let (mut h, mut mi, mut s) = (0i8, 0i8, 0i8);
    if !time.is_empty() {
        if precision != Precision::Day || time.len() > 3 {
            return None;
        }
        for (i, (v, after)) in time.iter().enumerate() {
            let v = i8::try_from(*v).ok()?;
            let t = after.trim();
            let last = i + 1 == time.len();
            let mark = ['時', '分', '秒'][i];
            let ok = if last {
                t.is_empty()
                    || t.starts_with(mark) && t[mark.len_utf8()..].trim().is_empty()
                    || ignorable_tail(t) && !t.contains(['.', '/', '-'])
            } else {
                t == ":" || t.starts_with(mark) && t[mark.len_utf8()..].trim().is_empty()
            };
            if !ok {
                return None;
            }
            match i {
                0 => h = v,
                1 => mi = v,
                _ => s = v,
            }
        }
        // `10:05` alone is a time; `10` alone needs its mark (`10時`).
        if time.len() == 1 && !time[0].1.trim().starts_with('時') {
            return None;
        }
        precision = match time.len() {
            1 => Precision::Hour,
            2 => Precision::Minute,
            _ => Precision::Second,
        };
    }
    let t = Time::new(h, mi, s, 0).ok()?;
    Some(StartTime {
        datetime: d.to_datetime(t),
        precision,
    })
}

/// The start time in the one ISO form of the tables, if the text parses.
pub fn iso(raw: &str) -> Option<String> {
    parse(raw).map(|t| t.iso())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_quick_path_agrees_with_the_general_one() {
        for t in [
            "2024/02/02 01:01:00",
            " 2024/12/31 23:59:59 ",
            "0000/01/01 00:00:00",
            "9999/99/99 99:99:99",
            "2024/02/30 10:00:00",
            "2024/02/02 24:00:00",
            "2024/02/02 01:01:60",
            "1999/00/10 12:00:00",
            "2024/02/02T01:01:00",
            "2024-02-02 01:01:00",
            "2024/02/02 01:01",
            "２０２４/02/02 01:01:00",
        ] {
            assert_eq!(super::parse(t), super::parse_general(t), "{t:?}");
        }
        assert!(super::quick_parts("2024/02/02 01:01:00").is_some());
        assert!(super::quick_parts("2024/02/02T01:01:00").is_none());
    }

    use super::*;

    fn p(s: &str) -> Option<(String, &'static str)> {
        parse(s).map(|t| (t.iso(), t.precision().name()))
    }

    fn ok(s: &str, iso: &str, precision: &str) {
        assert_eq!(
            p(s),
            Some((
                iso.to_string(),
                match precision {
                    "year" => "year",
                    "month" => "month",
                    "day" => "day",
                    "hour" => "hour",
                    "minute" => "minute",
                    _ => "second",
                }
            )),
            "{s}"
        );
    }

    #[test]
    fn forms_programs_write() {
        ok("2024/01/02 10:00:00", "2024-01-02T10:00:00", "second");
        ok("1999/07/15(木) 19:07:12", "1999-07-15T19:07:12", "second");
        ok("2024/1/2 9:05", "2024-01-02T09:05:00", "minute");
        ok("2024-01-02", "2024-01-02T00:00:00", "day");
        ok("2024-01-02T10:00:00", "2024-01-02T10:00:00", "second");
        ok("2024-01-02T10:00:00+09:00", "2024-01-02T10:00:00", "second");
        ok("2024-01-02 10:00 JST", "2024-01-02T10:00:00", "minute");
        ok("2024.01.02", "2024-01-02T00:00:00", "day");
        ok("19970822", "1997-08-22T00:00:00", "day");
        ok("20240102 101530", "2024-01-02T10:15:30", "second");
        ok("２０２２/０７/２９", "2022-07-29T00:00:00", "day");
        ok(
            "２０２２／０７／２９　１０：００",
            "2022-07-29T10:00:00",
            "minute",
        );
        ok("2003/05/03 10:30", "2003-05-03T10:30:00", "minute");
        ok("2024年1月2日", "2024-01-02T00:00:00", "day");
        ok(
            "2024年01月02日(火) 10時05分",
            "2024-01-02T10:05:00",
            "minute",
        );
        ok("2024年1月2日 10時", "2024-01-02T10:00:00", "hour");
        ok("2024年1月", "2024-01-01T00:00:00", "month");
        ok("2024年", "2024-01-01T00:00:00", "year");
        // A date field that gives only the year or the month (issue 27).
        ok("2019", "2019-01-01T00:00:00", "year");
        ok(" ２０１９ ", "2019-01-01T00:00:00", "year");
        ok("2019/05", "2019-05-01T00:00:00", "month");
        ok("201905", "2019-05-01T00:00:00", "month");
        ok("2024.??.??", "2024-01-01T00:00:00", "year");
        ok("2024.05.??", "2024-05-01T00:00:00", "month");
        ok("2024/02/29", "2024-02-29T00:00:00", "day");
    }

    #[test]
    fn era_dates() {
        ok("平成30年1月2日", "2018-01-02T00:00:00", "day");
        ok("令和5年", "2023-01-01T00:00:00", "year");
        ok("令和元年5月1日", "2019-05-01T00:00:00", "day");
        ok("平成元年1月8日", "1989-01-08T00:00:00", "day");
        ok("昭和五十四年三月一日", "1979-03-01T00:00:00", "day");
        ok("昭和54年3月1日(木) 10:00", "1979-03-01T10:00:00", "minute");
        ok("平成３０年１月２日", "2018-01-02T00:00:00", "day");
        ok("大正15年12月24日", "1926-12-24T00:00:00", "day");
        ok("明治40年1月1日", "1907-01-01T00:00:00", "day");
        ok("H30.1.2", "2018-01-02T00:00:00", "day");
        ok("二〇二四年一月二日", "2024-01-02T00:00:00", "day");
    }

    #[test]
    fn every_calendar_day_and_only_those() {
        for y in [1900i16, 1999, 2000, 2023, 2024] {
            for m in 1..=13i8 {
                for d in 0..=32i8 {
                    let real = Date::new(y, m, d).is_ok();
                    for text in [format!("{y}/{m}/{d}"), format!("{y}年{m}月{d}日")] {
                        assert_eq!(parse(&text).is_some(), real, "{text}");
                    }
                }
            }
        }
    }

    #[test]
    fn not_dates() {
        for s in [
            "2023/02/30",
            "2023/02/29",
            "2024/13/02",
            "2024/00/10",
            "2024/01/02 25:00",
            "2024/01/02 10:61",
            "平成31年5月1日",
            "令和元年4月30日",
            "平成0年1月1日",
            "明治元年1月1日",
            "明治5年12月2日",
            "yesterday",
            "",
            "12:00",
            "2024 10:00",
            "201913",
            "202405 1015",
            "2024/01-02",
            "2024/01/02 〜 2024/01/03",
            "2024/01/02 10",
            "第3局 2024/01/02",
            "20241301",
            "九千九千九千九千九千九千九千九千九千九千九千九千九千九千年",
            "九九九九九九九九九九九九九九九九九九年",
        ] {
            assert_eq!(p(s), None, "{s}");
        }
    }
}

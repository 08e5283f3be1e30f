//! A time control read from the text a record gives it (`持ち時間：10分+30秒`,
//! CSA `$TIME_LIMIT:00:10+30` and `$TIME:600+30+0`), so that a writer
//! can state it in its own form.
//!
//! ```
//! use kifu::record::TimeControl;
//!
//! let t = TimeControl::parse("各10分+30秒").unwrap();
//! assert_eq!((t.base_ms, t.byoyomi_ms, t.increment_ms), (600_000, 30_000, 0));
//! assert_eq!(t.csa_time(), "600+30+0");
//! assert_eq!(t.csa_time_limit().as_deref(), Some("00:10+30"));
//! assert_eq!(TimeControl::parse("60分 切れたら1分将棋"), None);
//! ```

/// A time control: a base time for each player, then a byoyomi (a time
/// per move once the base is spent) and an increment (added after every
/// move, Fischer), in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Each player's base time.
    pub base_ms: u64,
    /// The time per move once the base is spent (0: none).
    pub byoyomi_ms: u64,
    /// The time added after each move (0: none).
    pub increment_ms: u64,
}

impl TimeControl {
    /// Reads a time control written in one of the forms records use;
    /// `None` for any other text (it is then only text: no field of a
    /// time control is guessed):
    ///
    /// * CSA V3.0 `$TIME`: `base+byoyomi+increment` in seconds, up to three
    ///   decimals (`900+0+5`, `0+30+0`; ShogiHome writes it in KIF too);
    /// * CSA V2 `$TIME_LIMIT`: `HH:MM+SS`, base and byoyomi (`00:25+00`);
    /// * Japanese: an optional `各`, a base of hours and minutes (`10分`,
    ///   `2時間`, `1時間30分`), then `+N秒` or `（秒読みN秒）` for a
    ///   byoyomi (`10分+30秒`, the form of Shogi Club 24 and 81Dojo),
    ///   `+N秒加算` for an increment, or `切れ負け` for none; full-width
    ///   digits and signs are read alike. A base with seconds
    ///   (`15分30秒`: 15½ minutes, or 15 minutes and a 30-second
    ///   byoyomi?) is not read.
    pub fn parse(text: &str) -> Option<TimeControl> {
        let t: String = text
            .trim()
            .chars()
            .map(|c| match c {
                '０'..='９' | '＋' | '：' | '（' | '）' | '．' => {
                    char::from_u32(c as u32 - 0xfee0).unwrap_or(c)
                }
                '\u{3000}' => ' ',
                c => c,
            })
            .collect();
        csa_time(&t)
            .or_else(|| csa_time_limit(&t))
            .or_else(|| japanese(&t))
    }

    /// The CSA V3.0 `$TIME` value: `base+byoyomi+increment` in seconds
    /// (`600+30+0`, `0.5+0+0`).
    pub fn csa_time(&self) -> String {
        format!(
            "{}+{}+{}",
            seconds(self.base_ms),
            seconds(self.byoyomi_ms),
            seconds(self.increment_ms)
        )
    }

    /// The CSA V2 `$TIME_LIMIT` value, `HH:MM+SS`, when it can state the
    /// time control: a base of whole minutes, a byoyomi of whole seconds
    /// (up to 99 written in two digits, more in as many as needed), no
    /// increment.
    pub fn csa_time_limit(&self) -> Option<String> {
        if self.increment_ms != 0
            || !self.base_ms.is_multiple_of(60_000)
            || !self.byoyomi_ms.is_multiple_of(1000)
        {
            return None;
        }
        let minutes = self.base_ms / 60_000;
        Some(format!(
            "{:02}:{:02}+{:02}",
            minutes / 60,
            minutes % 60,
            self.byoyomi_ms / 1000
        ))
    }
}

/// Milliseconds as seconds with up to three decimals (`30`, `0.5`).
fn seconds(ms: u64) -> String {
    let (s, f) = (ms / 1000, ms % 1000);
    if f == 0 {
        s.to_string()
    } else {
        format!("{s}.{}", format!("{f:03}").trim_end_matches('0'))
    }
}

/// Seconds with up to three decimals (`900`, `0.5`) as milliseconds.
fn millis(s: &str) -> Option<u64> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 3
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || (s.contains('.') && frac.is_empty())
    {
        return None;
    }
    let f: u64 = format!("{frac:0<3}").parse().ok()?;
    whole.parse::<u64>().ok()?.checked_mul(1000)?.checked_add(f)
}

fn digits(s: &str) -> Option<u64> {
    (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `base+byoyomi+increment`.
fn csa_time(t: &str) -> Option<TimeControl> {
    let mut it = t.split('+');
    let (a, b, c) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    Some(TimeControl {
        base_ms: millis(a)?,
        byoyomi_ms: millis(b)?,
        increment_ms: millis(c)?,
    })
}

/// `HH:MM+SS`.
fn csa_time_limit(t: &str) -> Option<TimeControl> {
    let (hm, ss) = t.split_once('+')?;
    let (hh, mm) = hm.split_once(':')?;
    let (h, m, s) = (digits(hh)?, digits(mm)?, digits(ss)?);
    if mm.len() != 2 || m >= 60 {
        return None;
    }
    Some(TimeControl {
        base_ms: (h * 60 + m) * 60_000,
        byoyomi_ms: s * 1000,
        increment_ms: 0,
    })
}

/// A number and the unit after it (`10分`), and the rest.
fn amount<'a>(t: &'a str, unit: &str) -> Option<(u64, &'a str)> {
    let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let n = digits(&t[..end])?;
    Some((n, t[end..].strip_prefix(unit)?))
}

/// `[各]N時間[M分]` or `[各]M分`, then `+N秒`, `+N秒加算`, `(秒読みN秒)` or
/// `切れ負け`.
fn japanese(t: &str) -> Option<TimeControl> {
    let t = t.strip_prefix('各').unwrap_or(t).trim_start();
    let mut base = 0u64;
    let mut rest = t;
    let mut any = false;
    if let Some((h, r)) = amount(rest, "時間") {
        base = h.checked_mul(3_600_000)?;
        rest = r;
        any = true;
    }
    if let Some((m, r)) = amount(rest, "分") {
        base = base.checked_add(m.checked_mul(60_000)?)?;
        rest = r;
        any = true;
    }
    if !any {
        return None;
    }
    let rest = rest.trim();
    let mut tc = TimeControl {
        base_ms: base,
        byoyomi_ms: 0,
        increment_ms: 0,
    };
    if rest.is_empty() || rest == "切れ負け" {
        return Some(tc);
    }
    if let Some(r) = rest.strip_prefix('+') {
        let (s, r) = amount(r.trim_start(), "秒")?;
        match r.trim() {
            "" => tc.byoyomi_ms = s.checked_mul(1000)?,
            "加算" => tc.increment_ms = s.checked_mul(1000)?,
            _ => return None,
        }
        return Some(tc);
    }
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?.trim();
    let (s, r) = amount(inner.strip_prefix("秒読み")?.trim_start(), "秒")?;
    if !r.trim().is_empty() {
        return None;
    }
    tc.byoyomi_ms = s.checked_mul(1000)?;
    Some(tc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(text: &str) -> Option<(u64, u64, u64)> {
        TimeControl::parse(text)
            .map(|t| (t.base_ms / 1000, t.byoyomi_ms / 1000, t.increment_ms / 1000))
    }

    #[test]
    fn forms_records_write() {
        assert_eq!(tc("10分+30秒"), Some((600, 30, 0)));
        assert_eq!(tc("１５分＋６０秒"), Some((900, 60, 0)));
        assert_eq!(tc("3分+0秒"), Some((180, 0, 0)));
        assert_eq!(tc("各8時間"), Some((28_800, 0, 0)));
        assert_eq!(tc("0時間40分"), Some((2400, 0, 0)));
        assert_eq!(tc("1時間30分（秒読み60秒）"), Some((5400, 60, 0)));
        assert_eq!(tc("10分切れ負け"), Some((600, 0, 0)));
        assert_eq!(tc("5分+10秒加算"), Some((300, 0, 10)));
        assert_eq!(tc("30+0+5"), Some((30, 0, 5)));
        assert_eq!(tc("900+0+5"), Some((900, 0, 5)));
        assert_eq!(tc("00:25+00"), Some((1500, 0, 0)));
        assert_eq!(tc("10:00+10"), Some((36_000, 10, 0)));
        assert_eq!(
            TimeControl::parse("0.5+1.25+0").map(|t| (t.base_ms, t.byoyomi_ms)),
            Some((500, 1250))
        );
    }

    #[test]
    fn other_text_is_not_guessed() {
        for t in [
            "",
            "15分30秒",
            "60分 切れたら1分将棋",
            "15分＋30秒＋（考慮時間10分）",
            "15分＋30秒＋10回",
            "なし（初手より１手30秒未満）",
            "3",
            "40/7200:3600",
            "1+2",
            "1+2+3+4",
            "00:60+00",
            "0.1234+0+0",
            "十分",
        ] {
            assert_eq!(TimeControl::parse(t), None, "{t}");
        }
    }

    #[test]
    fn csa_forms() {
        let t = TimeControl::parse("10分+30秒").unwrap();
        assert_eq!(t.csa_time(), "600+30+0");
        assert_eq!(t.csa_time_limit().as_deref(), Some("00:10+30"));
        let t = TimeControl::parse("各8時間").unwrap();
        assert_eq!(t.csa_time_limit().as_deref(), Some("08:00+00"));
        let t = TimeControl::parse("5分+10秒加算").unwrap();
        assert_eq!(t.csa_time(), "300+0+10");
        assert_eq!(t.csa_time_limit(), None);
        let t = TimeControl::parse("0.5+0+0").unwrap();
        assert_eq!(
            (t.csa_time().as_str(), t.csa_time_limit()),
            ("0.5+0+0", None)
        );
        // Each form reads back as what it states.
        for text in [
            "10分+30秒",
            "900+0+5",
            "00:25+00",
            "1時間30分（秒読み60秒）",
        ] {
            let t = TimeControl::parse(text).unwrap();
            assert_eq!(TimeControl::parse(&t.csa_time()), Some(t), "{text}");
            if let Some(l) = t.csa_time_limit() {
                assert_eq!(TimeControl::parse(&l), Some(t), "{text}");
            }
        }
    }
}

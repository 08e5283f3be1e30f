//! Dates of games and the bounds of `--since`/`--until`.

use std::fmt;
use std::str::FromStr;

/// A calendar day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day {
    /// Year.
    pub year: u32,
    /// Month, 1–12.
    pub month: u32,
    /// Day of the month, 1–31.
    pub day: u32,
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        _ => 28,
    }
}

/// A span of days: a day, a month or a year, as a date is written with
/// more or less precision (`2020-05-17`, `2020-05`, `2020`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateSpan {
    /// The first day.
    pub first: Day,
    /// The last day.
    pub last: Day,
}

impl DateSpan {
    /// The span of a date as records and users write it: every form
    /// [`crate::date::parse`] reads, the one reader of dates (`kifu
    /// stats` and `kifu select --format json` report what it reads), so a
    /// record's date selects a game exactly when they report it: a day
    /// (`2024/01/02 10:00:00`, `1999/07/15(木)`, `2024.01.02`, `19970822`,
    /// full-width digits; the time is ignored), a month (`2020-05`,
    /// `2020/05`, `202005`, `2020年5月`) or a year (`2020`, `2020年`,
    /// `令和2年`).
    ///
    /// ```
    /// use kifu::select::DateSpan;
    /// let may = DateSpan::parse("2020-05").unwrap();
    /// assert_eq!((may.first.to_string(), may.last.to_string()), ("2020-05-01".into(), "2020-05-31".into()));
    /// assert_eq!(DateSpan::parse("2024/02/29 10:00").unwrap().first.to_string(), "2024-02-29");
    /// assert!(DateSpan::parse("2023-02-29").is_none());
    /// assert!(DateSpan::parse("yesterday").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<DateSpan> {
        use crate::date::Precision;
        let t = crate::date::parse(text)?;
        let d = t.datetime().date();
        let (year, month) = (u32::try_from(d.year()).ok()?, d.month() as u32);
        let first = Day {
            year,
            month,
            day: d.day() as u32,
        };
        let last = match t.precision() {
            Precision::Year => Day {
                year,
                month: 12,
                day: 31,
            },
            Precision::Month => Day {
                year,
                month,
                day: days_in_month(year, month),
            },
            _ => first,
        };
        Some(DateSpan { first, last })
    }
}

/// A `--since`/`--until` bound: the span it names (`--since 2020` starts
/// on 2020-01-01, `--until 2020` ends on 2020-12-31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateBound(pub DateSpan);

impl FromStr for DateBound {
    type Err = String;
    fn from_str(s: &str) -> Result<DateBound, String> {
        DateSpan::parse(s).map(DateBound).ok_or_else(|| {
            format!("`{s}` is not a date (expected 2020, 2020-05, 2020-05-17 or 2020/05/17)")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(s: &str) -> Option<(String, String)> {
        DateSpan::parse(s).map(|d| (d.first.to_string(), d.last.to_string()))
    }

    #[test]
    fn spans_of_years_months_and_days() {
        let s = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        assert_eq!(span("2020"), s("2020-01-01", "2020-12-31"));
        assert_eq!(span("２０２０年"), s("2020-01-01", "2020-12-31"));
        assert_eq!(span("2020-02"), s("2020-02-01", "2020-02-29"));
        assert_eq!(span("2021/2"), s("2021-02-01", "2021-02-28"));
        assert_eq!(span("2020年5月"), s("2020-05-01", "2020-05-31"));
        assert_eq!(span("202005"), s("2020-05-01", "2020-05-31"));
        assert_eq!(span("2020-05-17"), s("2020-05-17", "2020-05-17"));
        assert_eq!(span("2020/05/17 10:00:00"), s("2020-05-17", "2020-05-17"));
        assert_eq!(
            span("1999/07/15(木) 19:07:12"),
            s("1999-07-15", "1999-07-15")
        );
        assert_eq!(span("20200517"), s("2020-05-17", "2020-05-17"));
        assert_eq!(span("2020-13"), None);
        assert_eq!(span("2020-04-31"), None);
        assert_eq!(span("May 2020"), None);
        assert_eq!(span(""), None);
        assert_eq!(span("20"), None);
    }

    /// A record's date selects a game exactly when `kifu stats` and
    /// `kifu select --format json` report it, at the same precision
    /// (issue 27: a year alone matched `--since` but was reported
    /// unreadable).
    #[test]
    fn spans_are_the_dates_the_tables_report() {
        for text in [
            "2019",
            "２０１９",
            "2019年",
            "令和2年",
            "2019-05",
            "2019/5",
            "201905",
            "2019年5月",
            "2019.??.??",
            "2019/05/17",
            "2019/05/17 10:00:00",
            "20190517",
            "2019 10:00",
            "201913",
            "2019/02/29",
            "May 2019",
            "",
        ] {
            let span = DateSpan::parse(text);
            let read = crate::date::parse(text);
            assert_eq!(span.is_some(), read.is_some(), "{text:?}");
            assert_eq!(span.is_some(), crate::date::iso(text).is_some(), "{text:?}");
            if let (Some(span), Some(read)) = (span, read) {
                let whole = span.first != span.last;
                assert_eq!(
                    whole,
                    read.precision() <= crate::date::Precision::Month,
                    "{text:?}"
                );
            }
        }
        assert_eq!(
            span("2019"),
            Some(("2019-01-01".to_string(), "2019-12-31".to_string()))
        );
    }
}

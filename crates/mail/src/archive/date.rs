//! Dates on archive pages: one format everywhere, the sender's date as written and the
//! same instant in UTC.
//!
//! # Algorithm
//!
//! The scanner gives a message's Date in RFC 3339 form with the sender's offset
//! (`2024-01-05T00:30:00+01:00`). [`Instant::parse`] reads it; the UTC instant is the local
//! time less the offset, computed on days since 1970-01-01 with the civil-calendar
//! conversions of Howard Hinnant's `days_from_civil` / `civil_from_days` (proleptic
//! Gregorian, exact for every year of four digits). [`Instant::shown`] writes
//! `2024-01-05 00:30 +01:00 (2024-01-04 23:30 UTC)`, or `2024-01-05 11:30 UTC` when the
//! offset is zero, or the UTC time alone in the brackets when the day is the same. Months
//! ([`Instant::month`]) and the order of messages in them are those of the UTC instant.
//!
//! # Invariants
//!
//! A text that is not such a date is no [`Instant`]: it is shown as it is, and its message
//! is undated.

/// A date as the sender wrote it, and the same instant in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Instant {
    /// The sender's local date and time: year, month, day, hour, minute.
    local: (i64, u32, u32, u32, u32),
    /// The sender's offset from UTC, in minutes.
    offset: i64,
    /// The UTC instant, in minutes since 1970-01-01 00:00.
    utc: i64,
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

impl Instant {
    /// Reads `YYYY-MM-DDTHH:MM[:SS[.frac]](Z|±HH:MM)`.
    pub(crate) fn parse(date: &str) -> Option<Instant> {
        let b = date.as_bytes();
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            let s = date.get(r)?;
            s.bytes()
                .all(|c| c.is_ascii_digit())
                .then(|| s.parse().ok())?
        };
        if b.len() < 17 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' {
            return None;
        }
        let (year, month, day) = (i64::from(num(0..4)?), num(5..7)?, num(8..10)?);
        let (hour, minute) = (num(11..13)?, num(14..16)?);
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
            return None;
        }
        // The zone: after the seconds and their fraction, if any.
        let zone_at = b[16..]
            .iter()
            .position(|&c| matches!(c, b'Z' | b'z' | b'+' | b'-'))?
            + 16;
        let zone = &date[zone_at..];
        let offset = match zone.as_bytes() {
            [b'Z' | b'z'] => 0,
            [sign @ (b'+' | b'-'), ..] if zone.len() == 6 && zone.as_bytes()[3] == b':' => {
                let h = i64::from(num(zone_at + 1..zone_at + 3)?);
                let m = i64::from(num(zone_at + 4..zone_at + 6)?);
                if h > 23 || m > 59 {
                    return None;
                }
                if *sign == b'-' {
                    -(h * 60 + m)
                } else {
                    h * 60 + m
                }
            }
            _ => return None,
        };
        let local =
            days_from_civil(year, month, day) * 1440 + i64::from(hour) * 60 + i64::from(minute);
        Some(Instant {
            local: (year, month, day, hour, minute),
            offset,
            utc: local - offset,
        })
    }

    /// The UTC date and time: year, month, day, hour, minute.
    pub(crate) fn utc(&self) -> (i64, u32, u32, u32, u32) {
        let days = self.utc.div_euclid(1440);
        let minutes = self.utc.rem_euclid(1440);
        let (y, m, d) = civil_from_days(days);
        (y, m, d, (minutes / 60) as u32, (minutes % 60) as u32)
    }

    /// The UTC month, `YYYY-MM`; `undated` when its year is not of four digits (a date
    /// of 9999 or 0000 whose offset moves it across), so that every month names a page
    /// the state file takes.
    pub(crate) fn month(&self) -> String {
        let (y, m, ..) = self.utc();
        if !(0..=9999).contains(&y) {
            return "undated".into();
        }
        format!("{y:04}-{m:02}")
    }

    /// Minutes since 1970-01-01 00:00 UTC, for ordering.
    pub(crate) fn minutes(&self) -> i64 {
        self.utc
    }

    /// The date as shown on every page (see the [module](self) documentation).
    pub(crate) fn shown(&self) -> String {
        let (y, mo, d, h, mi) = self.local;
        let (uy, umo, ud, uh, umi) = self.utc();
        if self.offset == 0 {
            return format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02} UTC");
        }
        let sign = if self.offset < 0 { '-' } else { '+' };
        let (oh, om) = (self.offset.abs() / 60, self.offset.abs() % 60);
        let local = format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02} {sign}{oh:02}:{om:02}");
        if (uy, umo, ud) == (y, mo, d) {
            format!("{local} ({uh:02}:{umi:02} UTC)")
        } else {
            format!("{local} ({uy:04}-{umo:02}-{ud:02} {uh:02}:{umi:02} UTC)")
        }
    }
}

/// How a message's date (RFC 3339, or other text) is shown: [`Instant::shown`], else the
/// text as it is.
pub(crate) fn shown(date: &str) -> String {
    Instant::parse(date).map_or_else(|| date.to_string(), |i| i.shown())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sender_date_and_the_same_instant_in_utc() {
        assert_eq!(shown("2024-01-05T12:30:00Z"), "2024-01-05 12:30 UTC");
        assert_eq!(
            shown("2024-01-05T12:30:00+01:00"),
            "2024-01-05 12:30 +01:00 (11:30 UTC)"
        );
        assert_eq!(
            shown("2024-01-01T00:30:00+01:00"),
            "2024-01-01 00:30 +01:00 (2023-12-31 23:30 UTC)"
        );
        assert_eq!(
            shown("2024-02-28T22:00:00-05:30"),
            "2024-02-28 22:00 -05:30 (2024-02-29 03:30 UTC)"
        );
        assert_eq!(shown("yesterday"), "yesterday");
        assert_eq!(shown("2024-13-01T00:00:00Z"), "2024-13-01T00:00:00Z");
        let i = Instant::parse("2024-01-01T00:30:00+01:00").unwrap();
        assert_eq!(i.month(), "2023-12");
    }

    /// A date whose UTC instant falls outside the years of four digits (9999-12-31 23:59
    /// at -12:00, 0000-01-01 00:00 at +14:00) has no month page of its own: its month is
    /// `undated`, a name the state file takes.
    #[test]
    fn a_month_beyond_four_digits_is_undated() {
        for date in ["9999-12-31T23:59:00-12:00", "0000-01-01T00:00:00+14:00"] {
            let month = Instant::parse(date).unwrap().month();
            assert!(
                crate::archive::files::is_page_name(&format!("{month}.html")),
                "{date}: {month}"
            );
        }
        assert_eq!(
            Instant::parse("9999-12-31T23:59:00Z").unwrap().month(),
            "9999-12"
        );
    }

    #[test]
    fn civil_days_round_trip() {
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    }
}

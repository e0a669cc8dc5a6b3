//! Where results go: every run and study in its own dated folder,
//! `bench/results/YYYY-MM-DD-topic/`, so a figure can always be traced to
//! the day it was measured and a new run never overwrites an old one.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// `bench/results/` of this checkout.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results")
}

/// `bench/results/<today, UTC>-<topic>`: the default output of a bench binary.
pub fn dated_dir(topic: &str) -> PathBuf {
    dir().join(format!("{}-{topic}", today_utc()))
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today_utc() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((secs / 86_400) as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A folder name's date and topic, if it is named `YYYY-MM-DD-topic`.
pub fn split_dated(name: &str) -> Option<(&str, &str)> {
    let (date, topic) = (name.get(..10)?, name.get(11..)?);
    let digits_at = |range: std::ops::Range<usize>| date[range].bytes().all(|b| b.is_ascii_digit());
    let shaped = digits_at(0..4) && digits_at(5..7) && digits_at(8..10) && &date[4..5] == "-" && &date[7..8] == "-";
    (shaped && name.as_bytes()[10] == b'-' && !topic.is_empty()).then_some((date, topic))
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`), to spare a date crate.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_785), (2026, 11, 28));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn dated_names_split() {
        assert_eq!(split_dated("2026-11-26-engine"), Some(("2026-11-26", "engine")));
        assert_eq!(split_dated("2026-11-24-soak-reload-chaos"), Some(("2026-11-24", "soak-reload-chaos")));
        assert_eq!(split_dated("soak"), None);
        assert_eq!(split_dated("2026-11-26"), None);
        assert_eq!(split_dated("2026-1x-26-engine"), None);
        let today = dated_dir("report");
        let name = today.file_name().unwrap().to_str().unwrap();
        assert_eq!(split_dated(name).map(|(_, topic)| topic), Some("report"));
        assert_eq!(today.parent(), Some(dir().as_path()));
    }
}

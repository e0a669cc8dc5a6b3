//! Where results go: every run and study in its own dated folder,
//! `bench/results/YYYY-MM-DD-topic/`, so a figure can always be traced to
//! the day it was measured and a new run never overwrites an old one.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chrono::{DateTime, NaiveDate, Utc};

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
    DateTime::<Utc>::from(SystemTime::now()).format(DATE).to_string()
}

/// A folder name's date and topic, if it is named `YYYY-MM-DD-topic`.
pub fn split_dated(name: &str) -> Option<(&str, &str)> {
    let (date, topic) = (name.get(..10)?, name.get(11..)?);
    let dated = NaiveDate::parse_from_str(date, DATE).is_ok() && name.as_bytes()[10] == b'-';
    (dated && !topic.is_empty()).then_some((date, topic))
}

/// How a folder name writes its date.
const DATE: &str = "%Y-%m-%d";

#[cfg(test)]
mod tests {
    use super::*;

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

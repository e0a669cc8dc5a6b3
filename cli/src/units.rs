//! Durations and sizes, as flags and as `mcp-wit.toml` values: one parser
//! each, so `--timeout 45s` and `timeout = "45s"` mean the same.

use std::time::Duration;

use serde::{Deserialize, Deserializer};

/// `30s`, `1.5s`, `500ms`, `10m`, `1h`. A bare number is refused: seconds
/// to one reader are milliseconds to another. Zero is refused: no setting
/// means "never" by it.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if text.parse::<f64>().is_ok() {
        return Err(format!("`{text}` has no unit: write it as {text}s, {text}ms or {text}m"));
    }
    let duration = humantime::parse_duration(text)
        .map_err(|e| format!("`{text}` is not a duration like 30s, 500ms or 10m ({e})"))?;
    if duration.is_zero() {
        return Err(format!("`{text}`: must be more than zero"));
    }
    Ok(duration)
}

/// `1048576`, `512KiB`, `256MiB`, `1GiB` (also `K`, `M`, `G`, `KB`, `MB`,
/// `GB`, all powers of 1024).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("`{text}`: unknown unit (use KiB, MiB or GiB)")),
    };
    let n: usize = number.parse().map_err(|_| format!("`{text}` is not a size like 256MiB"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

/// A value written as text or as a bare number in the file.
#[derive(Deserialize)]
#[serde(untagged)]
enum TextOrNumber {
    Text(String),
    Number(u64),
}

impl TextOrNumber {
    fn parse<T>(self, parse: fn(&str) -> Result<T, String>) -> Result<T, String> {
        match self {
            TextOrNumber::Text(text) => parse(&text),
            TextOrNumber::Number(n) => parse(&n.to_string()),
        }
    }
}

/// An optional duration in the file (`"30s"` or `30`).
pub fn duration<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    let value = Option::<TextOrNumber>::deserialize(d)?;
    value.map(|v| v.parse(parse_duration)).transpose().map_err(serde::de::Error::custom)
}

/// An optional size in the file (`"64MiB"` or `67108864`).
pub fn size<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let value = Option::<TextOrNumber>::deserialize(d)?;
    value.map(|v| v.parse(parse_size)).transpose().map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        for bad in ["", "0", "0s", "1x", "s", "-1", "45", "1.5"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_duration("5").unwrap_err(), "`5` has no unit: write it as 5s, 5ms or 5m");
    }

    #[test]
    fn parses_sizes() {
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("512KiB"), Ok(512 << 10));
        assert_eq!(parse_size("256MiB"), Ok(256 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        for bad in ["", "MiB", "1TiB", "-1"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn file_values_are_text_or_numbers() {
        #[derive(Deserialize)]
        struct T {
            #[serde(default, deserialize_with = "duration")]
            d: Option<Duration>,
            #[serde(default, deserialize_with = "size")]
            s: Option<usize>,
        }
        let t: T = toml::from_str("d = \"45s\"\ns = 1024").unwrap();
        assert_eq!((t.d, t.s), (Some(Duration::from_secs(45)), Some(1024)));
        let t: T = toml::from_str("d = \"45s\"\ns = \"1KiB\"").unwrap();
        assert_eq!((t.d, t.s), (Some(Duration::from_secs(45)), Some(1024)));
        // `timeout = 5`: which unit was meant is not said.
        assert!(toml::from_str::<T>("d = 5").is_err());
        let t: T = toml::from_str("").unwrap();
        assert_eq!((t.d, t.s), (None, None));
        assert!(toml::from_str::<T>("d = \"0s\"").is_err());
    }
}

//! A small command-line parser: `--name value` options, `--switch`es, bare
//! words, and everything after `--` kept verbatim (a server command line).
//!
//! Hand-rolled because the binaries take a handful of flags each, and
//! `loadgen` needs the `-- <server command...>` tail passed through untouched.

use std::collections::HashMap;
use std::str::FromStr;

use anyhow::{Context, bail};

/// Parsed command-line arguments.
#[derive(Debug, Default)]
pub struct Args {
    options: HashMap<String, String>,
    switches: Vec<String>,
    /// Bare words before `--` (e.g. a sub-command).
    pub positional: Vec<String>,
    /// Everything after `--`.
    pub command: Vec<String>,
}

impl Args {
    /// Parses `args` (without the program name). `options` take a value
    /// (`--name value` or `--name=value`), `switches` do not; any other
    /// `--flag` is an error.
    pub fn parse(args: impl IntoIterator<Item = String>, options: &[&str], switches: &[&str]) -> anyhow::Result<Self> {
        let mut parsed = Args::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            if arg == "--" {
                parsed.command.extend(args.by_ref());
                break;
            }
            let Some(flag) = arg.strip_prefix("--") else {
                parsed.positional.push(arg);
                continue;
            };
            let (name, inline) = match flag.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (flag, None),
            };
            if switches.contains(&name) && inline.is_none() {
                parsed.switches.push(name.to_string());
            } else if options.contains(&name) {
                let value = match inline {
                    Some(value) => value,
                    None => args.next().with_context(|| format!("--{name} needs a value"))?,
                };
                parsed.options.insert(name.to_string(), value);
            } else {
                bail!("unknown flag --{name}");
            }
        }
        Ok(parsed)
    }

    /// The value of `--name`, parsed, or `default` when absent.
    pub fn get<T: FromStr>(&self, name: &str, default: T) -> anyhow::Result<T>
    where
        T::Err: std::fmt::Display,
    {
        match self.options.get(name) {
            None => Ok(default),
            Some(text) => text.parse().map_err(|e| anyhow::anyhow!("--{name} {text}: {e}")),
        }
    }

    /// The raw value of `--name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.options.get(name).map(String::as_str)
    }

    /// A comma-separated list (`--inflight 1,2,4`), or `default` when absent.
    pub fn list<T>(&self, name: &str, default: &[T]) -> anyhow::Result<Vec<T>>
    where
        T: FromStr + Clone,
        T::Err: std::fmt::Display,
    {
        match self.options.get(name) {
            None => Ok(default.to_vec()),
            Some(text) => text
                .split(',')
                .map(|item| item.trim().parse().map_err(|e| anyhow::anyhow!("--{name} {text}: {e}")))
                .collect(),
        }
    }

    /// Whether `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> anyhow::Result<Args> {
        Args::parse(line.split_whitespace().map(String::from), &["calls", "inflight"], &["verbose"])
    }

    #[test]
    fn splits_flags_words_and_the_command() {
        let args = parse("cold-start --calls 5 --inflight=1,32 --verbose -- server --calls 7").unwrap();
        assert_eq!(args.positional, ["cold-start"]);
        assert_eq!(args.get("calls", 0usize).unwrap(), 5);
        assert_eq!(args.list("inflight", &[8usize]).unwrap(), [1, 32]);
        assert!(args.switch("verbose"));
        assert_eq!(args.command, ["server", "--calls", "7"]);
        assert_eq!(parse("").unwrap().get("calls", 9usize).unwrap(), 9);
    }

    #[test]
    fn rejects_unknown_and_incomplete_flags() {
        assert!(parse("--nope").is_err());
        assert!(parse("--calls").is_err());
        assert!(parse("--calls x").unwrap().get("calls", 0usize).is_err());
    }
}

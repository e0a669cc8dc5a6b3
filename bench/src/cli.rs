//! What the binaries' command lines share: the switches of every study, how
//! much a paired study measures, the items of a comma-separated list, and how
//! their tests parse a documented command line.

use std::str::FromStr;

/// The switches of every study that runs the release binaries (`report`,
/// `engines`, `plugins`, `recording`, `soak`).
#[derive(clap::Args, Debug)]
pub struct Study {
    /// Run the release binaries as they are, without building them first.
    #[arg(long)]
    pub no_build: bool,
    /// Pass the servers' stderr through.
    #[arg(long)]
    pub show_stderr: bool,
}

/// One item of a comma-separated list (`--inflight 1,2,4`): spaces around it
/// are not part of it, so a quoted `"1, 2, 4"` reads the same.
pub fn item<T: FromStr>(text: &str) -> Result<T, T::Err> {
    text.trim().parse()
}

/// How much a study of two servers against each other ([`crate::pair`]:
/// `engines`, `plugins`, `recording`) measures.
#[derive(clap::Args, Debug)]
pub struct Pairing {
    /// Repetitions of every point, the two servers alternating.
    #[arg(long, value_name = "R", default_value_t = 3)]
    pub reps: usize,
    /// Measured calls of an HTTP point, shared by its sessions (at least 20 each).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub http_calls: usize,
}

/// `line` split at spaces, parsed as the command line of `C` (its first word
/// the program) once `C`'s definition passes clap's own checks: how the
/// binaries' tests read their documented command lines.
pub fn parse<C: clap::Parser>(line: &str) -> Result<C, clap::Error> {
    <C as clap::CommandFactory>::command().debug_assert();
    C::try_parse_from(line.split_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared flags, as a binary takes them.
    #[derive(clap::Parser, Debug)]
    struct Shared {
        #[command(flatten)]
        pairing: Pairing,
        #[command(flatten)]
        study: Study,
    }

    #[test]
    fn shared_flags_and_their_defaults() {
        let shared: Shared = parse("bench").unwrap();
        assert_eq!((shared.pairing.reps, shared.pairing.http_calls), (3, 10_000));
        assert!(!shared.study.no_build && !shared.study.show_stderr);
        let shared: Shared = parse("bench --reps=5 --http-calls 200 --no-build --show-stderr").unwrap();
        assert_eq!((shared.pairing.reps, shared.pairing.http_calls), (5, 200));
        assert!(shared.study.no_build && shared.study.show_stderr);
        assert!(parse::<Shared>("bench --reps").is_err() && parse::<Shared>("bench --no-build=1").is_err());
    }

    #[test]
    fn list_items_lose_their_spaces() {
        assert_eq!(item::<usize>(" 32 "), Ok(32));
        assert!(item::<usize>("").is_err() && item::<usize>("3 2").is_err());
    }
}

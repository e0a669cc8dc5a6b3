//! The process's limit on open files, raised before anything listens.

/// Raises the soft limit on open files to the hard one: a server holds a
/// descriptor per connection, per listener and per open file of its
/// guests, and the usual soft limit (1024) is soon reached by clients alone,
/// after which no listener can accept.
pub(super) fn raise_to_hard_limit() {
    #[cfg(unix)]
    {
        use nix::sys::resource::{Resource, getrlimit, setrlimit};
        let raised = getrlimit(Resource::RLIMIT_NOFILE).and_then(|(soft, hard)| {
            if soft < hard {
                setrlimit(Resource::RLIMIT_NOFILE, hard, hard)?;
            }
            Ok((soft, hard))
        });
        match raised {
            Ok((soft, hard)) if soft < hard => tracing::debug!("open files limit raised from {soft} to {hard}"),
            Ok((soft, _)) => tracing::debug!("open files limit: {soft} (already the hard limit)"),
            Err(e) => tracing::debug!("open files limit not raised: {e}"),
        }
    }
}

#[cfg(unix)]
#[cfg(test)]
mod tests {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};

    #[test]
    fn the_open_files_limit_is_raised_to_the_hard_limit() {
        let (_, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
        // As a shell with `ulimit -Sn 64` would start the server.
        setrlimit(Resource::RLIMIT_NOFILE, hard.min(64), hard).unwrap();
        super::raise_to_hard_limit();
        assert_eq!(getrlimit(Resource::RLIMIT_NOFILE).unwrap(), (hard, hard));
    }
}

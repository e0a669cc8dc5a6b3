//! Waiting on the server's pipes without blocking on either: `poll(2)` and
//! non-blocking descriptors.

use std::io::{self, BufReader};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{ChildStdin, ChildStdout};

use anyhow::ensure;

/// Whether a whole message is already buffered.
pub(super) fn has_line(stdout: &BufReader<ChildStdout>) -> bool {
    stdout.buffer().contains(&b'\n')
}

/// Whether reading `stdout` would return at once.
pub(super) fn readable(stdout: &BufReader<ChildStdout>) -> bool {
    !stdout.buffer().is_empty() || poll(&mut [pollfd(stdout.get_ref().as_raw_fd(), libc::POLLIN)], 0)
}

/// Blocks until the server's output has data or its input has room.
pub(super) fn wait_for(stdout: &BufReader<ChildStdout>, stdin: &ChildStdin) {
    if stdout.buffer().is_empty() {
        let mut fds = [pollfd(stdout.get_ref().as_raw_fd(), libc::POLLIN), pollfd(stdin.as_raw_fd(), libc::POLLOUT)];
        poll(&mut fds, -1);
    }
}

fn pollfd(fd: RawFd, events: libc::c_short) -> libc::pollfd {
    libc::pollfd { fd, events, revents: 0 }
}

/// `poll(2)`; `true` if any descriptor is ready. Errors (EINTR) count as
/// "not ready": the caller's loop asks again.
fn poll(fds: &mut [libc::pollfd], timeout_ms: libc::c_int) -> bool {
    // SAFETY: `fds` is a valid, exclusively borrowed array of pollfds.
    unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) > 0 }
}

/// Makes a descriptor non-blocking until dropped.
pub(super) struct NonBlocking {
    pub(super) fd: RawFd,
    flags: libc::c_int,
}

impl NonBlocking {
    pub(super) fn set(fd: RawFd) -> anyhow::Result<Self> {
        // SAFETY: fcntl on a descriptor we own, with integer arguments.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        ensure!(flags >= 0, "fcntl(F_GETFL): {}", io::Error::last_os_error());
        // SAFETY: as above.
        let set = unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) };
        ensure!(set >= 0, "fcntl(F_SETFL): {}", io::Error::last_os_error());
        Ok(NonBlocking { fd, flags })
    }
}

impl Drop for NonBlocking {
    fn drop(&mut self) {
        // SAFETY: as in `set`; the descriptor outlives this guard.
        unsafe { libc::fcntl(self.fd, libc::F_SETFL, self.flags) };
    }
}

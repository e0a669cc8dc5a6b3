//! CPUs: the calling thread's affinity, and the CPU time of a process.

use std::io::{self};

use anyhow::{Context, ensure};

/// The calling thread's CPU affinity, changed until this is dropped.
pub(super) struct Affinity {
    previous: libc::cpu_set_t,
}

impl Affinity {
    pub(super) fn pin(cpus: &[usize]) -> anyhow::Result<Self> {
        ensure!(!cpus.is_empty(), "no CPUs to run on");
        // SAFETY: cpu_set_t is plain data; the calls only read and write the
        // sets they are given, for the calling thread (pid 0).
        unsafe {
            let mut previous: libc::cpu_set_t = std::mem::zeroed();
            ensure!(
                libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut previous) == 0,
                "cannot read the CPU affinity: {}",
                io::Error::last_os_error()
            );
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &cpu in cpus {
                ensure!(cpu < libc::CPU_SETSIZE as usize, "no CPU {cpu}");
                libc::CPU_SET(cpu, &mut set);
            }
            ensure!(
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0,
                "cannot run on CPUs {cpus:?}: {}",
                io::Error::last_os_error()
            );
            Ok(Affinity { previous })
        }
    }
}

impl Drop for Affinity {
    fn drop(&mut self) {
        // SAFETY: restores the set read in `pin`, for the calling thread.
        unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &self.previous) };
    }
}

/// User and system CPU seconds of process `pid` (all its threads).
pub(crate) fn process_cpu(pid: u32) -> anyhow::Result<(f64, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).context("cannot read the server's CPU time")?;
    // Fields after the parenthesised command name start at field 3 (state);
    // utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map(|(_, rest)| rest).context("unexpected /proc/<pid>/stat format")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |field: usize| -> anyhow::Result<f64> {
        let value: u64 = fields.get(field - 3).context("short /proc/<pid>/stat")?.parse()?;
        Ok(value as f64 / clock_ticks_per_sec())
    };
    Ok((ticks(14)?, ticks(15)?))
}

/// CPU seconds process `pid` has run, summed over its threads, with
/// nanosecond precision; `None` where the kernel keeps no schedstat. (A
/// thread that ends between two readings drops out of the second one; the
/// servers measured here keep theirs.)
pub(crate) fn process_run_time(pid: u32) -> Option<f64> {
    let mut total_ns = 0u64;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total_ns += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total_ns as f64 / 1e9)
}

fn clock_ticks_per_sec() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as f64 } else { 100.0 }
}

/// This process's user + system CPU seconds.
pub(crate) fn own_cpu() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return f64::NAN;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

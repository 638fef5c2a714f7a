//! Where and when a run happened: commit, machine and date, written into every result file.

use std::path::Path;
use std::process::Command;

/// The provenance line of a result file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// `git rev-parse --short HEAD`, with `-dirty` when tracked files have uncommitted changes
    /// (`unknown` outside a git checkout).
    pub commit: String,
    /// The CPU model (`model name` of `/proc/cpuinfo`).
    pub cpu: String,
    /// Hardware threads available to this process.
    pub cores: usize,
    /// The UTC date, `YYYY-MM-DD`.
    pub date: String,
    /// Whether this binary was built with optimisations (timings of a debug build mean little).
    pub optimised: bool,
}

/// Resets the kernel's peak-resident mark of this process to its current resident size
/// (Linux's `/proc/self/clear_refs`), so that [`peak_memory_bytes`] measures from now; false
/// where that cannot be done (not Linux, or not permitted).
pub fn reset_peak_memory() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The process's peak resident bytes (`VmHWM` of `/proc/self/status`) since it started or
/// since the last [`reset_peak_memory`], where readable.
pub fn peak_memory_bytes() -> Option<u64> {
    parse_vm_hwm(&std::fs::read_to_string("/proc/self/status").ok()?)
}

/// The `VmHWM:` line of a `/proc/PID/status` text, in bytes.
pub(crate) fn parse_vm_hwm(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

impl Provenance {
    /// Reads the provenance of a run from the repository at `repo`.
    pub fn collect(repo: &Path) -> Provenance {
        Provenance {
            commit: commit(repo),
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            date: today(),
            optimised: !cfg!(debug_assertions),
        }
    }

    /// One line for the top of a Markdown file or a comment in a CSV.
    pub fn line(&self) -> String {
        format!(
            "machine: {}, {} cores; commit {}; date {}{}",
            self.cpu,
            self.cores,
            self.commit,
            self.date,
            if self.optimised {
                ""
            } else {
                "; DEBUG BUILD (timings are not meaningful)"
            }
        )
    }
}

fn commit(repo: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        None => "unknown".into(),
        Some(head) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty { format!("{head}-dirty") } else { head }
        }
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned())
}

/// Today's UTC date from the system clock.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_780), (2026, 11, 23));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}

//! Downloading an archive over HTTP(S) into a `.part` file that a later run resumes with a
//! `Range` request, then renaming it into place.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::report::Download;

/// An HTTP client for archives, with a progress bar when `progress` is set.
pub struct Downloader {
    agent: ureq::Agent,
    progress: bool,
}

/// The partial file beside `target` (`dao-map.zip.part`).
pub fn part_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".part");
    target.with_file_name(name)
}

/// `(first byte, total size)` of a `Content-Range: bytes first-last/total` header; the total
/// is `None` when the server writes `*`.
fn parse_content_range(value: &str) -> Option<(u64, Option<u64>)> {
    let rest = value.trim().strip_prefix("bytes ")?;
    let (range, total) = rest.split_once('/')?;
    let (first, _last) = range.split_once('-')?;
    let total = match total.trim() {
        "*" => None,
        t => Some(t.parse().ok()?),
    };
    Some((first.trim().parse().ok()?, total))
}

impl Downloader {
    /// A client with connect and response timeouts, following redirects, treating every
    /// status itself (so that 206 and 416 can be told apart).
    pub fn new(progress: bool) -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(30)))
            .timeout_recv_response(Some(Duration::from_secs(60)))
            .user_agent(concat!("taut-xtask/", env!("CARGO_PKG_VERSION")))
            .build();
        Downloader {
            agent: config.into(),
            progress,
        }
    }

    /// Downloads `url` to `target`. Bytes go to `target.part`; when that file exists, only
    /// the rest is requested (`Range: bytes=N-`). A server that answers 200 instead of 206
    /// sends the whole file, which then replaces the partial one; a 416 (the partial file is
    /// not shorter than the file) discards it and starts again. An interrupted transfer keeps
    /// what arrived for the next run. `target` appears only once complete.
    pub fn download(&self, url: &str, target: &Path) -> anyhow::Result<Download> {
        self.download_inner(url, target, true)
    }

    fn download_inner(
        &self,
        url: &str,
        target: &Path,
        may_restart: bool,
    ) -> anyhow::Result<Download> {
        let part = part_path(target);
        let have = fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
        let mut request = self.agent.get(url);
        if have > 0 {
            request = request.header("Range", format!("bytes={have}-"));
        }
        let response = request.call().context("request failed")?;
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let (resumed_from, total) = match status {
            206 if have > 0 => {
                let range = header("content-range").unwrap_or_default();
                let (first, total) = parse_content_range(&range)
                    .with_context(|| format!("{url}: 206 with a bad Content-Range {range:?}"))?;
                if first != have {
                    bail!("{url}: asked for bytes from {have}, the server sent from {first}");
                }
                (have, total)
            }
            200 => (0, response.body().content_length()),
            416 if have > 0 && may_restart => {
                fs::remove_file(&part).with_context(|| format!("removing {}", part.display()))?;
                return self.download_inner(url, target, false);
            }
            _ => bail!("{url}: HTTP status {status}"),
        };
        let mut file = fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(resumed_from > 0)
            .truncate(resumed_from == 0)
            .open(&part)
            .with_context(|| format!("opening {}", part.display()))?;
        let bar = self.bar(url, total, resumed_from);
        let mut reader = response.into_body().into_reader();
        let mut buf = vec![0u8; 1 << 16];
        let mut size = resumed_from;
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    bar.abandon();
                    let _ = file.flush();
                    return Err(e).with_context(|| {
                        format!(
                            "download of {url} interrupted after {size} bytes (kept in {}; \
                             run again to resume)",
                            part.display()
                        )
                    });
                }
            };
            file.write_all(&buf[..n])
                .with_context(|| format!("writing {}", part.display()))?;
            size += n as u64;
            bar.set_position(size);
        }
        file.sync_all()
            .with_context(|| format!("writing {}", part.display()))?;
        drop(file);
        bar.finish_and_clear();
        if let Some(total) = total
            && size != total
        {
            bail!("{url}: received {size} of {total} bytes (kept; run again to resume)");
        }
        fs::rename(&part, target).with_context(|| format!("renaming {}", part.display()))?;
        Ok(Download {
            url: url.to_owned(),
            resumed_from,
            size,
        })
    }

    fn bar(&self, url: &str, total: Option<u64>, position: u64) -> ProgressBar {
        if !self.progress {
            return ProgressBar::hidden();
        }
        let (bar, template) = match total {
            Some(t) => (
                ProgressBar::new(t),
                "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            ),
            None => (
                ProgressBar::new_spinner(),
                "{msg} {spinner} {bytes} {bytes_per_sec}",
            ),
        };
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(super::sets::url_file_name(url).to_owned());
        bar.set_position(position);
        bar
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_ranges() {
        assert_eq!(
            parse_content_range("bytes 10-99/100"),
            Some((10, Some(100)))
        );
        assert_eq!(parse_content_range("bytes 10-99/*"), Some((10, None)));
        assert_eq!(parse_content_range("bytes */100"), None);
        assert_eq!(parse_content_range("items 1-2/3"), None);
    }

    #[test]
    fn part_names() {
        assert_eq!(
            part_path(Path::new("/d/.downloads/dao-map.zip")),
            Path::new("/d/.downloads/dao-map.zip.part")
        );
    }
}

//! Progress bars on stderr, only when stderr is a terminal: a byte bar for
//! one large input, and a spinner with file and byte counts for a walk that
//! takes more than a second.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

/// Inputs at least this large get a byte bar.
pub(crate) const MIN_BYTES: u64 = 64 << 20;

/// How long a walk runs before its spinner appears, so quick runs never
/// flash one.
const WALK_DELAY: Duration = Duration::from_secs(1);

/// Whether bars may be drawn at all.
pub(crate) fn allowed(no_progress: bool) -> bool {
    !no_progress && io::stderr().is_terminal()
}

/// A byte bar for one input of `len` bytes, or `None` when it is too small
/// or bars are off.
pub(crate) fn bytes_bar(allowed: bool, len: Option<u64>, name: &str) -> Option<ProgressBar> {
    let len = len.filter(|&len| allowed && len >= MIN_BYTES)?;
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:30}] {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(name.to_string());
    Some(bar)
}

/// The spinner of a walk: counts files and bytes, drawn after a second.
pub(crate) struct WalkSpinner {
    bar: Option<ProgressBar>,
    start: Instant,
    allowed: bool,
    files: u64,
    bytes: u64,
}

impl WalkSpinner {
    pub(crate) fn new(allowed: bool) -> WalkSpinner {
        WalkSpinner {
            bar: None,
            start: Instant::now(),
            allowed,
            files: 0,
            bytes: 0,
        }
    }

    /// One more input done.
    pub(crate) fn file_done(&mut self, bytes: u64) {
        self.files += 1;
        self.bytes += bytes;
        if self.bar.is_none() && self.allowed && self.start.elapsed() >= WALK_DELAY {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(120));
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "{} files, {}",
                self.files,
                indicatif::HumanBytes(self.bytes)
            ));
        }
    }

    /// Hides the spinner while `f` prints, so lines are not drawn over.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    pub(crate) fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

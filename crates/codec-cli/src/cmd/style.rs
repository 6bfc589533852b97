//! Colour on terminals: `--color auto|always|never`, and `NO_COLOR`
//! (<https://no-color.org>): set to anything but the empty string, it turns
//! `auto` off. `TERM=dumb` does too.
//!
//! The colours follow grep's defaults where grep has one (file names
//! magenta, line and column green, the offending part bold red), so the
//! output reads like the tools it sits beside.

use crate::cli::ColorChoice;
use anstyle::{AnsiColor, Style};
use std::fmt::{self, Display};
use std::io::IsTerminal;

/// The styles of one run: all plain when colour is off.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Palette {
    pub(crate) path: Style,
    pub(crate) position: Style,
    pub(crate) error: Style,
    pub(crate) bytes: Style,
    pub(crate) caret: Style,
    pub(crate) dim: Style,
}

impl Palette {
    /// The palette for output to stdout under `choice`.
    pub(crate) fn for_stdout(choice: ColorChoice) -> Palette {
        if enabled(choice, std::io::stdout().is_terminal()) {
            Palette::colored()
        } else {
            Palette::default()
        }
    }

    fn colored() -> Palette {
        Palette {
            path: AnsiColor::Magenta.on_default(),
            position: AnsiColor::Green.on_default(),
            error: AnsiColor::Red.on_default().bold(),
            bytes: AnsiColor::Red.on_default(),
            caret: AnsiColor::Red.on_default().bold(),
            dim: AnsiColor::Blue.on_default(),
        }
    }
}

/// Whether to colour, from the choice, whether the output is a terminal,
/// and the environment.
pub(crate) fn enabled(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
            terminal && !no_color && !dumb
        }
    }
}

/// `value` wrapped in `style` (nothing added for a plain style).
pub(crate) fn paint<T: Display>(style: Style, value: T) -> Painted<T> {
    Painted(style, value)
}

/// See [`paint`].
pub(crate) struct Painted<T>(Style, T);

impl<T: Display> Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == Style::new() {
            return self.1.fmt(f);
        }
        write!(f, "{}{}{}", self.0.render(), self.1, self.0.render_reset())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_adds_nothing_and_colour_resets() {
        assert_eq!(paint(Style::new(), "x").to_string(), "x");
        let red = paint(Palette::colored().error, "x").to_string();
        assert!(
            red.starts_with("\x1b[") && red.ends_with("\x1b[0m"),
            "{red:?}"
        );
        assert!(enabled(ColorChoice::Always, false));
        assert!(!enabled(ColorChoice::Never, true));
        assert!(!enabled(ColorChoice::Auto, false));
    }
}

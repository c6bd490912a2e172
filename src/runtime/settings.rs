//! The environment, read once: every variable the program looks at is read
//! here, at the first call of [`Settings::get`], and nowhere else.

use std::sync::OnceLock;

/// What `NICEEVAL_TIMING` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// Print the phase and frame times on stderr.
    Report,
    /// …and end once the first frame is drawn (`exit`).
    ExitAfterFirstFrame,
    /// …and end once the whole file is shown (`loaded`).
    ExitWhenLoaded,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// `$PAGER`, or `less`.
    pub pager: String,
    /// `NO_COLOR` set and not empty.
    pub no_color: bool,
    /// `NICEEVAL_TIMING`.
    pub timing: Option<Timing>,
    /// `NICEEVAL_DEBUG_PANIC_KEY`: F12 panics (for the terminal-restore tests).
    pub debug_panic_key: bool,
    /// `NICEEVAL_MAX_STREAM`: the most bytes kept from a stream.
    pub max_stream: u64,
    /// `TERM=dumb`: a terminal that acts on no escape sequence (no cursor
    /// moves, no alternate screen, no colour). The viewer then prints its
    /// plain report, `show` prints no colour, and no loading line is drawn.
    pub dumb_terminal: bool,
}

impl Settings {
    /// The settings of this process (the environment as it was at the first call).
    pub fn get() -> &'static Settings {
        static SETTINGS: OnceLock<Settings> = OnceLock::new();
        SETTINGS.get_or_init(|| Settings::from(|name| std::env::var_os(name)))
    }

    /// The settings a lookup of variables gives.
    pub fn from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Settings {
        let text = |name: &str| var(name).map(|v| v.to_string_lossy().into_owned());
        Settings {
            pager: text("PAGER").filter(|p| !p.trim().is_empty()).unwrap_or_else(|| "less".into()),
            no_color: var("NO_COLOR").is_some_and(|v| !v.is_empty()),
            timing: var("NICEEVAL_TIMING").map(|v| match v.to_str() {
                Some("exit") => Timing::ExitAfterFirstFrame,
                Some("loaded") => Timing::ExitWhenLoaded,
                _ => Timing::Report,
            }),
            debug_panic_key: var("NICEEVAL_DEBUG_PANIC_KEY").is_some(),
            max_stream: text("NICEEVAL_MAX_STREAM")
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(crate::load::input::DEFAULT_MAX_STREAM),
            dumb_terminal: var("TERM").is_some_and(|t| t == "dumb"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_become_settings_and_their_absence_the_defaults() {
        let none = Settings::from(|_| None);
        assert_eq!(
            (none.pager.as_str(), none.no_color, none.timing, none.debug_panic_key),
            ("less", false, None, false)
        );
        assert_eq!(none.max_stream, crate::load::input::DEFAULT_MAX_STREAM);
        let set = |pairs: &'static [(&'static str, &'static str)]| {
            Settings::from(move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).into()))
        };
        let some = set(&[
            ("PAGER", "most -s"),
            ("NO_COLOR", "1"),
            ("NICEEVAL_TIMING", "exit"),
            ("NICEEVAL_MAX_STREAM", " 2000 "),
        ]);
        assert_eq!(
            (some.pager.as_str(), some.no_color, some.timing, some.max_stream),
            ("most -s", true, Some(Timing::ExitAfterFirstFrame), 2000)
        );
        assert!(!set(&[("NO_COLOR", "")]).no_color, "an empty NO_COLOR is unset");
        assert!(
            set(&[("TERM", "dumb")]).dumb_terminal && !set(&[("TERM", "xterm")]).dumb_terminal && !none.dumb_terminal
        );
        assert_eq!(set(&[("PAGER", "  ")]).pager, "less");
        assert_eq!(set(&[("NICEEVAL_TIMING", "1")]).timing, Some(Timing::Report));
        assert_eq!(set(&[("NICEEVAL_TIMING", "loaded")]).timing, Some(Timing::ExitWhenLoaded));
        assert_eq!(set(&[("NICEEVAL_MAX_STREAM", "lots")]).max_stream, crate::load::input::DEFAULT_MAX_STREAM);
    }
}

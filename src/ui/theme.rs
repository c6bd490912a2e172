//! Semantic styles. Widgets never name raw colours; they ask the theme.
//! Status uses the 16 named ANSI colours so the user's palette applies.

pub use crate::styled::ThemeName;
use crate::styled::{Chrome, Look};
use crate::view::Tone;
use crate::view::text::Lane;
use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone)]
pub struct Theme {
    pub name: ThemeName,
    pub text: Style,
    pub dim: Style,
    pub title: Style,
    pub border: Style,
    pub border_focus: Style,
    pub selected: Style,
    pub selected_unfocused: Style,
    pub ok: Style,
    pub err: Style,
    pub warn: Style,
    pub pending: Style,
    pub hitl: Style,
    pub accent: Style,
    pub matched: Style,
    pub key: Style,
    pub tab_active: Style,
}

impl Theme {
    pub fn new(name: ThemeName) -> Theme {
        let fg = |c: Color| Style::default().fg(c);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        match name {
            ThemeName::Dark | ThemeName::Light => {
                let p = Palette::of(name);
                Theme {
                    name,
                    text: fg(Color::Reset),
                    dim: fg(p.dim),
                    title: bold,
                    border: fg(p.dim),
                    border_focus: fg(p.accent).add_modifier(Modifier::BOLD),
                    selected: Style::default().add_modifier(Modifier::REVERSED),
                    selected_unfocused: Style::default().add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
                    ok: fg(p.ok),
                    err: fg(p.err).add_modifier(Modifier::BOLD),
                    warn: fg(p.warn),
                    pending: fg(p.warn),
                    hitl: fg(p.hitl).add_modifier(Modifier::BOLD),
                    accent: fg(p.accent),
                    matched: Style::default().bg(Color::Yellow).fg(Color::Black),
                    key: fg(p.accent).add_modifier(Modifier::BOLD),
                    tab_active: fg(p.accent).add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                }
            }
            ThemeName::Mono => Theme {
                name,
                text: Style::default(),
                dim: Style::default().add_modifier(Modifier::DIM),
                title: bold,
                border: Style::default(),
                border_focus: bold,
                selected: Style::default().add_modifier(Modifier::REVERSED),
                selected_unfocused: Style::default().add_modifier(Modifier::UNDERLINED),
                ok: Style::default(),
                err: bold,
                warn: bold,
                pending: Style::default(),
                hitl: bold,
                accent: Style::default(),
                matched: Style::default().add_modifier(Modifier::REVERSED | Modifier::UNDERLINED),
                key: bold,
                tab_active: Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            },
        }
    }

    /// The lane colour of a timeline row kind.
    pub fn lane(&self, lane: Lane) -> Style {
        if self.name == ThemeName::Mono {
            return match lane {
                Lane::Error | Lane::Unrecognized => self.err,
                _ => self.text,
            };
        }
        let p = Palette::of(self.name);
        let fg = |c: Color| Style::default().fg(c);
        match lane {
            Lane::User => fg(p.user).add_modifier(Modifier::BOLD),
            Lane::Assistant => fg(p.ok),
            Lane::Tool => fg(p.tool),
            Lane::Subagent => fg(p.user),
            Lane::Hitl => self.hitl,
            Lane::Thinking => self.dim.add_modifier(Modifier::ITALIC),
            Lane::Context => fg(p.hitl),
            Lane::Compaction => fg(p.warn),
            Lane::Error => self.err,
            Lane::Unrecognized => fg(p.err).add_modifier(Modifier::ITALIC),
        }
    }

    /// The style of a view tone.
    pub fn tone(&self, tone: Tone) -> Style {
        match tone {
            Tone::Plain => self.text,
            Tone::Good => self.ok,
            Tone::Bad => self.err,
            Tone::Warn => self.warn,
            Tone::Soft => self.dim,
            Tone::Accent => self.accent,
            Tone::Bold => self.title,
            Tone::Hitl => self.hitl,
            Tone::Pending => self.pending,
            Tone::Removed => self.err.add_modifier(ratatui::style::Modifier::CROSSED_OUT),
            Tone::Added => self.ok.add_modifier(ratatui::style::Modifier::UNDERLINED),
            Tone::Lane(lane) => self.lane(lane),
            Tone::Series(slot) => self.series(slot),
            Tone::Ansi(sgr) => self.ansi(sgr),
        }
    }

    /// A file's own SGR colours; the no-colour theme keeps bold and underline only.
    fn ansi(&self, sgr: crate::model::sgr::Sgr) -> Style {
        use crate::model::sgr::AnsiColor;
        let color = |c: AnsiColor| match c {
            AnsiColor::Indexed(n) => Color::Indexed(n),
            AnsiColor::Rgb(r, g, b) => Color::Rgb(r, g, b),
        };
        let mut style = self.text;
        if self.name != ThemeName::Mono {
            if let Some(c) = sgr.fg {
                style = style.fg(color(c));
            }
            if let Some(c) = sgr.bg {
                style = style.bg(color(c));
            }
        }
        for (on, m) in [
            (sgr.bold, Modifier::BOLD),
            (sgr.dim, Modifier::DIM),
            (sgr.italic, Modifier::ITALIC),
            (sgr.underline, Modifier::UNDERLINED),
        ] {
            if on {
                style = style.add_modifier(m);
            }
        }
        style
    }

    /// A categorical colour (waterfall bars by kind); red stays for failures.
    pub fn series(&self, slot: u8) -> Style {
        if self.name == ThemeName::Mono {
            return self.text;
        }
        let colors = [Color::Blue, Color::Cyan, Color::Yellow, Color::Green, Color::Magenta];
        Style::default().fg(colors[usize::from(slot) % colors.len()])
    }

    /// The style of a look.
    pub fn look(&self, look: Look) -> Style {
        match look {
            Look::Tone(tone) => self.tone(tone),
            Look::Chrome(chrome) => self.chrome(chrome),
            // No colour means none, whichever palette the lines were made for.
            Look::Syntax { .. } if self.name == ThemeName::Mono => Style::default(),
            Look::Syntax { rgb: (r, g, b), bold, italic } => {
                let mut s = Style::default().fg(Color::Rgb(r, g, b));
                if bold {
                    s = s.add_modifier(Modifier::BOLD);
                }
                if italic {
                    s = s.add_modifier(Modifier::ITALIC);
                }
                s
            }
        }
    }

    /// The style of the screen's own furniture.
    pub fn chrome(&self, chrome: Chrome) -> Style {
        match chrome {
            Chrome::Bare => Style::default(),
            Chrome::Text => self.text,
            Chrome::Dim => self.dim,
            Chrome::Title => self.title,
            Chrome::Accent => self.accent,
            Chrome::Key => self.key,
            Chrome::Error => self.err,
            Chrome::Warn => self.warn,
            Chrome::Hitl => self.hitl,
            Chrome::Matched => self.matched,
            Chrome::MatchedHere => self.matched.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            Chrome::Emphasis => Style::default().add_modifier(Modifier::BOLD),
            Chrome::Faint => Style::default().add_modifier(Modifier::DIM),
            Chrome::TabActive => self.tab_active,
            Chrome::Selected => self.selected,
            Chrome::SelectedUnfocused => self.selected_unfocused,
        }
    }
}

/// The colours of a theme. Dark uses the 16 named colours, so the user's
/// palette applies; light is for a white background and uses explicit
/// colours of at least 4.5:1 contrast on white (the named light colours are
/// unreadable there).
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    pub dim: Color,
    pub accent: Color,
    pub ok: Color,
    pub err: Color,
    pub warn: Color,
    pub hitl: Color,
    pub user: Color,
    pub tool: Color,
}

impl Palette {
    pub fn of(name: ThemeName) -> Palette {
        match name {
            ThemeName::Light => Palette {
                dim: Color::Rgb(95, 99, 104),
                accent: Color::Rgb(0, 84, 166),
                ok: Color::Rgb(0, 110, 50),
                err: Color::Rgb(176, 0, 32),
                warn: Color::Rgb(140, 75, 0),
                hitl: Color::Rgb(128, 0, 128),
                user: Color::Rgb(0, 84, 166),
                tool: Color::Rgb(0, 105, 120),
            },
            ThemeName::Dark | ThemeName::Mono => Palette {
                dim: Color::DarkGray,
                accent: Color::Cyan,
                ok: Color::Green,
                err: Color::LightRed,
                warn: Color::Yellow,
                hitl: Color::Magenta,
                user: Color::LightBlue,
                tool: Color::Cyan,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance(r: u8, g: u8, b: u8) -> f64 {
        let c = |x: u8| {
            let x = f64::from(x) / 255.0;
            if x <= 0.03928 { x / 12.92 } else { ((x + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b)
    }

    #[test]
    fn the_light_theme_reads_on_white() {
        use crate::model::timeline::RowKind;
        let theme = Theme::new(ThemeName::Light);
        let mut styles =
            vec![theme.dim, theme.border, theme.ok, theme.err, theme.warn, theme.hitl, theme.accent, theme.key];
        styles.extend(
            [
                RowKind::Input,
                RowKind::AssistantMessage,
                RowKind::ToolStart,
                RowKind::SubagentStart,
                RowKind::Skill,
                RowKind::Context,
                RowKind::Compaction,
                RowKind::Unrecognized,
            ]
            .map(|k| theme.tone(crate::view::timeline::kind_tone(k))),
        );
        for style in styles {
            match style.fg {
                Some(Color::Rgb(r, g, b)) => {
                    let ratio = (1.0 + 0.05) / (luminance(r, g, b) + 0.05);
                    assert!(ratio >= 4.5, "{style:?}: contrast {ratio:.2} on white");
                }
                other => panic!("the light theme names an explicit colour, not {other:?}"),
            }
        }
    }
}

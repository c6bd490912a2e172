//! Semantic styles. Widgets never name raw colours; they ask the theme.
//! Status uses the 16 named ANSI colours so the user's palette applies.

use crate::model::timeline::{RowKind, RowStatus};
use crate::view::{Text, Tone};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeName {
    Dark,
    Light,
    /// NO_COLOR: modifiers only; marks and words carry the meaning.
    Mono,
}

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
                let (text, dim, accent) = if name == ThemeName::Dark {
                    (Color::Reset, Color::DarkGray, Color::Cyan)
                } else {
                    (Color::Reset, Color::Gray, Color::Blue)
                };
                Theme {
                    name,
                    text: fg(text),
                    dim: fg(dim),
                    title: bold,
                    border: fg(dim),
                    border_focus: fg(accent).add_modifier(Modifier::BOLD),
                    selected: Style::default().add_modifier(Modifier::REVERSED),
                    selected_unfocused: Style::default().add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
                    ok: fg(Color::Green),
                    err: fg(Color::Red).add_modifier(Modifier::BOLD),
                    warn: fg(Color::Yellow),
                    pending: fg(Color::Yellow),
                    hitl: fg(Color::Magenta).add_modifier(Modifier::BOLD),
                    accent: fg(accent),
                    matched: Style::default().bg(Color::Yellow).fg(Color::Black),
                    key: fg(accent).add_modifier(Modifier::BOLD),
                    tab_active: fg(accent).add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
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

    pub fn status(&self, s: RowStatus) -> Style {
        match s {
            RowStatus::Completed | RowStatus::TurnCompleted | RowStatus::Answered => self.ok,
            RowStatus::Failed | RowStatus::TurnFailed => self.err,
            RowStatus::Rejected | RowStatus::Unanswered => self.warn,
            RowStatus::Pending | RowStatus::Open | RowStatus::AnswerNotRecorded => self.pending,
            RowStatus::Ambiguous | RowStatus::Orphan | RowStatus::Other | RowStatus::TurnUnknown => self.warn,
            RowStatus::Waiting | RowStatus::TurnWaiting => self.hitl,
        }
    }

    pub fn kind(&self, k: RowKind) -> Style {
        if self.name == ThemeName::Mono {
            return match k {
                RowKind::Error | RowKind::Unrecognized => self.err,
                RowKind::TurnHeader => self.title,
                _ => self.text,
            };
        }
        let fg = |c: Color| Style::default().fg(c);
        match k {
            RowKind::TurnHeader => self.title,
            RowKind::Input | RowKind::UserMessage => fg(Color::Blue).add_modifier(Modifier::BOLD),
            RowKind::AssistantMessage => fg(Color::Green),
            RowKind::ToolStart | RowKind::ToolFinish => fg(Color::Cyan),
            RowKind::SubagentStart | RowKind::SubagentFinish => fg(Color::LightBlue),
            RowKind::Skill => fg(Color::LightCyan),
            RowKind::InputRequest => self.hitl,
            RowKind::Thinking => self.dim.add_modifier(Modifier::ITALIC),
            RowKind::Context => fg(Color::LightMagenta),
            RowKind::Compaction => fg(Color::LightYellow),
            RowKind::Error => self.err,
            RowKind::Unrecognized => fg(Color::LightRed).add_modifier(Modifier::ITALIC),
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
            Tone::Kind(kind) => self.kind(kind),
            Tone::Series(slot) => self.series(slot),
        }
    }

    /// A categorical colour (waterfall bars by kind); red stays for failures.
    pub fn series(&self, slot: u8) -> Style {
        if self.name == ThemeName::Mono {
            return self.text;
        }
        let colors = [Color::Blue, Color::Cyan, Color::Yellow, Color::Green, Color::Magenta];
        Style::default().fg(colors[usize::from(slot) % colors.len()])
    }

    /// A view text as styled spans.
    pub fn spans(&self, text: &Text) -> Vec<Span<'static>> {
        text.spans.iter().map(|(s, tone)| Span::styled(s.clone(), self.tone(*tone))).collect()
    }

    /// Verdict / outcome words.
    pub fn verdict(&self, v: &str) -> Style {
        match v {
            "passed" | "completed" | "matched" | "satisfied" => self.ok,
            "failed" | "errored" | "mismatched" => self.err,
            "waiting" => self.hitl,
            "skipped" | "not-applicable" | "not-gate" => self.dim,
            _ => self.warn,
        }
    }
}

/// Mark that goes with a verdict word, so monochrome stays readable.
pub fn verdict_mark(v: &str) -> &'static str {
    match v {
        "passed" | "completed" | "matched" | "satisfied" => "✓",
        "failed" | "mismatched" => "✗",
        "errored" => "‼",
        "waiting" => "⏸",
        "skipped" => "–",
        "unavailable" => "?",
        "not-applicable" | "not-gate" => "·",
        _ => "?",
    }
}

/// Marker glyph for a row kind.
pub fn kind_marker(k: RowKind) -> &'static str {
    match k {
        RowKind::TurnHeader => "▌",
        RowKind::Input => "»",
        RowKind::UserMessage => "u",
        RowKind::AssistantMessage => "◆",
        RowKind::ToolStart => "⚙",
        RowKind::ToolFinish => "⤶",
        RowKind::SubagentStart => "⧉",
        RowKind::SubagentFinish => "⧉",
        RowKind::Skill => "✦",
        RowKind::InputRequest => "⁇",
        RowKind::Thinking => "∴",
        RowKind::Context => "⊕",
        RowKind::Compaction => "⇊",
        RowKind::Error => "‼",
        RowKind::Unrecognized => "¿",
    }
}

//! Screens in colour, one per theme, and `show --color always`: the row-kind
//! lanes (and every other tone) are decided once in the view, and these keep
//! what each renderer makes of them. A run of cells in one style is written
//! once, after its style in braces (`{fg=Cyan +bold}`); `{}` is the default.

mod common;

use niceeval::app::App;
use niceeval::ui::{Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Modifier, Style};

fn style_name(style: Style) -> String {
    let mut parts = Vec::new();
    if let Some(fg) = style.fg {
        parts.push(format!("fg={fg}"));
    }
    if let Some(bg) = style.bg {
        parts.push(format!("bg={bg}"));
    }
    for (m, name) in [
        (Modifier::BOLD, "bold"),
        (Modifier::ITALIC, "italic"),
        (Modifier::DIM, "dim"),
        (Modifier::REVERSED, "reversed"),
        (Modifier::UNDERLINED, "underlined"),
        (Modifier::CROSSED_OUT, "crossed"),
    ] {
        if style.add_modifier.contains(m) {
            parts.push(format!("+{name}"));
        }
    }
    format!("{{{}}}", parts.join(" "))
}

/// The demo's timeline at 120×30 in `theme`, each line as styled runs.
fn styled_screen(theme: ThemeName) -> String {
    let doc = niceeval::load::load_path("assets/demo/session.json").unwrap();
    let mut app = App::new(doc, Some("claude-sonnet-4-5".into()), niceeval::model::usage::builtin_prices());
    let (w, h) = (120, 30);
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: w, height: h });
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let cache = Theme::new(theme);
    terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let mut current: Option<Style> = None;
        let mut line = String::new();
        for x in 0..w {
            let cell = &buffer[(x, y)];
            let style = cell.style();
            if current != Some(style) {
                line.push_str(&style_name(style));
                current = Some(style);
            }
            line.push_str(cell.symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn the_demo_timeline_in_the_dark_theme() {
    insta::assert_snapshot!("dark_demo_timeline_120x30", styled_screen(ThemeName::Dark));
}

#[test]
fn the_demo_timeline_in_the_light_theme() {
    insta::assert_snapshot!("light_demo_timeline_120x30", styled_screen(ThemeName::Light));
}

#[test]
fn the_demo_timeline_in_the_mono_theme() {
    insta::assert_snapshot!("mono_demo_timeline_120x30", styled_screen(ThemeName::Mono));
}

/// `show --color always`, its SGR codes written as `⟨codes⟩`.
#[test]
fn show_in_colour() {
    let out = std::process::Command::new(common::bin())
        .args(["show", "assets/demo/session.json", "--color", "always", "--width", "120"])
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let sgr = regex::Regex::new("\u{1b}\\[([0-9;]*)m").unwrap();
    let shown = sgr.replace_all(&text, "⟨$1⟩");
    assert!(!shown.contains('\u{1b}'), "an escape that is not SGR: {shown}");
    insta::assert_snapshot!("show_demo_colour_120", shown);
}

/// The lanes every surface gives the row kinds agree: the viewer's kind column
/// and `show`'s kind cell take the one tone the view decides.
#[test]
fn the_viewer_and_show_colour_a_kind_by_one_lane() {
    use niceeval::model::timeline::RowKind;
    use niceeval::view::text::{Lane, Tone};
    use niceeval::view::timeline::{kind_text, kind_tone};
    let kinds = [
        RowKind::Input,
        RowKind::UserMessage,
        RowKind::AssistantMessage,
        RowKind::ToolStart,
        RowKind::ToolFinish,
        RowKind::Skill,
        RowKind::Error,
        RowKind::Unrecognized,
        RowKind::Thinking,
        RowKind::InputRequest,
    ];
    for kind in kinds {
        assert_eq!(kind_text(kind).first_tone(), kind_tone(kind), "{kind:?}");
        assert!(matches!(kind_tone(kind), Tone::Lane(_)), "{kind:?}");
    }
    assert_eq!(kind_tone(RowKind::Unrecognized), Tone::Lane(Lane::Unrecognized));
    assert_eq!(kind_tone(RowKind::ToolStart), kind_tone(RowKind::Skill));
}

//! Tool output with SGR colour codes: the viewer shows the colours as
//! styles, `show` prints the text without the codes (and with them again,
//! re-made from the parsed style, under `--color always`); any other escape
//! sequence stays visible and harmless.

mod common;
use niceeval::app::{App, Intent, Panel, update};
use niceeval::model::usage::PriceTable;
use niceeval::ui::{Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

const FIXTURE: &str = "tests/fixtures/ui/sgr-output.json";

#[test]
fn the_viewer_draws_sgr_colours_as_styles_not_codes() {
    let doc = niceeval::load::load_path(FIXTURE).unwrap();
    let mut app = App::new(doc, None, PriceTable::default());
    update(&mut app, Intent::ShowTab(Panel::Tools));
    niceeval::app::update(&mut app, niceeval::app::Action::Resize { width: 140, height: 40 });
    let mut terminal = Terminal::new(TestBackend::new(140, 40)).unwrap();
    let cache = Theme::new(ThemeName::Dark);
    terminal.draw(|f| niceeval::runtime::term::draw(f, &app, &cache)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut pass = None;
    let mut fail = None;
    for y in 0..40 {
        let line: String = (0..140).map(|x| buffer[(x, y)].symbol().to_string()).collect();
        assert!(!line.contains('␛') || line.contains("␛[2J"), "an SGR code is drawn as text: {line}");
        if let Some(at) = line.find(" PASS ") {
            let x = line[..at].chars().count() as u16 + 1;
            pass = Some(buffer[(x, y)].style());
        }
        if let Some(at) = line.find("FAIL") {
            let x = line[..at].chars().count() as u16;
            fail = Some(buffer[(x, y)].style());
        }
    }
    let pass = pass.expect("PASS is drawn");
    assert_eq!(pass.fg, Some(Color::Indexed(2)), "PASS is green: {pass:?}");
    let fail = fail.expect("FAIL is drawn");
    assert_eq!(fail.fg, Some(Color::Indexed(1)));
    assert!(fail.add_modifier.contains(ratatui::style::Modifier::BOLD));
}

fn show(args: &[&str]) -> String {
    let out = std::process::Command::new(common::bin()).arg("show").args(args).arg(FIXTURE).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn show_prints_the_text_and_makes_the_codes_again_only_in_colour() {
    let plain = show(&["--tools", "--full", "--plain", "--color", "never"]);
    assert!(plain.contains(" PASS  src/a.test.ts"), "{plain}");
    assert!(!plain.contains('\u{1b}'), "no ESC without colour");
    assert!(plain.contains("␛[2J"), "a clear-screen code stays visible: {plain}");
    let coloured = show(&["--tools", "--full", "--plain", "--color", "always"]);
    assert!(coloured.contains("\u{1b}[32m PASS \u{1b}[0m"), "{coloured:?}");
    assert!(coloured.contains("\u{1b}[1;31mFAIL\u{1b}[0m"), "{coloured:?}");
    // Red goes on after bold ends, to the next line, until the reset.
    assert!(coloured.contains("\u{1b}[31m still red\u{1b}[0m"), "{coloured:?}");
    assert!(coloured.contains("\u{1b}[31mnext line\u{1b}[0m"), "{coloured:?}");
}

//! The footer's hints name keys from the key table, and each key a hint
//! names does something where the hint shows: pressed in that place (as
//! the terminal presses it, through the key table), the screen changes, or
//! the viewer copies, pages or quits.

mod common;

use niceeval::app::key::{KeyPress, Mods};
use niceeval::app::keymap::{self, BINDINGS, Mode};
use niceeval::app::{Action, App, Focus, Intent, Panel, update};
use niceeval::model::usage::builtin_prices;
use niceeval::view::hints::{HintsFor, every_place, hints};

const W: u16 = 120;
const H: u16 = 32;
/// The split view's inspector is drawn short, so that PgDn has lines to scroll.
const SHORT: u16 = 16;

fn open(path: &str) -> App {
    let doc = niceeval::load::load_path(path).expect("load");
    let mut app = App::new(doc, None, builtin_prices());
    update(&mut app, Action::Resize { width: W, height: H });
    app
}

fn compare_app() -> App {
    let path = std::path::PathBuf::from("assets/demo/record");
    let compared = niceeval::cli::compare::load(&[path], &Default::default(), &Default::default()).expect("compare");
    let mut app = App::for_compare(compared, None, builtin_prices());
    update(&mut app, Action::Resize { width: W, height: H });
    app
}

/// The app with the keyboard at `at`.
fn placed(at: HintsFor) -> App {
    match at {
        HintsFor::Navigator => {
            let mut app = open("assets/demo/record");
            while app.focus() != Focus::Nav {
                update(&mut app, Intent::FocusNext);
            }
            app
        }
        HintsFor::Inspector => {
            let mut app = open("assets/demo/session.json");
            update(&mut app, Intent::ShowTab(Panel::Tools));
            update(&mut app, Intent::FocusNext);
            assert_eq!(app.focus(), Focus::Inspector);
            app
        }
        HintsFor::Panel(panel) => {
            let file = match panel {
                Panel::Assertions | Panel::Changes | Panel::Timing | Panel::Source | Panel::Commands => {
                    "assets/demo/record"
                }
                Panel::Translation => "assets/demo/claude-code-session.jsonl",
                _ => "assets/demo/session.json",
            };
            let mut app = open(file);
            if app.doc().attempts.len() > 1 {
                // The Record opens on its list of attempts: open the first failing one.
                update(&mut app, Intent::Enter);
            }
            update(&mut app, Intent::ShowTab(panel));
            while app.focus() != Focus::List {
                update(&mut app, Intent::FocusNext);
            }
            assert_eq!((app.tab(), app.focus()), (panel, Focus::List), "placed at {at:?}");
            app
        }
        HintsFor::Matrix => compare_app(),
        HintsFor::Split | HintsFor::SplitInspector => {
            let mut app = compare_app();
            // Two cells marked and opened side by side.
            update(&mut app, Intent::Mark);
            update(&mut app, Intent::Down);
            update(&mut app, Intent::Enter);
            assert!(app.compare().is_some_and(|c| c.split.is_some()), "the split view opened");
            if at == HintsFor::SplitInspector {
                update(&mut app, Intent::Enter);
                update(&mut app, Action::Resize { width: W, height: SHORT });
            }
            app
        }
    }
}

/// The screen as drawn, with its looks (a moved selection shows only in them).
fn screen(app: &mut App) -> ratatui::buffer::Buffer {
    let theme = niceeval::ui::Theme::new(niceeval::ui::ThemeName::Mono);
    let (w, h) = (app.viewport().width, app.viewport().height);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| niceeval::runtime::term::draw(f, app, &theme)).unwrap();
    terminal.backend().buffer().clone()
}

/// The key the hint names for `intent`, pressed as the terminal would press it.
fn press(app: &mut App, intent: Intent) -> Vec<niceeval::app::Effect> {
    let name = keymap::key_for(intent);
    let (_, key, _) = BINDINGS
        .iter()
        .find(|(m, k, i)| *m == Mode::Normal && *i == intent && keymap::key_name(*k) == name)
        .unwrap_or_else(|| panic!("{intent:?}: the hint names {name:?}, which the table does not bind to it"));
    let action = keymap::lookup(app.mode(), KeyPress::new(key.code, key.mods | Mods::NONE))
        .unwrap_or_else(|| panic!("{name} does nothing in {:?} mode", app.mode()));
    assert_eq!(action, Action::Intent(intent), "{name} does {action:?}, not what the hint says");
    update(app, action)
}

/// Whether pressing `intent` after `before` (the hint's other keys) shows
/// or does anything.
fn does_something(at: HintsFor, before: &[Intent], intent: Intent) -> bool {
    let mut app = placed(at);
    for b in before {
        press(&mut app, *b);
    }
    let was = screen(&mut app);
    let effects = press(&mut app, intent);
    app.should_quit() || !effects.is_empty() || screen(&mut app) != was
}

#[test]
fn every_hinted_key_is_bound_to_what_the_hint_says_and_does_something_there() {
    let mut checked = 0;
    for at in every_place() {
        for hint in hints(at) {
            let keys = niceeval::view::hints::hint_keys(hint);
            let unbound: Vec<&Intent> = hint.intents.iter().filter(|i| keymap::key_for(**i).is_empty()).collect();
            assert!(unbound.is_empty(), "{at:?}: {:?} names {unbound:?}, which no key does", hint.word);
            for (i, intent) in hint.intents.iter().enumerate() {
                // A key that undoes another (k after j), or goes where the view
                // already is (1 on the Timeline), is pressed after the hint's others.
                let others: Vec<Intent> =
                    hint.intents.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, x)| *x).collect();
                let acted = does_something(at, &[], *intent) || does_something(at, &others, *intent);
                assert!(acted, "{at:?}: '{}' ({:?}) changed nothing", keys, hint.word);
                checked += 1;
            }
        }
    }
    common::report(&format!("hints: {checked} hinted keys pressed where their hints show"));
    assert!(checked > 60, "only {checked} hinted keys");
}

#[test]
fn the_footer_shows_the_tables_keys() {
    // Rebinding is a table change: the footer and the table must agree on the key of every hint.
    let mut app = open("assets/demo/session.json");
    let text = common::mono_screen(&mut app, W, H);
    let footer = text.lines().nth(H as usize - 1).unwrap_or_default().to_string();
    for hint in hints(HintsFor::Panel(Panel::Timeline)).iter().take(4) {
        let keys = niceeval::view::hints::hint_keys(hint);
        assert!(footer.contains(&format!("{keys} {}", hint.word)), "{keys} {}: {footer}", hint.word);
    }
}

//! The terminal: enter and leave raw mode and the alternate screen, and the
//! event loop. The terminal is restored on quit, on error, on panic and on a
//! fatal signal; on suspend (Ctrl-Z, SIGTSTP) it is left and taken back.

use crate::app::{Action, App, Effect, keymap};
use crate::ui::{self, Theme};
use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEventKind, KeyModifiers, MouseEventKind,
};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Undo every mode we set. Safe to call more than once.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = execute!(io::stdout(), DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    }
}

fn enter() -> io::Result<()> {
    #[cfg(unix)]
    signal_restore::save_tty_mode();
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture, cursor::Hide)?;
    Ok(())
}

/// Restores the terminal when dropped (the error path).
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

thread_local! {
    /// A worker thread whose panics are caught and reported by its owner:
    /// the hook leaves the terminal (still in use by the UI thread) alone.
    static WORKER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Mark the current thread as a worker (see [`WORKER`]).
pub fn mark_worker_thread() {
    WORKER.with(|w| w.set(true));
}

/// Restore the terminal before the panic message prints, then say where to report it.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if WORKER.with(|w| w.get()) {
            return;
        }
        restore();
        previous(info);
        eprintln!(
            "niceeval crashed. This is a bug: please report it with the command you ran and, if you can, the input file."
        );
    }));
}

/// On a fatal signal, put the terminal back before the process ends: `kill`
/// (TERM, INT, QUIT), a closed terminal (HUP), and BUS, which is what a
/// memory-mapped input raises when another program truncates it while it is
/// read. BUS says so and names the mapped file; the others end the process
/// as the signal would have, after the terminal is restored. A signal the
/// parent set to be ignored (`nohup`, `trap '' INT`) stays ignored, except
/// BUS: the kernel delivers a real bus error even when it is ignored.
#[cfg(unix)]
pub fn install_signal_handlers() {
    for signal in FATAL_SIGNALS {
        // SAFETY: sigaction with a zeroed, then filled, struct; the handler
        // only calls async-signal-safe functions (see `on_fatal_signal`).
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            // An ignored BUS is still delivered for a real bus error (with the
            // default action), so its handler is always installed.
            let ignored =
                libc::sigaction(signal, std::ptr::null(), &mut current) != 0 || current.sa_sigaction == libc::SIG_IGN;
            if ignored && signal != libc::SIGBUS {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_fatal_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            // No second fatal signal may end the process halfway through the restore.
            libc::sigemptyset(&mut action.sa_mask);
            for other in FATAL_SIGNALS {
                libc::sigaddset(&mut action.sa_mask, other);
            }
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
    install_stop_handler();
}

#[cfg(not(unix))]
pub fn install_signal_handlers() {}

/// Set by the SIGTSTP handler once the process continues after a stop: the
/// terminal was left and taken back, and the screen must be drawn anew.
static RESUMED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-Z can suspend the viewer (SIGTSTP was not ignored at start).
static CAN_SUSPEND: AtomicBool = AtomicBool::new(false);

/// On SIGTSTP (Ctrl-Z in a shell, `kill -TSTP`) leave the terminal as it was
/// before the viewer, stop, and on SIGCONT take it back (see `on_stop`). An
/// ignored SIGTSTP stays ignored.
#[cfg(unix)]
fn install_stop_handler() {
    // SAFETY: sigaction with a zeroed, then filled, struct; the handler only
    // calls async-signal-safe functions.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGTSTP, std::ptr::null(), &mut current) != 0 || current.sa_sigaction == libc::SIG_IGN
        {
            return;
        }
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // A fatal signal waits until the terminal is left (or taken back).
        libc::sigemptyset(&mut action.sa_mask);
        for other in FATAL_SIGNALS {
            libc::sigaddset(&mut action.sa_mask, other);
        }
        libc::sigaction(libc::SIGTSTP, &action, std::ptr::null_mut());
    }
    CAN_SUSPEND.store(true, Ordering::SeqCst);
}

/// SIGTSTP: leave the terminal (raw mode off, main screen, mouse reporting
/// off, cursor shown), stop with the default action, and once continued
/// take the terminal back and ask the event loop to redraw. Only write(2),
/// tcgetattr/tcsetattr, signal/sigaction, sigprocmask and raise: all
/// async-signal-safe.
#[cfg(unix)]
extern "C" fn on_stop(_signal: libc::c_int) {
    // SAFETY: errno is thread-local; it is put back for the interrupted code.
    let errno = unsafe { *libc::__errno_location() };
    let active = ACTIVE.load(Ordering::SeqCst);
    if active {
        signal_restore::leave_for_stop();
    }
    // SAFETY: the default action stops the process; SIGTSTP is blocked while
    // this handler runs, so it is unblocked for the raise to take effect.
    unsafe {
        libc::signal(libc::SIGTSTP, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTSTP);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(libc::SIGTSTP);
    }
    // Continued (SIGCONT).
    install_stop_handler();
    if active {
        signal_restore::take_back_after_stop();
        RESUMED.store(true, Ordering::SeqCst);
        // SAFETY: wakes the event loop: crossterm turns SIGWINCH into a Resize event.
        unsafe {
            libc::raise(libc::SIGWINCH);
        }
    }
    // SAFETY: as above.
    unsafe {
        *libc::__errno_location() = errno;
    }
}

/// Ctrl-Z in the viewer (raw mode delivers it as a key): stop as the shell's
/// Ctrl-Z would, through the SIGTSTP handler. `false` when SIGTSTP is ignored.
fn suspend() -> bool {
    #[cfg(unix)]
    if CAN_SUSPEND.load(Ordering::SeqCst) {
        // SAFETY: raise(3) on our own process.
        unsafe {
            libc::raise(libc::SIGTSTP);
        }
        return true;
    }
    false
}

#[cfg(unix)]
const FATAL_SIGNALS: [libc::c_int; 5] = [libc::SIGTERM, libc::SIGINT, libc::SIGQUIT, libc::SIGHUP, libc::SIGBUS];

/// Exit status after a mapped input changed under the reader (EX_IOERR).
#[cfg(unix)]
const EXIT_INPUT_CHANGED: i32 = 74;

/// Set by the first fatal signal handled. The signals are masked on the
/// thread that takes one, but not on the others: two loader threads reading
/// a truncated mapping each take a SIGBUS, and the second must not exit
/// while the first is still putting the terminal back.
#[cfg(unix)]
static FATAL_TAKEN: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_fatal_signal(signal: libc::c_int) {
    if FATAL_TAKEN.swap(true, Ordering::SeqCst) {
        // The first handler ends the process; wait for it.
        loop {
            // SAFETY: pause(2) is async-signal-safe.
            unsafe { libc::pause() };
        }
    }
    // Not `restore()`: crossterm and std's stdout take locks (and a RefCell)
    // that the interrupted thread may hold. This writes the reset sequences
    // and the saved tty mode with write(2) and tcsetattr(3) only.
    if ACTIVE.swap(false, Ordering::SeqCst) {
        signal_restore::restore_from_handler();
    }
    if signal == libc::SIGBUS {
        // Allocates, unlike the rest: a bus error on a mapped input is raised
        // by the loader thread while it reads the mapping, not inside malloc.
        let message = match crate::load::mapped_inputs() {
            Some(paths) => format!(
                "niceeval: {paths}: the file changed while it was being read (was it truncated by another program?). Stopped; open it again once it is complete.\n"
            ),
            None => "niceeval: bus error (SIGBUS). Stopped.\n".to_string(),
        };
        // SAFETY: write(2) and _exit(2) are async-signal-safe.
        unsafe {
            libc::write(libc::STDERR_FILENO, message.as_ptr().cast(), message.len());
            libc::_exit(EXIT_INPUT_CHANGED);
        }
    }
    // SAFETY: back to the default action, then the same signal again, so the
    // parent sees the process ended by it.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// The terminal mode from before raw mode, kept where a signal handler can
/// reach it without a lock.
#[cfg(unix)]
mod signal_restore {
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

    /// What `restore()` writes through crossterm: mouse reporting off,
    /// main screen, cursor shown.
    pub(super) const RESET: &[u8] = b"\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?1049l\x1b[?25h";

    static TTY_FD: AtomicI32 = AtomicI32::new(-1);
    static SAVED: AtomicBool = AtomicBool::new(false);
    /// Written once before `SAVED` is set, read only after it is.
    static mut MODE: std::mem::MaybeUninit<libc::termios> = std::mem::MaybeUninit::uninit();

    /// The tty crossterm puts in raw mode (stdin when it is one, else
    /// /dev/tty), and its mode now.
    pub fn save_tty_mode() {
        if SAVED.load(Ordering::SeqCst) {
            return;
        }
        // SAFETY: isatty/open/tcgetattr on a valid fd and a valid pointer;
        // MODE is written here only, before SAVED is published.
        unsafe {
            let fd = if libc::isatty(libc::STDIN_FILENO) == 1 {
                libc::STDIN_FILENO
            } else {
                libc::open(c"/dev/tty".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC)
            };
            if fd < 0 {
                return;
            }
            let mode = &raw mut MODE;
            if libc::tcgetattr(fd, (*mode).as_mut_ptr()) == 0 {
                TTY_FD.store(fd, Ordering::SeqCst);
                SAVED.store(true, Ordering::SeqCst);
            }
        }
    }

    /// What `enter()` writes through crossterm: main screen saved and the
    /// alternate one entered, mouse reporting on, cursor hidden.
    pub(super) const ENTER: &[u8] = b"\x1b[?1049h\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1015h\x1b[?1006h\x1b[?25l";

    /// The viewer's own (raw) mode, saved when it stops, for when it continues.
    static RAW_SAVED: AtomicBool = AtomicBool::new(false);
    /// Written and read only by the SIGTSTP handler, on one thread.
    static mut RAW: std::mem::MaybeUninit<libc::termios> = std::mem::MaybeUninit::uninit();

    /// Async-signal-safe: save the raw mode, then [`restore_from_handler`].
    pub fn leave_for_stop() {
        // SAFETY: tcgetattr into a static only this handler touches.
        unsafe {
            if SAVED.load(Ordering::SeqCst) {
                let raw = &raw mut RAW;
                let ok = libc::tcgetattr(TTY_FD.load(Ordering::SeqCst), (*raw).as_mut_ptr()) == 0;
                RAW_SAVED.store(ok, Ordering::SeqCst);
            }
        }
        restore_from_handler();
    }

    /// Async-signal-safe: the raw mode saved by [`leave_for_stop`] again,
    /// and the alternate screen, mouse reporting and hidden cursor.
    pub fn take_back_after_stop() {
        // SAFETY: RAW was written before RAW_SAVED was set; write of a static buffer.
        unsafe {
            if RAW_SAVED.load(Ordering::SeqCst) {
                let raw = &raw const RAW;
                libc::tcsetattr(TTY_FD.load(Ordering::SeqCst), libc::TCSANOW, (*raw).as_ptr());
            }
            libc::write(libc::STDOUT_FILENO, ENTER.as_ptr().cast(), ENTER.len());
        }
    }

    /// Async-signal-safe: write(2) and tcsetattr(3).
    pub fn restore_from_handler() {
        // SAFETY: write of a static buffer; MODE was initialised before SAVED.
        unsafe {
            libc::write(libc::STDOUT_FILENO, RESET.as_ptr().cast(), RESET.len());
            if SAVED.load(Ordering::SeqCst) {
                let mode = &raw const MODE;
                libc::tcsetattr(TTY_FD.load(Ordering::SeqCst), libc::TCSANOW, (*mode).as_ptr());
            }
        }
    }
}

/// Something that can bring new content while the viewer runs (`--watch`, `--follow`).
pub trait Source {
    /// Called about every `interval`: what happened since, as actions for
    /// `update` (none: nothing changed).
    fn poll(&mut self) -> Vec<crate::app::Action>;
    fn interval(&self) -> Duration;
}

/// Options the terminal layer needs.
pub struct RunOptions {
    /// `NICEEVAL_TIMING`: report the time to the first drawn frame on stderr after exit.
    pub started: Option<Instant>,
    /// `NICEEVAL_TIMING=exit`: quit right after the first frame (for benchmarks).
    pub exit_after_first_frame: bool,
    /// `NICEEVAL_TIMING=loaded`: quit after the first frame that shows the
    /// whole file (after a background load, if any).
    pub exit_when_loaded: bool,
}

pub fn run(mut app: App, opts: RunOptions, mut source: Option<Box<dyn Source>>) -> io::Result<()> {
    enter()?;
    let _guard = Guard;
    let backend = CrosstermBackend::new(io::stdout());
    let mut terminal = Terminal::new(backend)?;
    terminal.clear()?;
    // The app's theme: the lines it makes and the colours drawn agree.
    let theme = Theme::new(app.theme());
    let size = terminal.size()?;
    // What `update` asks of the terminal (copy, page, redraw), done before the next frame.
    let mut effects = crate::app::update(&mut app, Action::Resize { width: size.width, height: size.height });
    let mut dirty = true;
    let mut first_frame: Option<Duration> = None;
    loop {
        if RESUMED.swap(false, Ordering::SeqCst) {
            // Back from a stop: the alternate screen was entered anew (blank),
            // and the terminal may have been resized meanwhile.
            let size = terminal.size()?;
            effects.extend(crate::app::update(&mut app, Action::Resize { width: size.width, height: size.height }));
            terminal.clear()?;
            dirty = true;
        }
        if dirty {
            terminal.draw(|f| draw(f, &app, &theme))?;
            dirty = false;
            if first_frame.is_none() {
                first_frame = opts.started.map(|s| s.elapsed());
                if opts.exit_after_first_frame {
                    break;
                }
            }
            if opts.exit_when_loaded && app.loading().is_none() {
                break;
            }
        }
        let had_effects = !effects.is_empty();
        for effect in std::mem::take(&mut effects) {
            match effect {
                Effect::Copy(text) => copy_osc52(&text)?,
                Effect::Page(text) => {
                    // A pager that did not run is said on the screen (stderr is behind the alternate screen).
                    if let Some(failed) = page(&text)? {
                        effects.extend(crate::app::update(&mut app, failed));
                    }
                    terminal.clear()?;
                }
                Effect::Redraw => terminal.clear()?,
            }
            dirty = true;
        }
        if app.should_quit() {
            break;
        }
        if had_effects {
            // Draw now (a cleared screen, the pager's return): not on the next key.
            continue;
        }
        // A running search scan gets the time between key presses; a key
        // press is handled before the next scan step.
        let busy = app.search_pending();
        let ready = match &source {
            _ if busy => event::poll(Duration::ZERO)?,
            Some(s) => event::poll(s.interval())?,
            None => true,
        };
        let mut send = |app: &mut App, action: Action| effects.extend(crate::app::update(app, action));
        if ready {
            dirty |= handle(&mut app, event::read()?, &mut send);
            // Drain a burst (key repeat, paste, resize storm) before drawing.
            while event::poll(Duration::ZERO)? {
                dirty |= handle(&mut app, event::read()?, &mut send);
            }
        }
        if let Some(s) = source.as_mut() {
            for action in s.poll() {
                let loaded = matches!(action, crate::app::Action::Loaded { .. });
                let installing = Instant::now();
                send(&mut app, action);
                if loaded {
                    crate::runtime::timings::installed(installing.elapsed());
                }
                dirty = true;
            }
        }
        if busy && !ready {
            send(&mut app, Action::SearchStep);
            dirty = true;
        }
    }
    drop(terminal);
    restore();
    if let Some(t) = first_frame {
        eprintln!("niceeval: first frame after {:.1} ms", t.as_secs_f64() * 1000.0);
    }
    Ok(())
}

/// The app's screen at the frame's size, drawn.
pub fn draw(frame: &mut ratatui::Frame, app: &App, theme: &Theme) {
    let area = frame.area();
    ui::draw(frame, &crate::screen::screen(app, area.width, area.height), theme);
}

/// A terminal event as the action it asks for, sent with `send`; whether
/// the screen must be drawn again.
fn handle(app: &mut App, ev: Event, send: &mut impl FnMut(&mut App, Action)) -> bool {
    match ev {
        Event::Key(key) if key.kind == KeyEventKind::Press => {
            if key.code == KeyCode::Char('z') && key.modifiers.contains(KeyModifiers::CONTROL) {
                if !suspend() {
                    send(app, Action::SuspendRefused);
                    return true;
                }
                return false;
            }
            if app.debug_keys() && key.code == KeyCode::F(12) {
                send(app, Action::DebugPanic);
            }
            let Some(key) = super::keys::key_press(key) else { return false };
            match keymap::lookup(app.mode(), key) {
                Some(action) => {
                    send(app, action);
                    true
                }
                None => false,
            }
        }
        Event::Mouse(m) => {
            let action = match m.kind {
                MouseEventKind::ScrollDown => Action::ScrollAt { column: m.column, row: m.row, down: true },
                MouseEventKind::ScrollUp => Action::ScrollAt { column: m.column, row: m.row, down: false },
                MouseEventKind::Down(_) => Action::ClickAt { column: m.column, row: m.row },
                _ => return false,
            };
            send(app, action);
            true
        }
        Event::Resize(width, height) => {
            send(app, Action::Resize { width, height });
            true
        }
        _ => false,
    }
}

fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 { T[(n >> 6) as usize & 63] as char } else { '=' });
        out.push(if chunk.len() > 2 { T[n as usize & 63] as char } else { '=' });
    }
    out
}

/// Put text on the clipboard through the terminal (OSC 52). The payload is
/// base64, so file content cannot break out of the sequence.
fn copy_osc52(text: &str) -> io::Result<()> {
    let mut out = io::stdout();
    write!(out, "\x1b]52;c;{}\x07", base64(text.as_bytes()))?;
    out.flush()
}

/// Show text in `$PAGER` (default `less`), then come back to the viewer;
/// what to tell the app when the pager could not run.
fn page(text: &str) -> io::Result<Option<Action>> {
    let safe = crate::model::text::sanitize(text, crate::model::text::Lines::Multi).into_owned();
    restore();
    let pager = &super::settings::Settings::get().pager;
    let mut parts = pager.split_whitespace();
    let program = parts.next().unwrap_or("less");
    let result = std::process::Command::new(program).args(parts).stdin(std::process::Stdio::piped()).spawn().and_then(
        |mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(safe.as_bytes());
            }
            child.wait()
        },
    );
    enter()?;
    Ok(pager_outcome(result).map(|why| Action::PagerFailed { program: program.to_string(), why }))
}

/// What went wrong running the pager (`None`: it ran).
fn pager_outcome(result: io::Result<std::process::ExitStatus>) -> Option<crate::view::chrome::PagerFailure> {
    use crate::view::chrome::PagerFailure;
    let why = match result {
        Ok(status) if status.success() => return None,
        Ok(status) => match status.code() {
            Some(127) => PagerFailure::NotFound,
            Some(code) => PagerFailure::Status(code),
            None => PagerFailure::Signal,
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => PagerFailure::NotFound,
        Err(e) => PagerFailure::Other(e.to_string()),
    };
    Some(why)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_pager_that_does_not_exist_is_said_not_silent() {
        use crate::view::chrome::PagerFailure;
        let result = std::process::Command::new("niceeval-no-such-pager").spawn().and_then(|mut c| c.wait());
        assert_eq!(super::pager_outcome(result), Some(PagerFailure::NotFound), "a missing pager is said");
        let failed = std::process::Command::new("false").status();
        assert_eq!(super::pager_outcome(failed), Some(PagerFailure::Status(1)));
        let ran = std::process::Command::new("true").status();
        assert_eq!(super::pager_outcome(ran), None);
    }

    #[test]
    fn a_caught_worker_panic_leaves_the_terminal_to_the_ui() {
        super::install_panic_hook();
        // As if the viewer had the terminal: a worker's panic must not restore it.
        super::ACTIVE.store(true, std::sync::atomic::Ordering::SeqCst);
        let caught = std::thread::spawn(|| {
            super::mark_worker_thread();
            std::panic::catch_unwind(|| panic!("loader bug")).is_err()
        })
        .join()
        .unwrap();
        let still_active = super::ACTIVE.swap(false, std::sync::atomic::Ordering::SeqCst);
        let _ = std::panic::take_hook();
        assert!(caught);
        assert!(still_active, "the hook restored the terminal for a worker thread");
    }

    /// The signal handler writes these bytes itself (it may not call
    /// crossterm); they must stay what `restore()` writes through crossterm.
    #[cfg(unix)]
    #[test]
    fn the_signal_reset_is_what_restore_writes() {
        use crossterm::event::DisableMouseCapture;
        use crossterm::terminal::LeaveAlternateScreen;
        let mut written = Vec::new();
        crossterm::execute!(written, DisableMouseCapture, LeaveAlternateScreen, crossterm::cursor::Show).unwrap();
        assert_eq!(String::from_utf8_lossy(&written), String::from_utf8_lossy(super::signal_restore::RESET));
    }

    /// The SIGTSTP handler writes these itself when the viewer continues;
    /// they must stay what `enter()` writes through crossterm.
    #[cfg(unix)]
    #[test]
    fn the_continue_sequence_is_what_enter_writes() {
        use crossterm::event::EnableMouseCapture;
        use crossterm::terminal::EnterAlternateScreen;
        let mut written = Vec::new();
        crossterm::execute!(written, EnterAlternateScreen, EnableMouseCapture, crossterm::cursor::Hide).unwrap();
        assert_eq!(String::from_utf8_lossy(&written), String::from_utf8_lossy(super::signal_restore::ENTER));
    }

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(super::base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(super::base64(b"fo"), "Zm8=");
        assert_eq!(super::base64(b"f"), "Zg==");
    }
}

//! A subcommand this binary does not have (`exp`, `list`, `sandbox`, …) is
//! handed to the project's own NiceEval CLI, so that installing this viewer
//! as `niceeval` never hides NiceEval.

use crate::view::niceeval_cli::{self, NICEEVAL_BIN};
use std::ffi::OsString;

/// `niceeval help COMMAND` where COMMAND is none of this binary's: NiceEval's
/// CLI answers it (`None`: clap's help, for ours or for no command).
pub fn help_for_theirs(argv: &[OsString]) -> Option<i32> {
    let [_, help, command, ..] = argv else { return None };
    if help != "help" {
        return None;
    }
    let cli = <super::Cli as clap::CommandFactory>::command();
    let ours = cli.get_subcommands().any(|c| c.get_name() == command || c.get_all_aliases().any(|a| a == command))
        || command == "help"
        || command.to_string_lossy().starts_with('-');
    (!ours).then(|| run(&argv[1..]))
}

/// Run NiceEval's CLI with `args` (the subcommand first), stdio inherited;
/// its exit code is ours, 128+N when signal N ended it.
pub fn run(args: &[OsString]) -> i32 {
    let command = args.first().map(|a| a.to_string_lossy().into_owned()).unwrap_or_default();
    let start = match std::env::current_dir() {
        Ok(dir) => dir,
        Err(e) => return super::report_error(&format!("{command}: the working directory cannot be read: {e}")),
    };
    let me = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    let mut skipped = None;
    let found = super::find_upward(&start, NICEEVAL_BIN, |candidate| {
        if !candidate.is_file() {
            return false;
        }
        // A `niceeval` that is this binary (linked into node_modules) would loop.
        let is_me = me.is_some() && std::fs::canonicalize(candidate).ok() == me;
        if is_me {
            skipped = Some(candidate.to_path_buf());
        }
        !is_me
    });
    let Some(bin) = found else {
        return super::report_error(&niceeval_cli::no_niceeval_cli(&command, &start, skipped.as_deref()));
    };
    let mut child = match std::process::Command::new(&bin).args(args).spawn() {
        Ok(child) => child,
        Err(e) => {
            let shown = crate::view::clean(&bin.display().to_string());
            return super::report_error(&format!("{shown}: could not run NiceEval's CLI: {e}"));
        }
    };
    // Ctrl-C and Ctrl-\ reach the child from the terminal; this process waits
    // for it to finish (NiceEval stops a run in steps) instead of dying first.
    // A TERM or HUP sent to this process is passed on to it, for the same
    // reason. Set after the spawn: an ignored signal would be inherited.
    let restore = ignore_terminal_signals();
    let forwarding = forward_to(child.id());
    let status = child.wait();
    restore_signals(forwarding);
    restore_signals(restore);
    match status {
        Ok(status) => exit_code(status),
        Err(e) => super::report_error(&format!("{}: {e}", crate::view::clean(&bin.display().to_string()))),
    }
}

fn exit_code(status: std::process::ExitStatus) -> i32 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    status.code().unwrap_or(1)
}

#[cfg(unix)]
type Saved = Vec<(libc::c_int, libc::sigaction)>;
#[cfg(not(unix))]
type Saved = ();

#[cfg(unix)]
fn ignore_terminal_signals() -> Saved {
    let mut saved = Vec::new();
    for signal in [libc::SIGINT, libc::SIGQUIT] {
        // SAFETY: sigaction with zeroed structs; SIG_IGN runs no code.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_IGN;
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, &action, &mut old) == 0 {
                saved.push((signal, old));
            }
        }
    }
    saved
}

/// The process TERM and HUP are passed on to (0: none).
#[cfg(unix)]
static CHILD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn pass_on(signal: libc::c_int) {
    let pid = CHILD.load(std::sync::atomic::Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: kill(2) is async-signal-safe.
        unsafe {
            libc::kill(pid, signal);
        }
    }
}

/// Pass TERM and HUP on to `child` until the returned actions are put back.
#[cfg(unix)]
fn forward_to(child: u32) -> Saved {
    CHILD.store(child as i32, std::sync::atomic::Ordering::SeqCst);
    let mut saved = Vec::new();
    for signal in [libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: sigaction with zeroed, then filled, structs; the handler
        // only loads an atomic and calls kill(2).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = pass_on as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, &action, &mut old) == 0 {
                saved.push((signal, old));
            }
        }
    }
    saved
}

#[cfg(unix)]
fn restore_signals(saved: Saved) {
    for (signal, old) in saved {
        // SAFETY: puts back the action sigaction returned above.
        unsafe {
            libc::sigaction(signal, &old, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
fn ignore_terminal_signals() -> Saved {}
#[cfg(not(unix))]
fn forward_to(_: u32) -> Saved {}
#[cfg(not(unix))]
fn restore_signals(_: Saved) {}

//! A Record is read inside its own directory: a symlink in it that leads
//! outside (to another project, a home directory, /etc) is not followed, and
//! a notice names it. The Record root itself may be a symlink (the user named it).
//!
//! The root is kept per thread for the length of [`Confined`]: a Record loads
//! on one thread, and the readers deep inside it (attachments, blobs) then
//! need no extra argument.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

thread_local! {
    static ROOT: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
}

/// While it lives, reads on this thread are confined to `root`.
pub struct Confined {
    previous: Option<PathBuf>,
}

impl Confined {
    pub fn to(root: &Path) -> Confined {
        let real = std::fs::canonicalize(root).ok();
        Confined { previous: ROOT.with(|r| r.replace(real)) }
    }
}

impl Drop for Confined {
    fn drop(&mut self) {
        ROOT.with(|r| *r.borrow_mut() = self.previous.take());
    }
}

/// `Err` with a message naming `path` when it leads outside the Record
/// being read. A path that does not resolve is left to its reader, which
/// reports it as missing.
pub fn inside(path: &Path) -> Result<(), String> {
    ROOT.with(|r| {
        let Some(root) = r.borrow().clone() else { return Ok(()) };
        match std::fs::canonicalize(path) {
            Ok(real) if !real.starts_with(&root) => Err(format!(
                "{} leads outside the Record directory (to {}); not followed",
                path.display(),
                real.display()
            )),
            _ => Ok(()),
        }
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn symlinks_out_of_the_root_are_refused_inside_ones_followed() {
        let dir = std::env::temp_dir().join(format!("niceeval-confine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("record/sub")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("outside/secret.json"), "{}").unwrap();
        std::fs::write(dir.join("record/sub/real.json"), "{}").unwrap();
        std::os::unix::fs::symlink(dir.join("outside/secret.json"), dir.join("record/out.json")).unwrap();
        std::os::unix::fs::symlink("sub/real.json", dir.join("record/in.json")).unwrap();
        std::os::unix::fs::symlink("../../outside", dir.join("record/sub/up")).unwrap();
        {
            let _confined = Confined::to(&dir.join("record"));
            assert!(inside(&dir.join("record/in.json")).is_ok());
            assert!(inside(&dir.join("record/missing.json")).is_ok());
            let err = inside(&dir.join("record/out.json")).unwrap_err();
            assert!(err.contains("out.json") && err.contains("outside the Record"), "{err}");
            assert!(inside(&dir.join("record/sub/up/secret.json")).is_err(), "a directory symlink out");
        }
        assert!(inside(&dir.join("record/out.json")).is_ok(), "no Record being read: nothing to confine to");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! `--watch` and `--follow`: new content while the viewer runs.

use crate::app::App;
use crate::cli::DeriveOpts;
use crate::load::LoadError;
use crate::term::Source;
use std::time::Duration;

pub fn source_for(paths: &[String], follow: bool, opts: &DeriveOpts) -> Result<Box<dyn Source>, LoadError> {
    let _ = (paths, follow, opts);
    Err(LoadError::new(paths.join(", "), "--watch and --follow are not available yet"))
}

#[allow(dead_code)]
struct Nothing;

impl Source for Nothing {
    fn poll(&mut self, _app: &mut App) -> bool {
        false
    }
    fn interval(&self) -> Duration {
        Duration::from_millis(250)
    }
}

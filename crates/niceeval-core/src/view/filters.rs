//! The filters of the viewer's lists: which attempts the navigator lists
//! (`f` there) and which tool calls the Tools tab lists (`f` there), each
//! with the words that name it.

use crate::model::document::Attempt;
use crate::model::verdict::review_rank;

/// Which attempts the navigator lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VerdictFilter {
    #[default]
    All,
    /// Failed, errored and unavailable.
    Failing,
    Passed,
}

impl VerdictFilter {
    pub fn word(self) -> &'static str {
        match self {
            VerdictFilter::All => "all attempts",
            VerdictFilter::Failing => "failed, errored, unavailable",
            VerdictFilter::Passed => "passed and skipped",
        }
    }

    pub fn keeps(self, attempt: &Attempt) -> bool {
        let rank = review_rank(attempt);
        match self {
            VerdictFilter::All => true,
            VerdictFilter::Failing => rank <= 2,
            VerdictFilter::Passed => rank > 3,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolFilter {
    #[default]
    All,
    Failed,
    Pending,
    Problems,
}

impl ToolFilter {
    pub fn word(self) -> &'static str {
        match self {
            ToolFilter::All => "all",
            ToolFilter::Failed => "failed/rejected",
            ToolFilter::Pending => "pending",
            ToolFilter::Problems => "ambiguous/orphan",
        }
    }
}

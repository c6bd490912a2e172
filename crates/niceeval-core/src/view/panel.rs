//! The viewer's panels, its tabs: one list, which the viewer's tab bar, its
//! footer hints, the split view's tabs and the key table all name.

/// A panel of the viewer (a tab).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Panel {
    Timeline,
    Tools,
    Hitl,
    Usage,
    Assertions,
    Diagnostics,
    Changes,
    Timing,
    /// Each native line beside the events it became (native logs, captures).
    Translation,
    /// The recorded eval source files, whole, with their gutter (Records).
    Source,
    /// The sandbox's lifecycle commands (Records, InvocationSummaries).
    Commands,
}

impl Panel {
    /// Every panel, in the tab bar's order.
    pub const ALL: [Panel; 11] = [
        Panel::Timeline,
        Panel::Tools,
        Panel::Hitl,
        Panel::Usage,
        Panel::Assertions,
        Panel::Diagnostics,
        Panel::Changes,
        Panel::Timing,
        Panel::Translation,
        Panel::Source,
        Panel::Commands,
    ];

    /// The panels the split view of two attempts has.
    pub const SPLIT: [Panel; 4] = [Panel::Timeline, Panel::Tools, Panel::Usage, Panel::Assertions];

    /// Its name in the tab bar.
    pub fn title(self) -> &'static str {
        match self {
            Panel::Timeline => "Timeline",
            Panel::Tools => "Tools",
            Panel::Hitl => "HITL",
            Panel::Usage => "Usage",
            Panel::Assertions => "Assertions",
            Panel::Diagnostics => "Diagnostics",
            Panel::Changes => "Changes",
            Panel::Timing => "Timing",
            Panel::Translation => "Translation",
            Panel::Source => "Source",
            Panel::Commands => "Commands",
        }
    }

    /// Its name in the split view, where Tools shows the two sides' calls diffed.
    pub fn split_title(self) -> &'static str {
        match self {
            Panel::Tools => "Tools diff",
            other => other.title(),
        }
    }
}

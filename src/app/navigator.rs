//! The navigator: attempts, sessions and turns as one flat list of rows.

use super::{App, NavNode, Scope};

impl App {
    /// Flatten the navigator tree, honouring collapsed nodes.
    pub fn rebuild_nav(&mut self) {
        let mut nav = Vec::new();
        let many = self.doc.attempts.len() > 1;
        // Attempts to review first, one eval's attempts in order (a folder's sessions stay newest first).
        let order: Vec<usize> = if self.listing.is_none() {
            crate::view::nav::order(&self.doc.attempts, &self.views)
        } else {
            (0..self.doc.attempts.len()).collect()
        };
        for ai in order {
            let attempt = &self.doc.attempts[ai];
            if many && !self.verdict_filter.keeps(attempt) {
                continue;
            }
            if many && let Some(q) = &self.nav_query {
                // A folder's session is found by its first user message too.
                let listed = self.listing.as_ref().and_then(|l| l.rows.get(ai)?.facts.first_user.as_deref());
                let hay = format!(
                    "{} {} {} {}",
                    attempt.eval_id.as_deref().unwrap_or(""),
                    attempt.experiment_id.as_deref().unwrap_or(""),
                    attempt.locator.as_deref().unwrap_or(""),
                    listed.unwrap_or("")
                );
                if !q.matcher.is_match(&hay) {
                    continue;
                }
            }
            let root = Scope { attempt: ai, session: None, turn: None };
            let base_depth = u8::from(many);
            nav.push(NavNode { depth: 0, scope: root, has_children: !attempt.sessions.is_empty() });
            // One attempt is the whole tree: its root is never folded away.
            if many && self.collapsed.contains(&root) {
                continue;
            }
            for (si, session) in attempt.sessions.iter().enumerate() {
                let s = Scope { attempt: ai, session: Some(si), turn: None };
                nav.push(NavNode { depth: base_depth + 1, scope: s, has_children: !session.turns.is_empty() });
                if self.collapsed.contains(&s) {
                    continue;
                }
                for ti in 0..session.turns.len() {
                    nav.push(NavNode {
                        depth: base_depth + 2,
                        scope: Scope { attempt: ai, session: Some(si), turn: Some(ti) },
                        has_children: false,
                    });
                }
            }
        }
        self.nav = nav;
        if let Some(i) = self.nav.iter().position(|n| n.scope == self.scope) {
            self.nav_state.selected = i;
        }
        let rows = self.viewport.nav_rows;
        self.nav_state.clamp(self.nav.len(), rows);
    }

    /// Select the navigator row of the scope shown.
    pub fn sync_nav_to_scope(&mut self) {
        if let Some(i) = self.nav.iter().position(|n| n.scope == self.scope) {
            self.nav_state.selected = i;
            let rows = self.viewport.nav_rows;
            self.nav_state.clamp(self.nav.len(), rows);
        }
    }
}

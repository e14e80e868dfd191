//! The entity side of commands (seed 003, REFERENCE §7): tasks never touch actors; they
//! submit commands, and the entity arbitrates. Movement locks are a set of source ids — the
//! entity is locked while the set is non-empty, and releasing one source leaves the others.

use std::collections::BTreeSet;

use crate::event::EventKind;

/// One actor's entity state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entity {
    movement_locks: BTreeSet<String>,
}

/// What the entity made of one lock command: the event (only when the set changes between
/// empty and non-empty) and a line for traces.
pub struct Arbitration {
    pub event: Option<EventKind>,
    pub result: String,
}

impl Entity {
    pub fn locked(&self) -> bool {
        !self.movement_locks.is_empty()
    }

    /// The sources holding the movement lock, sorted.
    pub fn lock_sources(&self) -> impl Iterator<Item = &str> {
        self.movement_locks.iter().map(String::as_str)
    }

    /// `source` acquires the movement lock.
    pub fn acquire(&mut self, source: &str) -> Arbitration {
        let was_locked = self.locked();
        let added = self.movement_locks.insert(source.to_string());
        let event = (!was_locked).then(|| EventKind::MovementLocked { source: source.into() });
        let result = match (added, was_locked) {
            (false, _) => format!("already held by {source}"),
            (true, false) => "locked".to_string(),
            (true, true) => format!("still locked, {} sources", self.movement_locks.len()),
        };
        Arbitration { event, result }
    }

    /// `source` releases the movement lock; the entity unlocks only when no source is left.
    pub fn release(&mut self, source: &str) -> Arbitration {
        let removed = self.movement_locks.remove(source);
        let event = (removed && !self.locked()).then(|| EventKind::MovementUnlocked { source: source.into() });
        let result = match (removed, self.locked()) {
            (false, _) => format!("{source} held no lock"),
            (true, false) => "unlocked".to_string(),
            (true, true) => format!("still locked by {}", self.lock_sources().collect::<Vec<_>>().join(", ")),
        };
        Arbitration { event, result }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sources_hold_one_lock() {
        let mut entity = Entity::default();
        assert!(entity.acquire("a").event.is_some());
        assert!(entity.acquire("b").event.is_none());
        let release_a = entity.release("a");
        assert!(release_a.event.is_none(), "b still holds the lock");
        assert_eq!(release_a.result, "still locked by b");
        assert!(entity.locked());
        assert_eq!(entity.release("b").event, Some(EventKind::MovementUnlocked { source: "b".into() }));
        assert!(!entity.locked());
        assert_eq!(entity.release("b").result, "b held no lock");
    }
}

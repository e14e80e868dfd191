//! Transitions and the per-layer generation arbiter (seed 002, REFERENCE §5).
//!
//! Visual fades and the right to commit a state are separate: every `begin` takes a new
//! generation and makes its token the only one that may commit; a completion commits only
//! if its token equals the pending one, otherwise it is rejected and counted (stale, or
//! duplicate after a commit). Each layer has its own arbiter, so layers never cancel each
//! other.

use crate::time::{FrameTime, Ticks};

/// Identifies one transition: its generation and the states it goes between.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub generation: u64,
    pub from: String,
    pub to: String,
}

/// What a completion did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// The token was pending: its target is now the committed state.
    Committed,
    /// Another transition took over (or the token was never issued here): rejected.
    Stale,
    /// The token already committed: rejected.
    Duplicate,
}

/// One layer's arbiter: the committed state, the pending token, the generation counter.
#[derive(Clone, Debug)]
pub struct Arbiter {
    generation: u64,
    current: String,
    pending: Option<Token>,
    committed: Vec<Token>,
    rejected: u64,
}

impl Arbiter {
    pub fn new(initial: &str) -> Self {
        Arbiter { generation: 0, current: initial.into(), pending: None, committed: Vec::new(), rejected: 0 }
    }

    /// The committed state.
    pub fn current(&self) -> &str {
        &self.current
    }

    pub fn pending(&self) -> Option<&Token> {
        self.pending.as_ref()
    }

    /// Stale and duplicate completions rejected so far.
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// `{generation = ++g, from = current, to = target}`; it replaces the pending token.
    pub fn begin(&mut self, target: &str) -> Token {
        self.generation += 1;
        let token = Token { generation: self.generation, from: self.current.clone(), to: target.into() };
        self.pending = Some(token.clone());
        token
    }

    /// Commits `token` if it is the pending one; otherwise rejects and counts it.
    pub fn complete(&mut self, token: &Token) -> Completion {
        if self.pending.as_ref() == Some(token) {
            self.current = token.to.clone();
            self.pending = None;
            self.committed.push(token.clone());
            return Completion::Committed;
        }
        self.rejected += 1;
        if self.committed.contains(token) { Completion::Duplicate } else { Completion::Stale }
    }
}

/// A fade in flight: the newest one sets the weights until the next begins, whether or not its
/// completion was delivered; every one reports completion once its α has reached 1 and `delay`
/// more frames have passed, whether or not its token was completed by hand before.
#[derive(Clone, Debug)]
pub struct Fade {
    pub token: Token,
    /// The frame it began on and its length (0 = a cut).
    pub began: FrameTime,
    pub duration: Ticks,
    /// Its time as of the latest frame, `now − began` from the frame indices
    /// ([`FrameTime::since`]): never summed frame by frame, so a fade of 0.5 s at 60 Hz is at
    /// α = 1 exactly 30 frames after it began (a sum of thirty `1/60` is 0.49999999999999989).
    pub elapsed: Ticks,
    /// Frames left before the completion callback once α = 1; `None` while fading.
    pub countdown: Option<u64>,
    /// Its completion callback was delivered: it reports nothing more.
    pub delivered: bool,
}

impl Fade {
    /// A fade of `duration` beginning at frame `began`.
    pub fn new(token: Token, began: FrameTime, duration: Ticks) -> Self {
        Fade { token, began, duration, elapsed: Ticks::ZERO, countdown: None, delivered: false }
    }

    /// Its time at frame `now` (a frame at or after the one it began on).
    pub fn reach(&mut self, now: FrameTime) {
        self.elapsed = now.since(self.began);
    }

    /// `α = elapsed / duration` in ticks, clamped to [0, 1] (linear; 1 for a cut).
    pub fn alpha(&self) -> f64 {
        if self.duration <= Ticks::ZERO {
            1.0
        } else {
            (self.elapsed.0 as f64 / self.duration.0 as f64).clamp(0.0, 1.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latest_transition_commits() {
        let mut arbiter = Arbiter::new("Idle");
        let run = arbiter.begin("Run");
        assert_eq!(arbiter.complete(&run), Completion::Committed);
        assert_eq!(arbiter.current(), "Run");
        assert_eq!(arbiter.rejected(), 0);
    }

    #[test]
    fn interrupted_completion_is_rejected() {
        let mut arbiter = Arbiter::new("Idle");
        let run = arbiter.begin("Run");
        let hit = arbiter.begin("Hit");
        assert_eq!(hit, Token { generation: 2, from: "Idle".into(), to: "Hit".into() });
        assert_eq!(arbiter.complete(&run), Completion::Stale);
        assert_eq!(arbiter.complete(&hit), Completion::Committed);
        assert_eq!(arbiter.current(), "Hit");
        assert_eq!(arbiter.rejected(), 1);
    }

    #[test]
    fn duplicate_completion_is_rejected() {
        let mut arbiter = Arbiter::new("Idle");
        let run = arbiter.begin("Run");
        assert_eq!(arbiter.complete(&run), Completion::Committed);
        assert_eq!(arbiter.complete(&run), Completion::Duplicate);
        assert_eq!(arbiter.rejected(), 1);
    }

    #[test]
    fn foreign_tokens_are_stale() {
        let mut arbiter = Arbiter::new("Idle");
        let foreign = Token { generation: 7, from: "A".into(), to: "B".into() };
        assert_eq!(arbiter.complete(&foreign), Completion::Stale);
        assert_eq!(arbiter.current(), "Idle");
    }
}

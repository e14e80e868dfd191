//! blendlab: an animation sandbox that shows the exact weights, local times and event order a
//! real engine (Unity Timeline / Playables / Animator, Godot AnimationTree) would produce.
//!
//! The core (`time`, `clock`, `config`, `compile`, `blend`, `graph`, `event`, `session`,
//! `reload`) is pure and deterministic; the front ends (`script`, `report`, `repl`, `watch`,
//! the binary) depend on it.
//! See ARCHITECTURE.md for the map.

pub mod bench;
pub mod blend;
pub mod clock;
pub mod compile;
pub mod config;
pub mod entity;
pub mod event;
pub mod graph;
pub mod input;
pub mod parts;
pub mod prefetch;
pub mod reload;
pub mod repl;
pub mod report;
pub mod script;
pub mod session;
pub mod time;
pub mod timeline;
pub mod transition;
pub mod watch;

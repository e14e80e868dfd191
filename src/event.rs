//! Everything observable is an [`Event`] appended to the session's log, in the order of
//! REFERENCE §1 (inputs, smoothing, actors in spawn order, commands). Printers, counters, Lua
//! listeners and assertions all read the log; nothing in the core prints.

use crate::time::Ticks;

/// A clip's, a timeline's or a marker's name in an event (and an actor's in the log): shared
/// with the library, so that logging one copies no text (a crowd logs three per hit). Not
/// atomic: a session and its log live on one thread.
pub type Name = std::rc::Rc<str>;

/// Every event kind name of the public contract (DESIGN.md), for validating filters.
pub const KIND_NAMES: &[&str] = &[
    "clip_enable",
    "clip_disable",
    "clip_begin",
    "clip_tick",
    "clip_finish",
    "clip_interrupt",
    "task_dispose",
    "signal",
    "command",
    "movement_locked",
    "movement_unlocked",
    "transition_begin",
    "transition_committed",
    "stale_completion_rejected",
    "duplicate_completion_rejected",
    "timeline_looped",
    "timeline_complete",
    "timeline_interrupted",
    "timeline_missing",
    "seek",
    "reload_applied",
    "reload_failed",
    "warning",
];

/// One field value of an event, for generic printing and conversion to Lua.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    Text(String),
    Int(i64),
    /// A number the session computed (a time): printed with fixed decimals.
    Number(f64),
    /// A number as a config gave it (a task's `fade`): printed as written, `0.1`, and a
    /// number to Lua and JSON, not the text a command once carried it as.
    Given(f64),
    /// Several texts (a reload's files): an array of strings in JSON; one text elsewhere
    /// ([`FieldValue::joined`]).
    List(Vec<String>),
    /// A table as a config gave it (an `Emit`'s payload), its TOML types kept: a table in
    /// Lua, an object in JSON, one line of TOML elsewhere ([`FieldValue::inline`]).
    Table(toml::Table),
}

impl FieldValue {
    /// A list as an event line, Lua and `bl.expect_event` read it: its items joined by commas
    /// (`a.toml,b.toml`).
    pub fn joined(items: &[String]) -> String {
        items.join(",")
    }

    /// A table as an event line and `bl.expect_event` show it: a TOML inline table on one
    /// line, keys in the table's (sorted) order and every string quoted and escaped, so
    /// that it reads back as the same table (`{ msg = "a,b=c", n = "3", power = 3 }`).
    pub fn inline(table: &toml::Table) -> String {
        let mut text = String::new();
        write_table(&mut text, table).expect("writing to a String cannot fail");
        text
    }
}

fn write_table(out: &mut String, table: &toml::Table) -> std::fmt::Result {
    use toml_writer::TomlWrite as _;
    out.open_inline_table()?;
    for (i, (key, value)) in table.iter().enumerate() {
        if i > 0 {
            out.val_sep()?;
        }
        out.space()?;
        out.key(key)?;
        out.space()?;
        out.keyval_sep()?;
        out.space()?;
        write_value(out, value)?;
    }
    if !table.is_empty() {
        out.space()?;
    }
    out.close_inline_table()
}

/// One value of a table as [`FieldValue::inline`] writes it: a string always in double
/// quotes on one line (TOML's own choice may take single quotes or several lines), a float
/// as messages show numbers ([`crate::config::number`]: `1e300`, not 301 digits) and still a
/// float (`3.0`, not the integer `3`).
fn write_value(out: &mut String, value: &toml::Value) -> std::fmt::Result {
    use std::fmt::Write as _;
    use toml_writer::TomlWrite as _;
    match value {
        toml::Value::String(text) => out.value(toml_writer::TomlStringBuilder::new(text).as_basic()),
        toml::Value::Array(items) => {
            out.open_array()?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.val_sep()?;
                    out.space()?;
                }
                write_value(out, item)?;
            }
            out.close_array()
        }
        toml::Value::Table(table) => write_table(out, table),
        toml::Value::Float(x) => {
            let text = crate::config::number(*x);
            let integral = x.is_finite() && !text.contains(['.', 'e']);
            write!(out, "{text}{}", if integral { ".0" } else { "" })
        }
        scalar => write!(out, "{scalar}"),
    }
}

/// What happened. The snake_case names returned by [`EventKind::name`] are a public contract.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// Task lifecycle of a timeline clip at the playback's local frame (REFERENCE §4).
    ClipBegin {
        clip: Name,
        local_frame: i64,
        task: TaskName,
    },
    /// Recorded only while tick tracing is on.
    ClipTick {
        clip: Name,
        local_frame: i64,
        task: TaskName,
    },
    ClipFinish {
        clip: Name,
        local_frame: i64,
        task: TaskName,
    },
    ClipInterrupt {
        clip: Name,
        local_frame: i64,
        task: TaskName,
    },
    /// A flow-scoped task released at the end of its playback.
    TaskDispose {
        clip: Name,
        local_frame: i64,
        task: TaskName,
    },
    /// A task submitted a semantic command (REFERENCE §7).
    Command(Box<Command>),
    /// The entity's movement-lock source set became non-empty / empty.
    MovementLocked {
        source: String,
    },
    MovementUnlocked {
        source: String,
    },
    /// A transition began on a layer; its token.
    TransitionBegin(Box<TransitionChange>),
    /// A completion carried the pending token: `to` is the layer's state now.
    TransitionCommitted(Box<TransitionChange>),
    /// A completion whose token is not the pending one; `rejected` counts the layer's rejections.
    StaleCompletionRejected {
        layer: Name,
        generation: u64,
        rejected: u64,
    },
    /// A completion of a token that already committed.
    DuplicateCompletionRejected {
        layer: Name,
        generation: u64,
        rejected: u64,
    },
    /// A timeline clip entered the active set (its interval contains the time).
    ClipEnable {
        clip: Name,
    },
    /// A timeline clip left the active set: weight 0, time frozen.
    ClipDisable {
        clip: Name,
    },
    /// A marker fired.
    Signal {
        name: Name,
        timeline: Name,
    },
    /// A looping playback wrapped; `count` loops have completed.
    TimelineLooped {
        timeline: Name,
        count: u64,
    },
    /// A playback with wrap `none` reached its duration.
    TimelineComplete {
        timeline: Name,
    },
    /// A playback was interrupted (or replaced).
    TimelineInterrupted {
        timeline: Name,
    },
    /// `play` named a timeline that does not exist.
    TimelineMissing {
        timeline: Name,
    },
    /// A playback jumped in time; `policy` says whether skipped markers fired.
    Seek {
        timeline: Name,
        from: Ticks,
        to: Ticks,
        policy: SeekPolicy,
    },
    /// A config reload succeeded; `generation` counts successful library builds.
    ReloadApplied {
        generation: u64,
        files: Vec<String>,
    },
    /// A config reload failed with `errors` errors; the last good library, generation
    /// `generation`, stays live (0: none has loaded yet). A failure takes no generation of
    /// its own: the next good reload's is `generation + 1`.
    ReloadFailed {
        generation: u64,
        errors: usize,
    },
    /// Something worth a look that did not stop the session.
    Warning {
        message: String,
    },
}

/// What a task submits to its actor's entity (REFERENCE §7): `kind` is the command's type,
/// `source` the task that submitted it. Boxed in its event: commands are few, and the
/// event stays within 64 bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    pub kind: String,
    pub source: String,
    pub args: Vec<(String, FieldValue)>,
}

/// A transition's token on a layer (REFERENCE §5): its generation, the state it leaves and
/// the state it goes to. Boxed in its events, as [`Command`].
#[derive(Clone, Debug, PartialEq)]
pub struct TransitionChange {
    pub layer: String,
    pub generation: u64,
    pub from: String,
    pub to: String,
    /// The fade's length in seconds as asked for: on `transition_begin` only.
    pub duration: Option<f64>,
}

/// The kind of task a task event concerns ([`crate::timeline::TaskKind`] without its
/// settings), in one byte, so that those events stay within an event's 64 bytes (see
/// [`Event`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TaskName {
    PlayAnimation,
    PlayAudio,
    ApplyHit,
    MovementLock,
    Emit,
}

impl TaskName {
    /// Its name in configs and events, by variant.
    pub const NAMES: [&str; 5] = ["PlayAnimation", "PlayAudio", "ApplyHit", "MovementLock", "Emit"];

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// How a seek treats the markers it jumps over (REFERENCE §3.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeekPolicy {
    /// Markers between the old and new time fire (Unity during playback).
    FireSkipped,
    /// Nothing fires; the next window starts at the new time.
    Suppress,
}

impl SeekPolicy {
    /// Every policy, and its name in scripts and events, by variant.
    const ALL: [SeekPolicy; 2] = [SeekPolicy::FireSkipped, SeekPolicy::Suppress];
    pub const NAMES: [&str; 2] = ["fire_skipped", "suppress"];

    pub fn parse(name: &str) -> Option<SeekPolicy> {
        Self::NAMES.iter().position(|n| *n == name).map(|i| Self::ALL[i])
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl EventKind {
    /// The event kind's contract name (`clip_begin`, `reload_applied`, …).
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::ClipBegin { .. } => "clip_begin",
            EventKind::ClipTick { .. } => "clip_tick",
            EventKind::ClipFinish { .. } => "clip_finish",
            EventKind::ClipInterrupt { .. } => "clip_interrupt",
            EventKind::TaskDispose { .. } => "task_dispose",
            EventKind::Command(_) => "command",
            EventKind::MovementLocked { .. } => "movement_locked",
            EventKind::MovementUnlocked { .. } => "movement_unlocked",
            EventKind::TransitionBegin(_) => "transition_begin",
            EventKind::TransitionCommitted(_) => "transition_committed",
            EventKind::StaleCompletionRejected { .. } => "stale_completion_rejected",
            EventKind::DuplicateCompletionRejected { .. } => "duplicate_completion_rejected",
            EventKind::ClipEnable { .. } => "clip_enable",
            EventKind::ClipDisable { .. } => "clip_disable",
            EventKind::Signal { .. } => "signal",
            EventKind::TimelineLooped { .. } => "timeline_looped",
            EventKind::TimelineComplete { .. } => "timeline_complete",
            EventKind::TimelineInterrupted { .. } => "timeline_interrupted",
            EventKind::TimelineMissing { .. } => "timeline_missing",
            EventKind::Seek { .. } => "seek",
            EventKind::ReloadApplied { .. } => "reload_applied",
            EventKind::ReloadFailed { .. } => "reload_failed",
            EventKind::Warning { .. } => "warning",
        }
    }

    /// The kind-specific fields, in a fixed order.
    pub fn fields(&self) -> Vec<(&'static str, FieldValue)> {
        use FieldValue::*;
        let text = |s: &str| Text(s.to_string());
        match self {
            EventKind::ClipBegin { clip, local_frame, task }
            | EventKind::ClipTick { clip, local_frame, task }
            | EventKind::ClipFinish { clip, local_frame, task }
            | EventKind::ClipInterrupt { clip, local_frame, task }
            | EventKind::TaskDispose { clip, local_frame, task } => {
                vec![("clip", text(clip)), ("local_frame", Int(*local_frame)), ("task", text(task.as_str()))]
            }
            EventKind::Command(command) => {
                let Command { kind, source, args } = &**command;
                let mut fields = vec![("type", text(kind)), ("source", text(source))];
                fields.extend(args.iter().map(|(k, v)| (arg_key(k), v.clone())));
                fields
            }
            EventKind::MovementLocked { source } | EventKind::MovementUnlocked { source } => {
                vec![("source", text(source))]
            }
            EventKind::TransitionBegin(change) | EventKind::TransitionCommitted(change) => {
                let mut fields = vec![
                    ("layer", text(&change.layer)),
                    ("generation", Int(change.generation as i64)),
                    ("from", text(&change.from)),
                    ("to", text(&change.to)),
                ];
                fields.extend(change.duration.map(|d| ("duration", Given(d))));
                fields
            }
            EventKind::StaleCompletionRejected { layer, generation, rejected }
            | EventKind::DuplicateCompletionRejected { layer, generation, rejected } => vec![
                ("layer", text(layer)),
                ("generation", Int(*generation as i64)),
                ("rejected", Int(*rejected as i64)),
            ],
            EventKind::ClipEnable { clip } | EventKind::ClipDisable { clip } => vec![("clip", text(clip))],
            EventKind::Signal { name, timeline } => vec![("name", text(name)), ("timeline", text(timeline))],
            EventKind::TimelineLooped { timeline, count } => {
                vec![("timeline", text(timeline)), ("count", Int(*count as i64))]
            }
            EventKind::TimelineComplete { timeline }
            | EventKind::TimelineInterrupted { timeline }
            | EventKind::TimelineMissing { timeline } => vec![("timeline", text(timeline))],
            EventKind::Seek { timeline, from, to, policy } => vec![
                ("timeline", text(timeline)),
                ("from", Number(from.secs())),
                ("to", Number(to.secs())),
                ("policy", text(policy.name())),
            ],
            EventKind::ReloadApplied { generation, files } => {
                vec![("generation", Int(*generation as i64)), ("files", List(files.clone()))]
            }
            EventKind::ReloadFailed { generation, errors } => {
                vec![("generation", Int(*generation as i64)), ("errors", Int(*errors as i64))]
            }
            EventKind::Warning { message } => vec![("message", Text(message.clone()))],
        }
    }
}

/// The fields events of kind `kind` (a contract name) can have: [`EventKind::fields`]'
/// keys, for checking what a script asks of an event.
pub fn field_names(kind: &str) -> &'static [&'static str] {
    match kind {
        "clip_begin" | "clip_tick" | "clip_finish" | "clip_interrupt" | "task_dispose" => {
            &["clip", "local_frame", "task"]
        }
        "command" => &["type", "source", "animation", "audio", "hit_profile", "name", "fade", "payload", "arg"],
        "movement_locked" | "movement_unlocked" => &["source"],
        "transition_begin" => &["layer", "generation", "from", "to", "duration"],
        "transition_committed" => &["layer", "generation", "from", "to"],
        "stale_completion_rejected" | "duplicate_completion_rejected" => &["layer", "generation", "rejected"],
        "clip_enable" | "clip_disable" => &["clip"],
        "signal" => &["name", "timeline"],
        "timeline_looped" => &["timeline", "count"],
        "timeline_complete" | "timeline_interrupted" | "timeline_missing" => &["timeline"],
        "seek" => &["timeline", "from", "to", "policy"],
        "reload_applied" => &["generation", "files"],
        "reload_failed" => &["generation", "errors"],
        "warning" => &["message"],
        _ => &[],
    }
}

/// Command argument names are a small fixed set (task parameters); anything else is `arg`.
fn arg_key(key: &str) -> &'static str {
    const KEYS: &[&str] = &["animation", "audio", "hit_profile", "name", "fade", "payload"];
    KEYS.iter().find(|k| **k == key).copied().unwrap_or("arg")
}

/// An event with where and when it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The logic frame during which it happened.
    pub frame: i64,
    /// That frame's time.
    pub time: Ticks,
    /// The actor it concerns, if any ([`Event::actor`]).
    actor: Option<ActorRef>,
    pub kind: EventKind,
}

impl Event {
    pub fn new(frame: i64, time: Ticks, actor: Option<usize>, kind: EventKind) -> Event {
        Event { frame, time, actor: actor.map(ActorRef::new), kind }
    }

    /// The actor it concerns, if any, by its id in the session: its name is the log's
    /// ([`EventLog::actor_name`]), so that logging an event reads nothing of the actor.
    /// (Cloning the actor's shared name for each event read its count from memory at 10 000
    /// actors, three times per hit: about 1 ns per character-frame of the crowd's ~60.)
    pub fn actor(&self) -> Option<usize> {
        self.actor.map(ActorRef::id)
    }
}

// The layout the log is sized for (see [`ActorRef`]); a new event kind with more to say boxes it.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Event>() == 64);

/// An actor id as an event keeps it: `id + 1`, never 0, so that an event without an actor
/// costs no flag and an event is 64 bytes, one cache line: frame, time, actor and a kind of
/// 40 bytes (variants with more to say box it). A big crowd logs three events per hit, and
/// every new block of the log is fresh memory the system must first clear (at 120 bytes an
/// event, 1–5% of a crowd run on this machine: `perf`'s `clear_page_erms`).
#[derive(Copy, Clone, PartialEq, Eq)]
struct ActorRef(std::num::NonZeroUsize);

impl ActorRef {
    /// Ids index the session's actor list, so `id + 1` never reaches `usize::MAX`.
    fn new(id: usize) -> ActorRef {
        ActorRef(std::num::NonZeroUsize::MIN.saturating_add(id))
    }

    fn id(self) -> usize {
        self.0.get() - 1
    }
}

impl std::fmt::Debug for ActorRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.id().fmt(f)
    }
}

/// The session's log: events in the order they happened, kept in blocks of [`EventLog::BLOCK`]
/// events. A block is allocated full size and never grows, so logging never moves what is
/// logged already: a long session or a big crowd pays no copy of its whole history when the
/// log outgrows its memory, as a single vector does at each doubling (measured on `blendlab
/// bench crowd --runs 7`, seven pairs: the median ratio to the floor 5.99 → 5.85).
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    blocks: Vec<Vec<Event>>,
    /// Each actor's name, by id.
    actor_names: Vec<Name>,
}

impl EventLog {
    /// Names the next actor: ids are given in spawn order from 0, as the session gives them.
    pub fn add_actor(&mut self, name: Name) -> usize {
        self.actor_names.push(name);
        self.actor_names.len() - 1
    }

    /// The name of the actor `event` concerns, if any.
    pub fn actor_name(&self, event: &Event) -> Option<&str> {
        event.actor().map(|id| &*self.actor_names[id])
    }

    /// Events per block (a block of 64-byte events is 256 KiB).
    pub const BLOCK: usize = 4096;

    pub fn push(&mut self, event: Event) {
        match self.blocks.last_mut() {
            Some(block) if block.len() < Self::BLOCK => block.push(event),
            _ => {
                let mut block = Vec::with_capacity(Self::BLOCK);
                block.push(event);
                self.blocks.push(block);
            }
        }
    }

    /// Every block but the last is full.
    pub fn len(&self) -> usize {
        self.blocks.last().map_or(0, |last| (self.blocks.len() - 1) * Self::BLOCK + last.len())
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Event `index` (0 = the first logged).
    pub fn get(&self, index: usize) -> Option<&Event> {
        self.blocks.get(index / Self::BLOCK)?.get(index % Self::BLOCK)
    }

    /// Every event, oldest first.
    pub fn iter(&self) -> Events<'_> {
        self.blocks.iter().flatten()
    }
}

impl Extend<Event> for EventLog {
    fn extend<I: IntoIterator<Item = Event>>(&mut self, events: I) {
        events.into_iter().for_each(|event| self.push(event));
    }
}

/// The events of an [`EventLog`], oldest first.
pub type Events<'a> = std::iter::Flatten<std::slice::Iter<'a, Vec<Event>>>;

impl<'a> IntoIterator for &'a EventLog {
    type Item = &'a Event;
    type IntoIter = Events<'a>;

    fn into_iter(self) -> Events<'a> {
        self.iter()
    }
}

/// Which events to select: by kind name and/or actor id.
#[derive(Clone, Debug, Default)]
pub struct EventFilter {
    pub kind: Option<String>,
    pub actor: Option<usize>,
}

impl EventFilter {
    pub fn matches(&self, event: &Event) -> bool {
        self.kind.as_deref().is_none_or(|k| k == event.kind.name())
            && self.actor.is_none_or(|a| event.actor() == Some(a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(n: usize) -> Event {
        Event::new(n as i64, Ticks(0), None, EventKind::Warning { message: n.to_string() })
    }

    /// A task event names its task as the config does, whatever the order of the variants.
    #[test]
    fn task_names_are_the_config_names() {
        use TaskName::*;
        let named = [PlayAnimation, PlayAudio, ApplyHit, MovementLock, Emit].map(|t| (t, t.as_str()));
        let expected = [
            (PlayAnimation, "PlayAnimation"),
            (PlayAudio, "PlayAudio"),
            (ApplyHit, "ApplyHit"),
            (MovementLock, "MovementLock"),
            (Emit, "Emit"),
        ];
        assert_eq!(named, expected);
    }

    /// A table's one line reads back as TOML to the same table, whatever its strings hold.
    #[test]
    fn an_inline_table_reads_back_as_the_table() {
        let text = r#"p = { msg = "a,b=c", n = "3", lines = "one\ntwo", quoted = 'say "hi" \ ok', "odd key" = 1.0,
            list = [1, [2.5, true]], at = 1979-05-27T07:32:00Z, inner = {}, del = "\u007f" }"#;
        let table: toml::Table = text.parse().unwrap();
        let inline = FieldValue::inline(table["p"].as_table().unwrap());
        assert!(!inline.contains('\n'), "one line: {inline}");
        assert_eq!(format!("p = {inline}").parse::<toml::Table>().unwrap(), table, "{inline}");
        assert_eq!(FieldValue::inline(&toml::Table::new()), "{}");
        let flat: toml::Table = "power = 3\nmsg = \"a,b=c\"".parse().unwrap();
        assert_eq!(FieldValue::inline(&flat), r#"{ msg = "a,b=c", power = 3 }"#);
        // Floats as messages show numbers, still floats: never hundreds of digits.
        let floats: toml::Table =
            "p = { a = 1e300, b = 3.0, c = 0.1, d = -0.0, e = 1e-7, f = 123456.5 }".parse().unwrap();
        let inline = FieldValue::inline(floats["p"].as_table().unwrap());
        assert_eq!(inline, "{ a = 1e300, b = 3.0, c = 0.1, d = -0.0, e = 1e-7, f = 123456.5 }");
        assert_eq!(format!("p = {inline}").parse::<toml::Table>().unwrap(), floats, "{inline}");
    }

    /// Each seek policy reads back from its name, which is the one scripts pass.
    #[test]
    fn seek_policies_read_back_from_their_names() {
        use SeekPolicy::*;
        let named = [FireSkipped, Suppress].map(|p| (p.name(), SeekPolicy::parse(p.name())));
        assert_eq!(named, [("fire_skipped", Some(FireSkipped)), ("suppress", Some(Suppress))]);
        assert_eq!(SeekPolicy::parse("fire"), None);
    }

    /// Around and across block boundaries the log reads exactly as one vector of the same
    /// events: length, indexing, order both ways.
    #[test]
    fn the_log_reads_as_one_vector() {
        for count in [0, 1, EventLog::BLOCK - 1, EventLog::BLOCK, EventLog::BLOCK + 1, 2 * EventLog::BLOCK + 3] {
            let all: Vec<Event> = (0..count).map(warning).collect();
            let mut log = EventLog::default();
            log.extend(all.iter().take(count / 2).cloned());
            for event in &all[count / 2..] {
                log.push(event.clone());
            }
            assert_eq!((log.len(), log.is_empty()), (count, count == 0));
            assert!(log.iter().eq(&all), "{count} events in order");
            assert!(log.iter().rev().eq(all.iter().rev()), "{count} events backwards");
            for i in [0, count / 2, count.saturating_sub(1), count] {
                assert_eq!(log.get(i), all.get(i), "event {i} of {count}");
            }
        }
    }
}

//! Task lifecycles of one playback (seed 003, REFERENCE §4): logic frames at the timeline's
//! frame rate, run one by one with catch-up; per frame and clip (track order, clip order):
//! Begin when a not-yet-begun clip's `[start_frame, end_frame]` contains the frame, Tick
//! while begun and inside, Finish at `end_frame`. Tasks only submit commands (§7).

use std::collections::BTreeMap;

use super::{TaskKind, Timeline};
use crate::config::timeline::WrapMode;
use crate::event::{Command, EventKind, FieldValue, Name, TaskName};
use crate::time::Ticks;

/// Where [`Lifecycle::advance`] stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Advanced {
    /// At the frame of the time it was given, the playback going on.
    Running,
    /// At its lifetime: the playback completes.
    Done,
    /// At the end of a pass, which pass `next` follows (see [`Lifecycle::begin_pass`]).
    PassEnds(i64),
}

/// A lifecycle step of a task.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Phase {
    Begin,
    Finish,
    Interrupt,
}

/// The per-playback task state.
#[derive(Clone, Debug, Default)]
pub struct Lifecycle {
    /// The last local frame processed (−1, or `from_frame − 1`, before the first): a frame of
    /// the timeline's time in pass `pass`.
    frame: i64,
    /// The pass of a looping timeline that frame is in (see [`Timeline::pass_at`]); 0 else.
    pass: i64,
    begun: Vec<bool>,
    finished: Vec<bool>,
    /// Flow-scoped tasks that began and are not disposed yet, in the order they began.
    flow: Vec<FlowTask>,
    /// `timeline#serial`: prefix of every task's source id.
    source: String,
}

/// A flow-scoped task that began: its clip, its task's kind then (what its Dispose reports,
/// whatever a reload made of the clip since) and the clock frame its Begin was logged in.
#[derive(Copy, Clone, Debug)]
struct FlowTask {
    clip: usize,
    task: TaskName,
    began: i64,
}

/// The Dispose of a flow-scoped task at the end of a playback, ordered by when its Begin was
/// logged: the clock frame, then the path of clip indices from the playback down to the
/// timeline it plays nested that ran the task (each frame a playback runs its own tasks before
/// those of the timelines its clips play nested, clip by clip: `[]` < `[1]` < `[1, 0]` <
/// `[2]`), then its place among that lifecycle's flow tasks. A playback's Disposes come in
/// reverse of this order (REFERENCE §4: reverse order of creation).
#[derive(Debug)]
pub struct Disposal {
    key: (i64, Vec<usize>, usize),
    event: EventKind,
}

impl Disposal {
    /// The Dispose events of `disposals`, in reverse order of Begin.
    pub fn in_reverse_order_of_begin(mut disposals: Vec<Disposal>) -> impl Iterator<Item = EventKind> {
        disposals.sort_unstable_by(|a, b| a.key.cmp(&b.key));
        disposals.into_iter().rev().map(|d| d.event)
    }
}

impl Lifecycle {
    /// A lifecycle that will next run the frame containing timeline time `start`, naming its
    /// tasks' sources `source` (`timeline#serial`).
    pub fn new(def: &Timeline, start: Ticks, source: std::fmt::Arguments) -> Self {
        let mut lifecycle = Lifecycle::default();
        lifecycle.restart(def, start, source);
        lifecycle
    }

    /// Starts over as [`Lifecycle::new`] would, in the memory it has (a replayed hit
    /// allocates nothing).
    pub fn restart(&mut self, def: &Timeline, start: Ticks, source: std::fmt::Arguments) {
        use std::fmt::Write;
        (self.pass, self.frame) = match def.frame_rate {
            Some(rate) => {
                let (pass, frame) = local_frame_at(def, rate, start);
                let before = frame.max(first_frame_of_pass(def, rate, pass)) - 1;
                // Started past its last frame, it has no frame left to run: it stands at its
                // end, as a lifecycle that ran to it.
                (pass, last_frame(def, rate).map_or(before, |last| before.min(last)))
            }
            None => (0, -1),
        };
        for flags in [&mut self.begun, &mut self.finished] {
            flags.clear();
            flags.resize(def.clips.len(), false);
        }
        self.flow.clear();
        self.source.clear();
        if def.names_task_sources() {
            let _ = self.source.write_fmt(source);
        }
    }

    /// This lifecycle moved onto `def`, a reload's version of `old_def` (REFERENCE §4: a reload
    /// replays nothing), for a playback that started at raw time `start` and whose latest
    /// frame was at raw time `last` (`None` before its first). Its frame and pass stay while
    /// the frame rate does; with a new rate (or when it never followed frames: `old_def` had
    /// no task clips) it is at the frame of `last` at the new rate (before the first frame,
    /// at the one `start` gives, as a new playback), so the time it has reached stays and
    /// nothing before it replays. Its source prefix is `source` as
    /// [`Lifecycle::restart`] names it. Each task clip of `def` takes over the state of the
    /// task clip of `old_def` with its name (begun, finished, its place among the flow-scoped
    /// tasks); one that is new is pending, and begins at the next frame its range contains
    /// (late, as with `from_frame`). A running task whose `end_frame` is now the current
    /// frame gets Finish at the reload (with its command as `old_def` made it). One that can
    /// no longer finish — its clip is gone, renamed, has no task now or a task of another
    /// type (a lock that became an `Emit` would never be released), or now ends before the
    /// current frame — gets Interrupt at the reload (clip order, with its command as `old_def` made it, so a lock
    /// is released; if its clip's range is over by then, the clip is done, else its task begins
    /// late), then every flow-scoped task that began and was not taken over gets
    /// Dispose (reverse order of Begin), as at the end of a playback. These events carry the
    /// frame the lifecycle is at after the reload.
    pub fn carry_over(
        &self,
        (old_def, def): (&Timeline, &Timeline),
        (start, last): (Ticks, Option<Ticks>),
        source: std::fmt::Arguments,
        events: &mut Vec<EventKind>,
    ) -> Lifecycle {
        let mut new = Lifecycle::default();
        new.restart(def, start, source);
        if old_def.lifetime.is_some() && old_def.frame_rate == def.frame_rate {
            (new.pass, new.frame) = (self.pass, self.frame);
        } else if let (Some(raw), Some(rate)) = (last, def.frame_rate) {
            (new.pass, new.frame) = local_frame_at(def, rate, raw);
        }
        let task_clips: BTreeMap<&str, usize> =
            def.clips.iter().enumerate().filter(|(_, c)| c.task.is_some()).map(|(n, c)| (c.name.as_ref(), n)).collect();
        let mut carried: Vec<Option<usize>> = vec![None; old_def.clips.len()];
        for (o, clip) in old_def.clips.iter().enumerate() {
            let Some(task) = &clip.task else { continue };
            let n = task_clips.get(clip.name.as_ref()).copied();
            let running = self.begun[o] && !self.finished[o];
            // Frames up to `new.frame` have run. A running task goes on to a later `end_frame`;
            // one whose `end_frame` is now that frame gets its Finish at the reload (REFERENCE
            // §4: the end frame is where it finishes), but only as the task that began (its
            // Finish must undo what its Begin did); any other is interrupted.
            let end = n
                .filter(|&n| def.clips[n].task.as_ref().is_some_and(|t| t.kind.task_name() == task.kind.task_name()))
                .and_then(|n| def.clips[n].frames)
                .map(|(_, end)| end);
            let (goes_on, finishes_now) = (end > Some(new.frame), running && end == Some(new.frame));
            let (clip_name, local_frame, task) = (clip.name.clone(), new.frame, task.kind.task_name());
            if finishes_now {
                events.push(EventKind::ClipFinish { clip: clip_name, local_frame, task });
                events.extend(self.command(old_def, o, Phase::Finish));
            } else if running && !goes_on {
                events.push(EventKind::ClipInterrupt { clip: clip_name, local_frame, task });
                events.extend(self.command(old_def, o, Phase::Interrupt));
            }
            if let Some(n) = n.filter(|_| !running || goes_on || finishes_now) {
                (new.begun[n], new.finished[n]) = (self.begun[o], self.finished[o] || finishes_now);
                carried[o] = Some(n);
            } else if let Some(n) = n.filter(|&n| def.clips[n].frames.is_some_and(|(_, end)| end <= new.frame)) {
                // Interrupted, and its range is over: it is done (it would never begin again,
                // and a trace would show it pending for ever).
                (new.begun[n], new.finished[n]) = (true, true);
            }
        }
        for flow in self.flow.iter().rev().filter(|f| carried[f.clip].is_none()) {
            events.push(new.dispose(old_def, flow));
        }
        new.flow = self.flow.iter().filter_map(|&f| Some(FlowTask { clip: carried[f.clip]?, ..f })).collect();
        new
    }

    /// `timeline#serial`, the prefix of every task's source id (empty for a timeline whose
    /// source ids nothing reads: [`Timeline::names_task_sources`]).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The last local frame processed.
    pub fn frame(&self) -> i64 {
        self.frame
    }

    /// Each task clip's state: `running`, `done` (finished or interrupted), `pending`, or
    /// `skipped` when it never began and will not (in this pass): its playback `ended`, or
    /// its frames are behind the lifecycle (started or reloaded past them).
    pub fn clip_state(&self, def: &Timeline, clip: usize, ended: bool) -> &'static str {
        match (self.begun[clip], self.finished[clip]) {
            (false, _) if ended || def.clips[clip].frames.is_some_and(|(_, end)| end <= self.frame) => "skipped",
            (false, _) => "pending",
            (true, false) => "running",
            (true, true) => "done",
        }
    }

    /// Runs every local frame whose time is ≤ raw timeline time `raw`, in order, in clock frame
    /// `clock_frame` (what orders the Disposes of flow tasks: [`Disposal`]). Returns
    /// [`Advanced::Done`] when a non-looping lifecycle has processed `lifetime` (the playback
    /// completes). A looping one follows the timeline's passes ([`Timeline::pass_at`]): a pass
    /// runs the frames of its times (`[0, D)`, then `[L, D)`), and where the time wraps it
    /// stops with [`Advanced::PassEnds`]: the caller ends the pass's tasks (with its nested
    /// timelines'), starts the next pass ([`Lifecycle::begin_pass`]) and advances again.
    pub fn advance(&mut self, def: &Timeline, raw: Ticks, clock_frame: i64, events: &mut Vec<EventKind>) -> Advanced {
        let (Some(rate), Some(lifetime)) = (def.frame_rate, def.lifetime) else { return Advanced::Running };
        if def.wrap != WrapMode::Loop && self.frame >= lifetime {
            // Past its lifetime already (started there, or a reload moved it there).
            return Advanced::Done;
        }
        let mut target = local_frame_at(def, rate, raw);
        if let Some(last) = last_frame(def, rate) {
            target.1 = target.1.min(last);
        }
        loop {
            if self.pass < target.0 && self.frame >= last_frame_of_pass(def, rate) {
                return Advanced::PassEnds(self.pass + 1);
            }
            if (self.pass, self.frame + 1) > target {
                return Advanced::Running;
            }
            self.frame += 1;
            self.run_frame(def, self.frame, clock_frame, events);
            if def.wrap != WrapMode::Loop && self.frame >= lifetime {
                return Advanced::Done;
            }
        }
    }

    /// After the end of a pass of a looping timeline (its tasks ended: [`Lifecycle::end`],
    /// with its nested timelines'), pass `next` begins, every clip pending (the passes
    /// between, if any, are folded: none of their frames run).
    pub fn begin_pass(&mut self, def: &Timeline, next: i64) {
        let Some(rate) = def.frame_rate else { return };
        self.begun.fill(false);
        self.finished.fill(false);
        self.pass = next;
        self.frame = first_frame_of_pass(def, rate, next) - 1;
    }

    fn run_frame(&mut self, def: &Timeline, frame: i64, clock_frame: i64, events: &mut Vec<EventKind>) {
        for (c, clip) in def.clips.iter().enumerate() {
            let (Some(task), Some((start, end))) = (&clip.task, clip.frames) else { continue };
            let inside = start <= frame && frame <= end;
            let event =
                |make: fn(Name, i64, TaskName) -> EventKind| make(clip.name.clone(), frame, task.kind.task_name());
            if !self.begun[c] && inside {
                self.begun[c] = true;
                if task.flow {
                    self.flow.push(FlowTask { clip: c, task: task.kind.task_name(), began: clock_frame });
                }
                events.push(event(|clip, local_frame, task| EventKind::ClipBegin { clip, local_frame, task }));
                events.extend(self.command(def, c, Phase::Begin));
            }
            if self.begun[c] && !self.finished[c] && inside {
                events.push(event(|clip, local_frame, task| EventKind::ClipTick { clip, local_frame, task }));
            }
            if frame == end && self.begun[c] && !self.finished[c] {
                self.finished[c] = true;
                events.push(event(|clip, local_frame, task| EventKind::ClipFinish { clip, local_frame, task }));
                events.extend(self.command(def, c, Phase::Finish));
            }
        }
    }

    /// The end of this lifecycle alone (the timelines its playback plays nested are
    /// [`Playback`](super::Playback)'s to end with it): when `interrupted`, every begun,
    /// unfinished clip gets Interrupt (clip order) and is marked finished; then flow-scoped
    /// tasks that began get Dispose, in reverse order of Begin. A second call does nothing.
    pub fn end(&mut self, def: &Timeline, interrupted: bool, events: &mut Vec<EventKind>) {
        if def.lifetime.is_none() && self.flow.is_empty() {
            // A timeline without task clips (every task clip has frames, so a lifetime) has
            // nothing to interrupt, and nothing began that is left to dispose.
            return;
        }
        if interrupted {
            for c in 0..def.clips.len() {
                self.interrupt(def, c, events);
            }
        }
        for flow in std::mem::take(&mut self.flow).iter().rev() {
            events.push(self.dispose(def, flow));
        }
    }

    /// Clip `c`'s task, if it has begun and not finished, gets Interrupt and is marked
    /// finished.
    pub fn interrupt(&mut self, def: &Timeline, c: usize, events: &mut Vec<EventKind>) {
        let Some(task) = &def.clips[c].task else { return };
        if self.begun[c] && !self.finished[c] {
            self.finished[c] = true;
            let (clip, local_frame, task) = (def.clips[c].name.clone(), self.frame, task.kind.task_name());
            events.push(EventKind::ClipInterrupt { clip, local_frame, task });
            events.extend(self.command(def, c, Phase::Interrupt));
        }
    }

    /// Hands the Dispose of every flow-scoped task that began to `out`, this lifecycle being
    /// at `path` below the playback that ends ([`Disposal`]); none is left to dispose.
    pub fn dispose_into(&mut self, def: &Timeline, path: &[usize], out: &mut Vec<Disposal>) {
        for (place, flow) in std::mem::take(&mut self.flow).iter().enumerate() {
            out.push(Disposal { key: (flow.began, path.to_vec(), place), event: self.dispose(def, flow) });
        }
    }

    /// The Dispose of `flow`, at the frame this lifecycle is at.
    fn dispose(&self, def: &Timeline, flow: &FlowTask) -> EventKind {
        EventKind::TaskDispose { clip: def.clips[flow.clip].name.clone(), local_frame: self.frame, task: flow.task }
    }

    /// The command a task submits at `phase`, if any.
    fn command(&self, def: &Timeline, clip: usize, phase: Phase) -> Option<EventKind> {
        let task = def.clips[clip].task.as_ref()?;
        let arg = |key: &str, value: &str| (key.to_string(), FieldValue::Text(value.to_string()));
        let (kind, args) = match (&task.kind, phase) {
            (TaskKind::PlayAnimation { animation, fade }, Phase::Begin) => {
                ("PlayAnimation", vec![arg("animation", animation), ("fade".to_string(), FieldValue::Given(*fade))])
            }
            (TaskKind::PlayAudio { audio }, Phase::Begin) => ("PlayAudio", vec![arg("audio", audio)]),
            (TaskKind::ApplyHit { hit_profile }, Phase::Begin) => ("ApplyHit", vec![arg("hit_profile", hit_profile)]),
            (TaskKind::MovementLock, Phase::Begin) => ("AcquireMovementLock", Vec::new()),
            (TaskKind::MovementLock, Phase::Finish | Phase::Interrupt) => ("ReleaseMovementLock", Vec::new()),
            (TaskKind::Emit { name, payload }, Phase::Begin) => {
                let mut args = vec![arg("name", name)];
                args.extend(payload.iter().map(|p| ("payload".to_string(), FieldValue::Table(p.clone()))));
                ("Emit", args)
            }
            _ => return None,
        };
        let source = format!("{}/{}", self.source, def.clips[clip].name);
        Some(EventKind::Command(Box::new(Command { kind: kind.into(), source, args })))
    }
}

/// The pass and local frame of raw playback time `raw`: the last frame at or before its time
/// in the pass ([`Timeline::pass_at`]; an unclamped time for a timeline that does not loop,
/// whose frames run on past `D` to its lifetime).
fn local_frame_at(def: &Timeline, rate: u32, raw: Ticks) -> (i64, i64) {
    if def.wrap != WrapMode::Loop {
        return (0, raw.last_frame_at(rate));
    }
    let (pass, t) = def.pass_at(raw);
    (pass, t.last_frame_at(rate))
}

/// The last local frame a timeline that does not loop runs: its lifetime, or, with `wrap =
/// "none"`, the frame at its end `D` if that comes first (a `fixed` duration shorter than a
/// task clip: the playback completes there, and a task still running gets Interrupt).
/// `None` for a looping timeline, whose passes end where its time wraps.
fn last_frame(def: &Timeline, rate: u32) -> Option<i64> {
    let lifetime = def.lifetime.filter(|_| def.wrap != WrapMode::Loop)?;
    Some(if def.wrap == WrapMode::None { lifetime.min(def.duration.last_frame_at(rate)) } else { lifetime })
}

/// The first local frame of pass `pass`: the first at or after the time the pass begins.
fn first_frame_of_pass(def: &Timeline, rate: u32, pass: i64) -> i64 {
    let start = def.pass_start(pass);
    let frame = start.last_frame_at(rate);
    if Ticks::of_frame(frame, rate) < start { frame + 1 } else { frame }
}

/// The last local frame of a pass of a looping timeline: the last before `D`.
fn last_frame_of_pass(def: &Timeline, rate: u32) -> i64 {
    (def.duration - Ticks(1)).last_frame_at(rate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{Snapshot, compile};
    use crate::config::SourceFile;

    /// The snapshot of one config file's `text`, which must compile.
    fn library_of(text: String) -> Snapshot {
        let compiled = compile(&[SourceFile { path: "l.toml".into(), text }]);
        compiled.snapshot.unwrap_or_else(|| panic!("{:?}", compiled.diagnostics))
    }

    /// Timeline `skill` at `rate` Hz whose track `control` holds the one clip `clip` (TOML
    /// inline-table fields; the clip `a` of 5 s is there to play).
    fn skill(rate: u32, clip: &str) -> Timeline {
        let snapshot = library_of(format!(
            "[clips]\na = {{ length = 5.0 }}\n[timelines.skill]\nframe_rate = {rate}\n\
             [[timelines.skill.tracks]]\nname = \"control\"\nclips = [{{ {clip} }}]\n"
        ));
        snapshot.timelines[snapshot.timeline_id("skill").unwrap()].clone()
    }

    /// A reload that moves a running task's `end_frame` before the current frame interrupts it
    /// (that frame will not run again to finish it), and the task is done; one that moves it
    /// to the current frame (the last that ran) finishes it there, its lock released; one
    /// that moves it later keeps it running.
    #[test]
    fn a_reload_ends_a_running_task_whose_end_frame_has_run() {
        let lock = |end: i64| {
            skill(
                10,
                &format!(r#"name = "lock", start_frame = 0, end_frame = {end}, task = {{ type = "MovementLock" }}"#),
            )
        };
        let began = lock(8);
        let mut lifecycle = Lifecycle::new(&began, Ticks::ZERO, format_args!("skill#1"));
        lifecycle.advance(&began, Ticks::from_secs(0.4).unwrap(), 0, &mut Vec::new());
        for (end, ended, state) in
            [(3, Some("ClipInterrupt"), "done"), (4, Some("ClipFinish"), "done"), (5, None, "running")]
        {
            let mut events = Vec::new();
            let later = Some(Ticks::from_secs(0.4).unwrap());
            let carried =
                lifecycle.carry_over((&began, &lock(end)), (Ticks::ZERO, later), format_args!("skill#1"), &mut events);
            let kinds: Vec<String> = events.iter().map(|e| format!("{e:?}")).collect();
            match ended {
                Some(kind) => {
                    assert!(kinds[0].starts_with(&format!("{kind} {{ clip: \"lock\", local_frame: 4")), "{kinds:?}");
                    assert!(kinds[1].contains("ReleaseMovementLock") && kinds.len() == 2, "{kinds:?}");
                }
                None => assert!(kinds.is_empty(), "{kinds:?}"),
            }
            assert_eq!((carried.frame(), carried.clip_state(&lock(end), 0, false)), (4, state));
        }
    }

    /// A reload that gives a playing timeline its first task clips starts their lifecycle at
    /// the frame the playback is at: a clip whose range holds the next frame begins late
    /// there, and nothing before it is replayed.
    #[test]
    fn first_task_clips_begin_at_the_next_frame_not_from_the_start() {
        let clip =
            |task: &str| skill(10, &format!(r#"name = "x", start_frame = 0, end_frame = 20, motion = "a"{task}"#));
        let (old_def, def) = (clip(""), clip(r#", task = { type = "MovementLock" }"#));
        let mut lifecycle = Lifecycle::new(&old_def, Ticks::ZERO, format_args!("skill#1"));
        assert_eq!(lifecycle.advance(&old_def, Ticks::from_secs(0.4).unwrap(), 0, &mut Vec::new()), Advanced::Running);
        let last = Some(Ticks::from_secs(0.4).unwrap());
        let mut carried =
            lifecycle.carry_over((&old_def, &def), (Ticks::ZERO, last), format_args!("skill#1"), &mut Vec::new());
        assert_eq!(carried.frame(), 4);
        let mut events = Vec::new();
        carried.advance(&def, Ticks::from_secs(0.5).unwrap(), 0, &mut events);
        let begun: Vec<i64> = events
            .iter()
            .filter_map(|e| if let EventKind::ClipBegin { local_frame, .. } = e { Some(*local_frame) } else { None })
            .collect();
        assert_eq!(begun, [5], "{events:?}");
    }

    /// A reload that gives a running task's clip a task of another type interrupts the task
    /// that began (its command releasing its lock); the clip's new task begins late at the
    /// next frame.
    #[test]
    fn a_running_task_whose_type_changed_is_interrupted() {
        let lock = |task: &str| {
            skill(10, &format!(r#"name = "lock", start_frame = 0, end_frame = 20, task = {{ type = "{task}" }}"#))
        };
        let (old_def, def) = (lock("MovementLock"), lock(r#"Emit", name = "e"#));
        let mut lifecycle = Lifecycle::new(&old_def, Ticks::ZERO, format_args!("skill#1"));
        lifecycle.advance(&old_def, Ticks::from_secs(0.4).unwrap(), 0, &mut Vec::new());
        let (last, mut events) = (Some(Ticks::from_secs(0.4).unwrap()), Vec::new());
        let mut carried =
            lifecycle.carry_over((&old_def, &def), (Ticks::ZERO, last), format_args!("skill#1"), &mut events);
        let kinds: Vec<String> = events.iter().map(|e| format!("{e:?}")).collect();
        assert!(matches!(events[0], EventKind::ClipInterrupt { task: TaskName::MovementLock, .. }), "{kinds:?}");
        assert!(kinds[1].contains("ReleaseMovementLock"), "{kinds:?}");
        let mut later = Vec::new();
        carried.advance(&def, Ticks::from_secs(0.5).unwrap(), 0, &mut later);
        assert!(matches!(later[0], EventKind::ClipBegin { local_frame: 5, task: TaskName::Emit, .. }), "{later:?}");
    }

    /// Each pass of a looping timeline ends its tasks where its time wraps: a lock whose
    /// frames go on past the end of a fixed duration gets Interrupt (releasing it) and the
    /// pass's flow task Dispose, before the next pass begins them again; none is left over.
    #[test]
    fn a_pass_ends_its_tasks_where_the_time_loops() {
        let snapshot = library_of(
            "[timelines.lp]\nframe_rate = 10\nwrap = \"loop\"\nduration_mode = \"fixed\"\nduration = 0.5\n\
             [[timelines.lp.tracks]]\nname = \"t\"\nclips = [\n\
             { name = \"lock\", start_frame = 2, end_frame = 7, task = { type = \"MovementLock\" } },\n\
             { name = \"f\", start_frame = 1, end_frame = 3, task = { type = \"Emit\", name = \"f\", scope = \"flow\" } },\n]\n"
                .into(),
        );
        let def = &snapshot.timelines[snapshot.timeline_id("lp").unwrap()];
        let mut lifecycle = Lifecycle::new(def, Ticks::ZERO, format_args!("lp#1"));
        let mut events = Vec::new();
        // As a playback without nested timelines ends a pass.
        while let Advanced::PassEnds(next) = lifecycle.advance(def, Ticks::from_secs(0.6).unwrap(), 6, &mut events) {
            lifecycle.end(def, true, &mut events);
            lifecycle.begin_pass(def, next);
        }
        let lines: Vec<String> = events
            .iter()
            .filter(|e| !matches!(e, EventKind::ClipTick { .. }))
            .map(|e| match e {
                EventKind::ClipBegin { clip, local_frame, .. } => format!("begin {clip} {local_frame}"),
                EventKind::ClipFinish { clip, local_frame, .. } => format!("finish {clip} {local_frame}"),
                EventKind::ClipInterrupt { clip, local_frame, .. } => format!("interrupt {clip} {local_frame}"),
                EventKind::TaskDispose { clip, local_frame, .. } => format!("dispose {clip} {local_frame}"),
                EventKind::Command(command) => format!("{} {}", command.kind, command.source),
                other => format!("{other:?}"),
            })
            .collect();
        let expected = [
            "begin f 1",
            "Emit lp#1/f",
            "begin lock 2",
            "AcquireMovementLock lp#1/lock",
            "finish f 3",
            "interrupt lock 4",
            "ReleaseMovementLock lp#1/lock",
            "dispose f 4",
            "begin f 1",
            "Emit lp#1/f",
        ];
        assert_eq!(lines, expected);
        assert!(lifecycle.flow.len() == 1 && (lifecycle.pass, lifecycle.frame) == (1, 1));
    }

    /// A flow-scoped task's Dispose names the task that began, even when the clip's task is
    /// another by then (a reload keeps a lifecycle whose clips keep their names).
    #[test]
    fn a_dispose_names_the_task_that_began() {
        let lock = |task: &str| {
            skill(
                30,
                &format!(
                    r#"name = "lock", start_frame = 0, end_frame = 14, task = {{ type = "{task}", scope = "flow" }}"#
                ),
            )
        };
        let (began, now) = (lock("MovementLock"), lock(r#"Emit", name = "e"#));
        let mut lifecycle = Lifecycle::new(&began, Ticks::ZERO, format_args!("skill#1"));
        lifecycle.advance(&began, Ticks::from_secs(0.1).unwrap(), 0, &mut Vec::new());
        let mut events = Vec::new();
        lifecycle.end(&now, true, &mut events);
        let dispose = events.iter().find(|e| matches!(e, EventKind::TaskDispose { .. }));
        assert!(matches!(dispose, Some(EventKind::TaskDispose { task: TaskName::MovementLock, .. })), "{events:?}");
    }
}

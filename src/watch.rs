//! Hot reload's ears: file-system notifications → debounced lists of changed files, sent to
//! the thread that owns the session. Front end; it never touches the session itself.
//!
//! Files are watched through their parent directories, because editors save by writing a
//! new file and renaming it over the old one (the old inode, and a watch on it, is gone).
//! The debounce is a pure state machine, [`Debouncer`], driven with injected time so tests
//! replay event timelines without sleeping; [`Watcher`] feeds it from `notify` on a thread.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher as _};

/// Quiet time after the last change before a reload: a save that writes a file in pieces,
/// or touches several files, becomes one reload.
pub const QUIET: Duration = Duration::from_millis(100);
/// Longest a change waits while changes keep coming, so a busy file still reloads.
pub const MAX_WAIT: Duration = Duration::from_millis(500);

/// Collects changed files and says when to reload them: once no change came for `quiet`, or
/// `max_wait` after the first change of the batch. Times are durations since any fixed
/// origin the caller picks.
#[derive(Clone, Debug)]
pub struct Debouncer {
    quiet: Duration,
    max_wait: Duration,
    pending: BTreeSet<String>,
    first: Duration,
    last: Duration,
}

impl Debouncer {
    pub fn new(quiet: Duration, max_wait: Duration) -> Self {
        Debouncer { quiet, max_wait, pending: BTreeSet::new(), first: Duration::ZERO, last: Duration::ZERO }
    }

    /// Records a change of `file` at `now`.
    pub fn notice(&mut self, file: &str, now: Duration) {
        if self.pending.is_empty() {
            self.first = now;
        }
        self.pending.insert(file.to_string());
        self.last = now;
    }

    /// When the pending batch is due, if there is one.
    pub fn deadline(&self) -> Option<Duration> {
        (!self.pending.is_empty()).then(|| (self.last + self.quiet).min(self.first + self.max_wait))
    }

    /// The batch, sorted, if it is due at `now`; it is then no longer pending.
    pub fn take_due(&mut self, now: Duration) -> Option<Vec<String>> {
        let due = self.deadline().is_some_and(|deadline| now >= deadline);
        due.then(|| std::mem::take(&mut self.pending).into_iter().collect())
    }
}

impl Default for Debouncer {
    fn default() -> Self {
        Debouncer::new(QUIET, MAX_WAIT)
    }
}

/// Watched files by absolute path → the name they were loaded under.
type Watched = Arc<Mutex<BTreeMap<PathBuf, String>>>;

/// Follows files through their directories and calls `on_change` (on its own thread) with
/// each debounced batch of changed files, by the names they were loaded under.
pub struct Watcher {
    notify: notify::RecommendedWatcher,
    dirs: BTreeSet<PathBuf>,
    watched: Watched,
}

impl Watcher {
    pub fn start(on_change: impl Fn(Vec<String>) + Send + 'static) -> Result<Watcher, String> {
        let watched: Watched = Arc::default();
        let (changes, heard) = mpsc::channel::<String>();
        let filter = watched.clone();
        let notify = notify::recommended_watcher(move |result: notify::Result<notify::Event>| {
            let Ok(event) = result else { return };
            if matches!(event.kind, EventKind::Access(_)) {
                return;
            }
            let watched = filter.lock().expect("the watch list is never poisoned");
            for name in event.paths.iter().filter_map(|p| watched.get(p)) {
                let _ = changes.send(name.clone());
            }
        })
        .map_err(|e| format!("cannot watch files: {e}"))?;
        std::thread::Builder::new()
            .name("blendlab-watch".into())
            .spawn(move || debounce_loop(&heard, on_change))
            .map_err(|e| format!("cannot start the watcher thread: {e}"))?;
        Ok(Watcher { notify, dirs: BTreeSet::new(), watched })
    }

    /// Also follows `files` (names as loaded, relative to the working directory or absolute):
    /// each file as named, every symbolic link on the way to the file it names, and that file
    /// (an edit of a shared config behind a link, or a link of the chain pointed elsewhere, is a
    /// change of the name; a new target is followed from the next call). Returns a message per
    /// directory that cannot be watched.
    pub fn follow(&mut self, files: &[String]) -> Vec<String> {
        let mut problems = Vec::new();
        for name in files {
            let Ok(absolute) = std::path::absolute(name) else { continue };
            for path in link_chain(absolute) {
                let dir = path.parent().map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
                if !self.dirs.contains(&dir) {
                    match self.notify.watch(&dir, RecursiveMode::NonRecursive) {
                        Ok(()) => {
                            self.dirs.insert(dir);
                        }
                        Err(e) => problems.push(format!("cannot watch {}: {e}", dir.display())),
                    }
                }
                self.watched.lock().expect("the watch list is never poisoned").insert(path, name.clone());
            }
        }
        problems
    }
}

/// `path`, each link it leads through (its folder resolved, the link itself kept), and the
/// file at the end of them, canonical (at most 40 links, as the kernel follows; a loop or a
/// dangling link ends the chain there).
fn link_chain(path: PathBuf) -> Vec<PathBuf> {
    let in_resolved_folder = |path: PathBuf| match (path.parent().map(std::fs::canonicalize), path.file_name()) {
        (Some(Ok(folder)), Some(name)) => folder.join(name),
        _ => path,
    };
    let mut chain = vec![path];
    while chain.len() <= 40 {
        let last = &chain[chain.len() - 1];
        let Ok(target) = std::fs::read_link(last) else { break };
        let next = in_resolved_folder(last.parent().map_or_else(|| target.clone(), |dir| dir.join(&target)));
        if chain.contains(&next) {
            break;
        }
        chain.push(next);
    }
    let canonical = chain.last().and_then(|last| std::fs::canonicalize(last).ok());
    chain.extend(canonical.filter(|c| !chain.contains(c)));
    chain
}

/// Feeds the debouncer from notifications, with real time, until the watcher is dropped.
fn debounce_loop(heard: &mpsc::Receiver<String>, on_change: impl Fn(Vec<String>)) {
    let origin = Instant::now();
    let mut debouncer = Debouncer::default();
    loop {
        let next = match debouncer.deadline() {
            Some(deadline) => heard.recv_timeout(deadline.saturating_sub(origin.elapsed())),
            None => heard.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match next {
            Ok(name) => debouncer.notice(&name, origin.elapsed()),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        if let Some(batch) = debouncer.take_due(origin.elapsed()) {
            on_change(batch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays a timeline of `(milliseconds, file)` changes, asking for due batches at every
    /// millisecond up to `until`; returns `(millisecond, batch)` for each batch.
    fn replay(changes: &[(u64, &str)], until: u64) -> Vec<(u64, Vec<String>)> {
        let mut debouncer = Debouncer::default();
        let mut batches = Vec::new();
        for now in 0..=until {
            for (_, file) in changes.iter().filter(|(at, _)| *at == now) {
                debouncer.notice(file, Duration::from_millis(now));
            }
            if let Some(batch) = debouncer.take_due(Duration::from_millis(now)) {
                batches.push((now, batch));
            }
        }
        batches
    }

    fn batch(at: u64, files: &[&str]) -> (u64, Vec<String>) {
        (at, files.iter().map(|f| f.to_string()).collect())
    }

    #[test]
    fn one_save_reloads_once_after_the_quiet_time() {
        assert_eq!(replay(&[(10, "a.toml")], 1000), [batch(110, &["a.toml"])]);
    }

    #[test]
    fn a_file_written_in_two_halves_reloads_once() {
        assert_eq!(replay(&[(0, "a.toml"), (60, "a.toml")], 1000), [batch(160, &["a.toml"])]);
    }

    #[test]
    fn delete_then_restore_within_the_quiet_time_is_one_reload() {
        // rename-over saves: remove, create, modify in quick succession
        let events = [(0, "a.toml"), (1, "a.toml"), (2, "a.toml")];
        assert_eq!(replay(&events, 1000), [batch(102, &["a.toml"])]);
    }

    #[test]
    fn changes_apart_reload_apart() {
        let events = [(0, "a.toml"), (300, "a.toml")];
        assert_eq!(replay(&events, 1000), [batch(100, &["a.toml"]), batch(400, &["a.toml"])]);
    }

    #[test]
    fn files_changed_together_reload_together_sorted() {
        let events = [(0, "b.toml"), (30, "a.toml"), (40, "b.toml")];
        assert_eq!(replay(&events, 1000), [batch(140, &["a.toml", "b.toml"])]);
    }

    #[test]
    fn a_file_that_never_stops_changing_still_reloads() {
        let events: Vec<(u64, &str)> = (0..=1000).step_by(50).map(|t| (t, "busy.toml")).collect();
        let batches = replay(&events, 1200);
        assert_eq!(batches.first(), Some(&batch(500, &["busy.toml"])));
        assert_eq!(batches.iter().map(|(t, _)| *t).collect::<Vec<_>>(), [500, 1050]);
    }

    #[test]
    fn nothing_pending_means_no_deadline() {
        let mut debouncer = Debouncer::default();
        assert_eq!(debouncer.deadline(), None);
        assert_eq!(debouncer.take_due(Duration::from_secs(10)), None);
        debouncer.notice("a.toml", Duration::from_millis(5));
        assert_eq!(debouncer.deadline(), Some(Duration::from_millis(105)));
        assert_eq!(debouncer.take_due(Duration::from_millis(104)), None);
    }
}

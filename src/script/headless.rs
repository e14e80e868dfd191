//! Headless regression runs: `blendlab run --golden` and `blendlab test`.
//!
//! A script's canonical output is everything it prints and every diagnostic it causes, in
//! order and without colour, then `error: MESSAGE` when it fails — what a person would read
//! in a terminal, and what a golden file holds. A check runs the script twice: output that
//! differs between two runs of the same script cannot be a golden (pairs() order, time), so
//! it fails naming the first line that differs. Every run is held to the same
//! [`Confinement`] as `blendlab run` (`--timeout`, `--max-memory`, `--sandbox`); a run that
//! its timeout stopped is a failure of its own, never compared or blessed, since the line
//! it stopped at depends on the machine. A script's `os.exit` ends the script, never the
//! runner: its output then ends with the exit's line, an `error:` one unless the code is 0.
//! When a script ends without failing, each `bl.at` callback it ended before is a warning
//! ([`Host::finish_script`]), ahead of the exit's line if it has one.
//! Its standard input is empty (`io.read()` returns nil): a check never waits on a terminal,
//! and its two runs read the same.
//!
//! A golden run happens in the script's folder, as `cd FOLDER && blendlab run NAME.lua` would
//! run it: every path it prints (its own locations, the configs it loads) is relative to that
//! folder, so a golden holds whichever folder the check is started from and however the
//! script's path is spelled (`tests/scripts`, `./tests/scripts`, absolute).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::files::write_atomically;
use super::limits::{BACKSTOP_GRACE, RUNNER_IS_BACKSTOP, unstoppable};
use super::{Confinement, Host, Output};
use crate::report::diff::{first_difference, show_line, unified_diff};

/// A `Write` into a shared buffer, so `print` output and diagnostics land in one text.
#[derive(Clone, Default)]
pub struct Capture(Rc<RefCell<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).into_owned()
    }
}

/// Runs `script` with `args` as `blendlab run` does, held to `confinement`, on a host that
/// `setup` may configure first (after `os.exit` is made to end the script and the sandbox is
/// in place, so that `setup` sees the functions the script will call); returns its canonical
/// output and the host (to look at the session afterwards).
pub fn run_captured(
    script: &Path,
    args: &[String],
    confinement: Confinement,
    setup: impl FnOnce(&Host),
) -> (String, Host) {
    let capture = Capture::default();
    let output = Output { out: Box::new(capture.clone()), err: Box::new(capture.clone()), style: Default::default() };
    let host = match Host::new(output) {
        Ok(host) => host,
        Err(e) => unreachable!("a host with the built-in prelude starts: {e}"),
    };
    let ran =
        host.end_script_on_exit().and_then(|()| host.empty_stdin()).and_then(|()| host.confine(script, confinement));
    setup(&host);
    if let Err(e) = host.finish_script(ran.and_then(|()| host.run_file(script, args))) {
        // `os.exit(0)` ends the script normally, and its output says where; the line stands
        // on its own after output that left one unfinished.
        let label = if host.exit_code() == Some(0) { "" } else { "error: " };
        let newline = if capture.0.borrow().last().is_some_and(|&b| b != b'\n') { "\n" } else { "" };
        let _ = writeln!(capture.clone(), "{newline}{label}{}", e.message);
    }
    (capture.text(), host)
}

/// The canonical output of a run held to `confinement`, or [`Verdict::TimedOut`].
fn output_within(script: &Path, args: &[String], confinement: Confinement) -> Result<String, Verdict> {
    let (output, host) = run_captured(script, args, confinement, |_| {});
    if host.timed_out() {
        return Err(Verdict::TimedOut { message: last_error(&output).unwrap_or("timed out").to_string() });
    }
    Ok(output)
}

/// The message of the `error:` line a failed run's output ends with.
pub(crate) fn last_error(output: &str) -> Option<&str> {
    output.lines().rev().find_map(|l| l.strip_prefix("error: "))
}

/// What a golden check found.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The output equals the golden file.
    Same,
    /// The golden file was (re)written with the output: how many lines, and the error the
    /// script failed with, if it did (the golden now expects that failure).
    Blessed { lines: usize, failure: Option<String> },
    /// There is no golden file.
    Missing,
    /// The output differs from the golden file: what the golden holds and what the script
    /// printed (described as a unified diff from golden to output, headed by their paths as
    /// the person gave them).
    Differs { expected: String, actual: String },
    /// Two runs printed different output: the first line that differs in each, its line
    /// break included when it has one.
    Unsteady { line: usize, first: Option<String>, second: Option<String> },
    /// The check could not be made: the script is not there, its folder cannot be entered,
    /// or the golden file cannot be read (or written, when blessing).
    Unchecked { message: String },
    /// `--timeout` stopped a run: its error.
    TimedOut { message: String },
}

impl Verdict {
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Same | Verdict::Blessed { .. })
    }

    /// What to tell a person, naming the script and its golden; how to bless for `Missing`.
    pub fn describe(&self, script: &Path, golden: &Path, bless_hint: &str) -> String {
        let name = golden.file_name().map_or_else(|| golden.display().to_string(), |n| n.to_string_lossy().into());
        let (script, golden) = (script.display(), golden.display());
        match self {
            Verdict::Same => format!("{script}: output matches {golden}"),
            Verdict::Blessed { lines, failure } => {
                let mut text = format!("{script}: wrote {golden} ({})", crate::report::count(*lines, "line"));
                if *lines == 0 {
                    let _ = write!(text, "; note: {name} holds no output: it guards only against errors");
                }
                if let Some(failure) = failure {
                    let _ = write!(text, "; note: {name} holds the script's failure (error: {failure})");
                }
                text
            }
            Verdict::Missing => format!("{script}: no golden file {golden}; {bless_hint} to create it"),
            Verdict::Differs { expected, actual } if expected.replace("\r\n", "\n") == *actual => format!(
                "{script}: output differs from {golden} only in line endings: the golden has CRLF line endings \
                 (git's autocrlf?); bless it again, and keep goldens LF (`*.out -text` in .gitattributes)"
            ),
            Verdict::Differs { expected, actual } => {
                let diff = unified_diff(expected, actual, &golden.to_string(), &script.to_string());
                // The diff's own last line break only: a line's trailing whitespace is part of it.
                let mut text = format!("{script}: output differs from {golden}:\n{}", diff.trim_end_matches('\n'));
                if expected.contains("\r\n") && !actual.contains("\r\n") {
                    let _ = write!(
                        text,
                        "\nnote: {name} also has CRLF line endings (git's autocrlf?), so every line differs; keep \
                         goldens LF (`*.out -text` in .gitattributes)"
                    );
                }
                text
            }
            Verdict::Unsteady { line, first, second } => {
                let show = |l: &Option<String>| l.as_deref().map_or("<end of output>".to_string(), show_line);
                format!(
                    "{script}: prints different output on two runs, first at line {line}:\n  first run:  {}\n  second run: {}",
                    show(first),
                    show(second)
                )
            }
            Verdict::Unchecked { message } => format!("{script}: {message}"),
            Verdict::TimedOut { message } => {
                format!("{script}: stopped before its end, so nothing was compared or written: {message}")
            }
        }
    }
}

/// Runs `script` twice in its folder (see the module docs: the process's working folder is
/// that folder meanwhile), each run held to `confinement`, and compares its output with
/// `golden`, or writes `golden` when `bless` (only if both runs ran to their end and agree).
pub fn check_golden(script: &Path, args: &[String], golden: &Path, bless: bool, confinement: Confinement) -> Verdict {
    // A script that is not there, or is no script, has no output to compare, and none to bless.
    if let Some(message) = super::not_a_script(script) {
        return Verdict::Unchecked { message };
    }
    if let Err(e) = std::fs::File::open(script) {
        return Verdict::Unchecked { message: e.to_string() };
    }
    let golden = match std::path::absolute(golden) {
        Ok(golden) => golden,
        Err(e) => return Verdict::Unchecked { message: format!("cannot locate {}: {e}", golden.display()) },
    };
    let (folder, name) = split_folder(script);
    in_folder(folder, || check_golden_here(&name, args, &golden, bless, confinement))
        .unwrap_or_else(|message| Verdict::Unchecked { message })
}

/// A script's folder (empty: the working folder) and its file name.
fn split_folder(script: &Path) -> (&Path, PathBuf) {
    let name = script.file_name().map_or_else(|| script.to_path_buf(), PathBuf::from);
    (script.parent().unwrap_or(Path::new("")), name)
}

/// Runs `run` with the process's working folder set to `folder` (empty: where it is), then
/// sets it back. The working folder is the whole process's: nothing else may run meanwhile.
fn in_folder<T>(folder: &Path, run: impl FnOnce() -> T) -> Result<T, String> {
    if folder.as_os_str().is_empty() {
        return Ok(run());
    }
    let back = std::env::current_dir().map_err(|e| format!("cannot tell the working folder: {e}"))?;
    std::env::set_current_dir(folder).map_err(|e| format!("cannot enter {}: {e}", folder.display()))?;
    let result = run();
    std::env::set_current_dir(&back).map_err(|e| format!("cannot go back to {}: {e}", back.display()))?;
    Ok(result)
}

/// Runs `script` twice, each run held to `confinement`, and compares its output with
/// `golden`, or writes `golden` when `bless` (only if both runs ran to their end and agree).
fn check_golden_here(script: &Path, args: &[String], golden: &Path, bless: bool, confinement: Confinement) -> Verdict {
    let outputs = output_within(script, args, confinement)
        .and_then(|first| Ok((first, output_within(script, args, confinement)?)));
    let (first, second) = match outputs {
        Ok(outputs) => outputs,
        Err(stopped) => return stopped,
    };
    if let Some((line, a, b)) = first_difference(&first, &second) {
        return Verdict::Unsteady { line, first: a.map(str::to_string), second: b.map(str::to_string) };
    }
    if bless {
        if let Some(what) = not_a_golden(golden, script) {
            let message = format!("{} is {what}, not a golden file: blessing would overwrite it", golden.display());
            return Verdict::Unchecked { message };
        }
        if confinement.sandbox
            && let Some(message) = outside_the_folder(golden)
        {
            return Verdict::Unchecked { message };
        }
        return match write_atomically(golden, &first) {
            Ok(()) => {
                Verdict::Blessed { lines: first.lines().count(), failure: last_error(&first).map(str::to_string) }
            }
            Err(e) => Verdict::Unchecked { message: format!("cannot write {}: {e}", golden.display()) },
        };
    }
    match std::fs::read_to_string(golden) {
        Ok(expected) if expected == first => Verdict::Same,
        Ok(expected) => Verdict::Differs { expected, actual: first },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Verdict::Missing,
        Err(e) => Verdict::Unchecked { message: format!("cannot read {}: {e}", golden.display()) },
    }
}

/// Why `golden` may not be blessed under `--sandbox`: it lies outside the script's folder
/// (the working folder of a golden run) once symbolic links are resolved. Blessing writes
/// only inside the folder, as the script may, so a link committed as the golden cannot carry
/// the write elsewhere.
fn outside_the_folder(golden: &Path) -> Option<String> {
    let cannot = |why: String| Some(format!("cannot write {}: {why} (--sandbox)", golden.display()));
    match std::env::current_dir().and_then(|folder| folder.canonicalize()) {
        Ok(folder) if super::sandbox::inside(&folder, golden) => None,
        Ok(folder) => {
            cannot(format!("it is outside the script's folder {} once symbolic links are resolved", folder.display()))
        }
        Err(e) => cannot(format!("the script's folder cannot be resolved: {e}")),
    }
}

/// What `golden` is, when it cannot be `script`'s golden file (which `--bless` writes): the
/// script itself, a Lua script or a TOML config — by its name, or by the file it resolves to
/// through symbolic links (a link written through would overwrite that file).
pub fn not_a_golden(golden: &Path, script: &Path) -> Option<String> {
    let resolved = std::fs::canonicalize(golden).ok();
    let same =
        golden == script || resolved.as_ref().is_some_and(|g| std::fs::canonicalize(script).is_ok_and(|s| s == *g));
    let kind = |path: &Path| match path.extension().and_then(|e| e.to_str()) {
        Some("lua") => Some("a Lua script"),
        Some("toml") => Some("a TOML config"),
        _ => None,
    };
    if same {
        return Some("the script itself".into());
    }
    kind(golden).map(str::to_string).or_else(|| {
        let target = resolved?;
        kind(&target).map(|k| format!("a symbolic link to {k} ({})", target.display()))
    })
}

/// The golden file of a test script: `NAME.out` beside `NAME.lua`.
pub fn golden_of(script: &Path) -> PathBuf {
    script.with_extension("out")
}

/// Every `*.EXTENSION` file directly in each folder of `paths` (a `*.EXTENSION` file named
/// in `paths` is taken as it is), sorted by path, without repeats: `blendlab test` finds its
/// scripts and `blendlab check` its configs this way. A folder without such files, a file
/// named that is not one (`test --bless *` must not run a golden as a script), or a path that
/// is neither is an error: a CI job pointed at the wrong folder must not pass having checked
/// nothing.
pub fn find_files(paths: &[PathBuf], extension: &str) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() && path.extension().is_some_and(|e| e == extension) {
            std::fs::File::open(path).map_err(|e| format!("{}: cannot read file: {e}", path.display()))?;
            files.push(path.clone());
            continue;
        }
        if path.is_file() {
            return Err(format!(
                "{}: not a *.{extension} file, so not checked (name folders or *.{extension} files)",
                path.display()
            ));
        }
        let entries = std::fs::read_dir(path).map_err(|e| format!("{}: cannot read folder: {e}", path.display()))?;
        let found = files.len();
        for entry in entries {
            let file = entry.map_err(|e| format!("{}: {e}", path.display()))?.path();
            if file.extension().is_some_and(|e| e == extension) && file.is_file() {
                files.push(file);
            }
        }
        if files.len() == found {
            return Err(format!(
                "{}: no *.{extension} files in this folder (subfolders are not searched)",
                path.display()
            ));
        }
    }
    files.sort();
    once_each(&mut files);
    Ok(files)
}

/// Keeps each file once, however it is named: itself and in its folder, `./f` and `f`, by an
/// absolute path, through a symbolic link. Files are told apart by their canonical path (one
/// that cannot be resolved, by the path given); the first name given is the one kept.
pub fn once_each(files: &mut Vec<PathBuf>) {
    let mut seen = std::collections::BTreeSet::new();
    files.retain(|f| seen.insert(std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())));
}

/// Checks every script against its golden, folder after folder, in the folder (see the module
/// docs), each run held to `confinement`. Verdicts come back in the order of `scripts`.
pub fn run_tests(scripts: &[PathBuf], bless: bool, threads: usize, confinement: Confinement) -> Vec<Verdict> {
    let mut verdicts = Vec::with_capacity(scripts.len());
    for group in scripts.chunk_by(|a, b| a.parent() == b.parent()) {
        let (folder, _) = split_folder(&group[0]);
        let names: Vec<PathBuf> = group.iter().map(|script| split_folder(script).1).collect();
        match in_folder(folder, || run_in_parallel(&names, bless, threads, confinement)) {
            Ok(done) => verdicts.extend(done),
            Err(message) => verdicts.extend(group.iter().map(|_| Verdict::Unchecked { message: message.clone() })),
        }
    }
    verdicts
}

/// Checks every script against its golden on `threads` threads (each script on its own
/// host, made in the thread that runs it: Lua states stay on one thread). Verdicts come back
/// in the order of `scripts`, whatever order they finished in.
///
/// With a `--timeout`, the runner is its runs' backstop: a check still going
/// [`BACKSTOP_GRACE`] past the deadlines of its two runs is stuck in code that cannot be
/// stopped at a line (see [`limits`](super::limits)). It fails, a fresh thread takes over the
/// scripts left, and the stuck thread is left behind to end with the process: the other
/// scripts' results are not lost with it.
fn run_in_parallel(scripts: &[PathBuf], bless: bool, threads: usize, confinement: Confinement) -> Vec<Verdict> {
    let queue = Arc::new(Queue { scripts: scripts.to_vec(), next: AtomicUsize::new(0), started: Mutex::new(vec![]) });
    let (finished, verdicts_in) = mpsc::channel::<(usize, Verdict)>();
    let start_worker = || {
        let (queue, finished) = (queue.clone(), finished.clone());
        std::thread::spawn(move || check_queued(&queue, &finished, bless, confinement))
    };
    let mut workers: Vec<_> = (0..threads.clamp(1, scripts.len().max(1))).map(|_| start_worker()).collect();
    let mut verdicts = vec![None; scripts.len()];
    while verdicts.iter().any(Option::is_none) && !workers.iter().all(|w| w.is_finished()) {
        match verdicts_in.recv_timeout(Duration::from_millis(50)) {
            Ok((i, verdict)) => {
                verdicts[i].get_or_insert(verdict);
            }
            Err(_) => {
                let Some(timeout) = confinement.limits.timeout else { continue };
                for i in queue.stuck(2 * (timeout + BACKSTOP_GRACE)) {
                    if verdicts[i].is_none() {
                        let message = unstoppable(timeout, "blendlab stopped waiting for it");
                        verdicts[i] = Some(Verdict::TimedOut { message });
                        workers.push(start_worker());
                    }
                }
            }
        }
    }
    for (i, verdict) in verdicts_in.try_iter() {
        verdicts[i].get_or_insert(verdict);
    }
    verdicts.into_iter().map(|v| v.unwrap_or(Verdict::Unchecked { message: "was not run".into() })).collect()
}

/// The scripts of a parallel check, the next one to take, and when each taken one started.
struct Queue {
    scripts: Vec<PathBuf>,
    next: AtomicUsize,
    started: Mutex<Vec<(usize, Instant)>>,
}

impl Queue {
    /// The scripts taken more than `patience` ago (finished or not).
    fn stuck(&self, patience: Duration) -> Vec<usize> {
        let started = self.started.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        started.iter().filter(|(_, at)| at.elapsed() > patience).map(|&(i, _)| i).collect()
    }
}

/// A worker of [`run_in_parallel`]: checks scripts from `queue` until none is left, sending
/// each verdict with its script's index.
fn check_queued(queue: &Queue, finished: &mpsc::Sender<(usize, Verdict)>, bless: bool, confinement: Confinement) {
    RUNNER_IS_BACKSTOP.set(true);
    loop {
        let i = queue.next.fetch_add(1, Ordering::Relaxed);
        let Some(script) = queue.scripts.get(i) else { break };
        queue.started.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push((i, Instant::now()));
        let verdict = check_golden_here(script, &[], &golden_of(script), bless, confinement);
        if finished.send((i, verdict)).is_err() {
            break;
        }
    }
}

/// The report of a test run: `ok  SCRIPT` per passing script, `FAIL SCRIPT` with the
/// reason per failing one, then `N passed, N failed`.
pub fn test_report(scripts: &[PathBuf], verdicts: &[Verdict]) -> String {
    let mut out = String::new();
    for (script, verdict) in scripts.iter().zip(verdicts) {
        match verdict {
            Verdict::Same => {
                let _ = writeln!(out, "ok    {}", script.display());
            }
            Verdict::Blessed { .. } => {
                let _ = writeln!(out, "bless {}", verdict.describe(script, &golden_of(script), ""));
            }
            _ => {
                let hint = "run `blendlab test --bless` on its folder";
                let _ = writeln!(out, "FAIL  {}", verdict.describe(script, &golden_of(script), hint));
            }
        }
    }
    let passed = verdicts.iter().filter(|v| v.passed()).count();
    let _ = writeln!(out, "{passed} passed, {} failed", verdicts.len() - passed);
    out
}

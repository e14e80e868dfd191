//! Driving `blendlab` as a person would: on a pseudo-terminal (so rustyline runs for real),
//! or through pipes. Output is collected by a thread; `wait_for` polls it with a generous
//! deadline, so a slow machine makes a test slower, never wrong.
//!
//! On the terminal, a new line is typed only once the editor is reading again: rustyline
//! turns bracketed paste on (`ESC [ ? 2004 h`) each time it starts reading a line, in raw
//! mode, so the harness counts those.

#![allow(dead_code)] // each test crate uses its own subset

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::pty::openpty;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// How long any expected output may take to appear.
const DEADLINE: Duration = Duration::from_secs(30);

/// Sends Ctrl-C's signal to a process.
pub fn interrupt(pid: u32) {
    kill(Pid::from_raw(pid as i32), Signal::SIGINT).unwrap();
}

/// Text a reader thread has collected, searched from where the last match ended.
pub struct Lines {
    text: Arc<Mutex<String>>,
    seen: usize,
    /// Lines the editor started reading (bracketed paste turned on).
    reading: Arc<AtomicUsize>,
}

impl Lines {
    /// Collects everything `source` produces, with terminal control sequences removed.
    /// `answer` receives the terminal's reply to each cursor-position query.
    pub fn collect(mut source: impl Read + Send + 'static, mut answer: Option<Box<dyn Write + Send>>) -> Self {
        let text = Arc::new(Mutex::new(String::new()));
        let reading = Arc::new(AtomicUsize::new(0));
        let (sink, started) = (text.clone(), reading.clone());
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            let mut raw = String::new();
            while let Ok(n) = source.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                let chunk = String::from_utf8_lossy(&buffer[..n]).into_owned();
                if let Some(answer) = &mut answer {
                    for _ in chunk.matches("\x1b[6n") {
                        let _ = answer.write_all(b"\x1b[1;1R");
                    }
                }
                raw.push_str(&chunk);
                started.store(raw.matches("\x1b[?2004h").count(), Ordering::SeqCst);
                sink.lock().unwrap().push_str(&strip_controls(&chunk));
            }
        });
        Lines { text, seen: 0, reading }
    }

    pub fn new(source: impl Read + Send + 'static) -> Self {
        Lines::collect(source, None)
    }

    /// Waits until `needle` appears after the previous match; panics with the text so far.
    pub fn wait_for(&mut self, needle: &str) {
        let mut found = None;
        self.wait_until(&format!("{needle:?}"), |text| {
            found = text.get(self.seen..).and_then(|rest| rest.find(needle));
            found.is_some()
        });
        self.seen += found.unwrap() + needle.len();
    }

    /// Waits until the editor has started reading more than `lines` lines.
    pub fn wait_for_reading(&mut self, lines: usize) {
        let reading = self.reading.clone();
        self.wait_until("the editor read a line", |_| reading.load(Ordering::SeqCst) > lines);
    }

    fn wait_until(&self, what: &str, mut done: impl FnMut(&str) -> bool) {
        let start = Instant::now();
        loop {
            let text = self.text.lock().unwrap().clone();
            if done(&text) {
                return;
            }
            assert!(start.elapsed() < DEADLINE, "never saw {what}; output so far:\n{text}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn all(&self) -> String {
        self.text.lock().unwrap().clone()
    }
}

/// `blendlab ARGS` with standard input, output and error piped, output collected.
pub struct Piped {
    pub child: Child,
    pub stdin: std::process::ChildStdin,
    pub out: Lines,
    pub err: Lines,
}

impl Piped {
    pub fn start(args: &[&std::ffi::OsStr]) -> Piped {
        let mut child = Command::new(env!("CARGO_BIN_EXE_blendlab"))
            .args(args)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = Lines::new(child.stdout.take().unwrap());
        let err = Lines::new(child.stderr.take().unwrap());
        Piped { child, stdin, out, err }
    }

    /// Sends lines of input.
    pub fn send(&mut self, input: &str) {
        self.stdin.write_all(input.as_bytes()).unwrap();
    }

    /// Stops a process that would not end by itself (`run --watch`).
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Closes standard input and waits for a successful exit.
    pub fn finish(self) {
        let Piped { mut child, stdin, .. } = self;
        drop(stdin);
        let status = child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// Removes CSI sequences (`ESC [ … final`) and carriage returns.
fn strip_controls(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' if chars.peek() == Some(&'[') => {
                chars.next();
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            '\x1b' => {
                chars.next();
            }
            '\r' => {}
            other => out.push(other),
        }
    }
    out
}

/// `blendlab` on a pseudo-terminal, as its controlling terminal (so Ctrl-C is a signal
/// while Lua runs and a key while the prompt reads).
pub struct Terminal {
    child: Child,
    input: std::fs::File,
    output: Lines,
    /// Lines the editor finished reading (Enter, Ctrl-C at the prompt).
    submitted: usize,
    /// Whether the next keystroke starts a new line (and so waits for the editor).
    at_line_start: bool,
}

impl Terminal {
    /// Starts `blendlab ARGS` in the repository folder with `HOME` = `home`.
    pub fn start(args: &[&str], home: &Path) -> Terminal {
        let pty = openpty(None, None).unwrap();
        let slave: OwnedFd = pty.slave;
        let stdio = |fd: &OwnedFd| Stdio::from(fd.try_clone().unwrap());
        let mut command = Command::new(env!("CARGO_BIN_EXE_blendlab"));
        command
            .args(args)
            .env("TERM", "xterm")
            .env("NO_COLOR", "1")
            .env("HOME", home)
            .env_remove("BLENDLAB_HISTORY")
            .stdin(stdio(&slave))
            .stdout(stdio(&slave))
            .stderr(stdio(&slave));
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(|| {
                nix::unistd::setsid().map_err(std::io::Error::from)?;
                if nix::libc::ioctl(0, nix::libc::TIOCSCTTY, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().unwrap();
        drop(slave);
        let master = std::fs::File::from(pty.master);
        let answer: Box<dyn Write + Send> = Box::new(master.try_clone().unwrap());
        let output = Lines::collect(master.try_clone().unwrap(), Some(answer));
        assert!(master.as_raw_fd() >= 0);
        Terminal { child, input: master, output, submitted: 0, at_line_start: true }
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.at_line_start {
            self.output.wait_for_reading(self.submitted);
            self.at_line_start = false;
        }
        self.input.write_all(bytes).unwrap();
    }

    /// Keys that end what the editor is reading (Enter on a complete chunk, Ctrl-C or
    /// Ctrl-D at the prompt).
    pub fn press(&mut self, keys: &[u8]) {
        self.write(keys);
        self.submitted += 1;
        self.at_line_start = true;
    }

    /// Ctrl-C while a chunk runs (a signal, not a key the editor reads).
    pub fn interrupt(&mut self) {
        self.input.write_all(b"\x03").unwrap();
    }

    pub fn type_text(&mut self, text: &str) {
        self.write(text.as_bytes());
    }

    /// Types `line` and presses Enter on a complete chunk.
    pub fn type_line(&mut self, line: &str) {
        self.press(format!("{line}\r").as_bytes());
    }

    /// Types `lines`, each with Enter, in one go, as a fast typist or a paste without
    /// bracketed-paste marks does: nothing waits for the editor between them.
    pub fn type_ahead(&mut self, lines: &[&str]) {
        let keys: String = lines.iter().map(|line| format!("{line}\r")).collect();
        self.write(keys.as_bytes());
        self.submitted += lines.len();
        self.at_line_start = true;
    }

    /// Types a line of a chunk that is not complete yet (the editor reads on).
    pub fn type_continued(&mut self, line: &str) {
        self.write(format!("{line}\r").as_bytes());
    }

    pub fn wait_for(&mut self, needle: &str) {
        self.output.wait_for(needle);
    }

    /// Waits for the process to end successfully; returns everything it showed.
    pub fn wait_for_exit(&mut self) -> String {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}: {}", self.output.all());
                return self.output.all();
            }
            assert!(start.elapsed() < DEADLINE, "still running; output so far:\n{}", self.output.all());
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

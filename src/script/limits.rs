//! What a script may spend: wall-clock time (`run --timeout`), memory (`run --max-memory`)
//! and the REPL's Ctrl-C. Scripts come from colleagues and the internet; `while true do end`
//! or a table that grows forever must end with a located error, never a dead process.
//!
//! One [`Watchdog`] answers "stop now?" for both the Lua instruction hook (every
//! [`CHECK_INTERVAL`] instructions) and the frame loop (before each logic frame, since a long
//! Rust-only step runs no Lua instruction at all). Memory goes through mlua's allocator limit,
//! which makes an allocation past it fail as Lua's "not enough memory".

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// Lua instructions between two looks at the watchdog: small enough that Ctrl-C or a
/// timeout stops `while true do end` at once, large enough to cost nothing measurable.
pub(crate) const CHECK_INTERVAL: u32 = 1000;

/// How long a `--timeout` run may go on past its deadline before the backstop ends the whole
/// process: what the instruction hook cannot stop (a `__gc` finalizer, which Lua runs with
/// hooks off; one long library call such as a backtracking pattern match) must not hang CI.
pub(crate) const BACKSTOP_GRACE: Duration = Duration::from_secs(2);

thread_local! {
    /// Whether runs on this thread are watched by a runner that gives up on a run past
    /// [`BACKSTOP_GRACE`] and goes on without it (`blendlab test`), instead of the backstop
    /// ending the process: the other scripts' results are not lost with one stuck script.
    pub(crate) static RUNNER_IS_BACKSTOP: Cell<bool> = const { Cell::new(false) };
}

/// Why a backstop gave up on a run held to `timeout`, ending with what it did (`blendlab
/// stopped`).
pub(crate) fn unstoppable(timeout: Duration, outcome: &str) -> String {
    format!(
        "timed out after {} s (--timeout) in code that cannot be stopped at a line (a `__gc` finalizer, or \
         one long library call such as a pattern match); {outcome} {} s later",
        timeout.as_secs_f64(),
        BACKSTOP_GRACE.as_secs()
    )
}

/// Limits for one script run.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Wall-clock time the run may take.
    pub timeout: Option<Duration>,
    /// Bytes the Lua state may hold.
    pub max_memory: Option<usize>,
}

/// Everything a headless run is held to: its [`Limits`] and, with `sandbox`, its script's
/// folder (`run --sandbox`). `run`, `run --golden`, `run --partition-check` and `blendlab
/// test` take the same flags; every run of a script gets a host, and a clock, of its own.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Confinement {
    pub limits: Limits,
    pub sandbox: bool,
}

/// Why running code must stop.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watchdog {
    /// Set by Ctrl-C on another thread.
    pub(crate) interrupt: Arc<AtomicBool>,
    /// The deadline of a `--timeout` run and the timeout it came from.
    deadline: Rc<Cell<Option<(Instant, Duration)>>>,
    /// Whether the deadline has stopped running code.
    timed_out: Rc<Cell<bool>>,
    /// The backstop of an armed deadline: dropping it (with the run's host) calls it off.
    backstop: Rc<RefCell<Option<Sender<()>>>>,
    /// The code of the `os.exit` that ended the script, under [`end_script_on_exit`].
    exited: Rc<Cell<Option<i32>>>,
}

impl Watchdog {
    /// Starts the clock of a run of `script` limited to `timeout`, and its backstop: a thread
    /// that ends the process with exit code 1, naming the script, if the run is still going
    /// [`BACKSTOP_GRACE`] after its deadline.
    /// On a thread whose runner is the backstop ([`RUNNER_IS_BACKSTOP`]) only the deadline is
    /// set.
    pub(crate) fn arm(&self, timeout: Duration, script: String) {
        self.deadline.set(Some((Instant::now() + timeout, timeout)));
        if RUNNER_IS_BACKSTOP.get() {
            return;
        }
        let (call_off, called_off) = channel::<()>();
        std::thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = called_off.recv_timeout(timeout + BACKSTOP_GRACE) {
                eprintln!("error: {script}: {}", unstoppable(timeout, "blendlab stopped"));
                std::process::exit(1);
            }
        });
        *self.backstop.borrow_mut() = Some(call_off);
    }

    /// `Some(reason)` when running code must stop now.
    pub(crate) fn tripped(&self) -> Option<String> {
        if let Some(code) = self.exited.get() {
            return Some(format!("os.exit({code})"));
        }
        if self.interrupt.load(Ordering::Relaxed) {
            return Some("interrupted".into());
        }
        let (deadline, timeout) = self.deadline.get()?;
        let passed = Instant::now() >= deadline;
        self.timed_out.set(self.timed_out.get() || passed);
        passed.then(|| format!("timed out after {} s (--timeout)", timeout.as_secs_f64()))
    }

    /// Whether the deadline has stopped running code: every caller of [`Watchdog::tripped`]
    /// stops what runs when it answers.
    pub(crate) fn timed_out(&self) -> bool {
        self.timed_out.get()
    }

    /// The code of the `os.exit` that ended the script, if one did.
    pub(crate) fn exited(&self) -> Option<i32> {
        self.exited.get()
    }
}

/// Makes `os.exit(code)` end the script rather than the process: it trips `watchdog` (so no
/// `pcall` catches it, and no frame runs after it) and raises `file:line: os.exit(CODE)`;
/// the front end then reads the code ([`Watchdog::exited`]). `blendlab test` and the checks
/// go on with the next run, and `blendlab run` ends with the code after writing everything
/// the script printed (Lua's own `os.exit` would drop what was still buffered). The code is
/// Lua's: `true` or nothing 0, `false` 1, else an integer.
pub(crate) fn end_script_on_exit(lua: &mlua::Lua, watchdog: &Watchdog) -> mlua::Result<()> {
    let Some(os) = lua.globals().get::<Option<mlua::Table>>("os")? else { return Ok(()) };
    let watchdog = watchdog.clone();
    let exit = lua.create_function(move |lua, code: mlua::Value| -> mlua::Result<()> {
        let code = match code {
            mlua::Value::Nil | mlua::Value::Boolean(true) => 0,
            mlua::Value::Boolean(false) => 1,
            mlua::Value::Integer(code) => code as i32,
            mlua::Value::Number(code) if code.fract() == 0.0 => code as i32,
            other => {
                let got = other.type_name();
                return Err(super::api::located(
                    lua,
                    format!("bad argument #1 to 'exit' (an integer or a boolean expected, got {got})"),
                ));
            }
        };
        watchdog.exited.set(Some(code));
        Err(super::api::located(lua, format!("os.exit({code})")))
    })?;
    os.set("exit", exit)
}

/// Makes a tripped watchdog uncatchable: `pcall`, `xpcall` and `coroutine.resume` re-raise
/// the error once it has tripped, so `while true do pcall(function() while true do end end)
/// end` still ends on Ctrl-C or a timeout. Before that they behave exactly as Lua's own.
const UNCATCHABLE: &str = r#"
local tripped = ...
local pcall, xpcall, resume, pack, unpack, error = pcall, xpcall, coroutine.resume, table.pack, table.unpack, error
local function rethrow(results)
  if not results[1] and tripped() then error(results[2], 0) end
  return unpack(results, 1, results.n)
end
function _G.pcall(...) return rethrow(pack(pcall(...))) end
function _G.xpcall(...) return rethrow(pack(xpcall(...))) end
function coroutine.resume(...) return rethrow(pack(resume(...))) end
"#;

/// Chunk name of [`UNCATCHABLE`]; errors are located past its frames.
pub(crate) const CHUNK_NAME: &str = "=[limits]";

/// Installs the wrappers of [`UNCATCHABLE`] over `watchdog`.
pub(crate) fn make_uncatchable(lua: &mlua::Lua, watchdog: &Watchdog) -> mlua::Result<()> {
    let watchdog = watchdog.clone();
    let tripped = lua.create_function(move |_, ()| Ok(watchdog.tripped().is_some()))?;
    lua.load(UNCATCHABLE).set_name(CHUNK_NAME).call::<()>(tripped)
}

/// Parses a memory size: bytes, or a number with a `K`, `M` or `G` suffix (powers of 1024,
/// case-insensitive, an optional trailing `B`): `64M`, `512k`, `1G`, `1.5M`, `65536`.
pub fn parse_memory(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    let number = trimmed.strip_suffix(['b', 'B']).unwrap_or(trimmed);
    let (digits, unit) = match number.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&number[..i], c.to_ascii_uppercase()),
        _ => (number, ' '),
    };
    let scale: f64 = match unit {
        ' ' => 1.0,
        'K' => 1024.0,
        'M' => 1024.0 * 1024.0,
        'G' => 1024.0 * 1024.0 * 1024.0,
        other => return Err(format!("`{text}`: unknown unit `{other}` (use K, M or G, e.g. 64M)")),
    };
    let value: f64 = digits.trim().parse().map_err(|_| format!("`{text}` is not a size like 64M, 512K or 1G"))?;
    let bytes = value * scale;
    if !(bytes.is_finite() && bytes >= 1.0 && bytes <= usize::MAX as f64) {
        return Err(format!("`{text}` is not a usable memory size (at least 1 byte)"));
    }
    Ok(bytes as usize)
}

/// The longest `--timeout`, in seconds: the ±1e6 s blendlab accepts for any time.
const MAX_TIMEOUT: f64 = 1e6;

/// Parses a timeout in seconds (`2`, `0.5`): > 0 and at most [`MAX_TIMEOUT`].
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero() && seconds <= MAX_TIMEOUT)
        .ok_or_else(|| format!("the timeout must be a number of seconds > 0 and at most {MAX_TIMEOUT}, got `{text}`"))
}

/// A size as `--max-memory` would take it: `64M`, `512K`, or bytes.
pub fn show_memory(bytes: usize) -> String {
    const UNITS: [(usize, &str); 3] = [(1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")];
    UNITS
        .iter()
        .find(|(size, _)| bytes >= *size && bytes.is_multiple_of(*size))
        .map_or_else(|| format!("{bytes} bytes"), |(size, unit)| format!("{}{unit}", bytes / size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes_take_k_m_g_suffixes() {
        assert_eq!(parse_memory("64M"), Ok(64 << 20));
        assert_eq!(parse_memory("512k"), Ok(512 << 10));
        assert_eq!(parse_memory("1G"), Ok(1 << 30));
        assert_eq!(parse_memory("2MB"), Ok(2 << 20));
        assert_eq!(parse_memory("1.5M"), Ok(3 << 19));
        assert_eq!(parse_memory("65536"), Ok(65536));
        assert!(parse_memory("64X").unwrap_err().contains("unknown unit `X`"));
        assert!(parse_memory("lots").is_err());
        assert!(parse_memory("0").is_err());
        assert!(parse_memory("-5M").is_err());
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("-1").is_err());
        assert!(parse_timeout("nan").is_err());
        assert!(parse_timeout("soon").is_err());
    }

    #[test]
    fn sizes_print_as_they_are_written() {
        assert_eq!(show_memory(64 << 20), "64M");
        assert_eq!(show_memory(1 << 30), "1G");
        assert_eq!(show_memory(1000), "1000 bytes");
    }

    #[test]
    fn an_interrupt_trips_the_watchdog() {
        let watchdog = Watchdog::default();
        assert_eq!(watchdog.tripped(), None);
        watchdog.interrupt.store(true, Ordering::Relaxed);
        assert_eq!(watchdog.tripped().as_deref(), Some("interrupted"));
    }
}

//! The `blendlab` command: `run` a Lua script headless, `check` config files, or (bare) the
//! REPL — a prompt on a terminal, plain lines of Lua from standard input otherwise.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use blendlab::compile::compile;
use blendlab::config::{Diagnostic, SourceFile};
use blendlab::repl;
use blendlab::report::{Style, count};
use blendlab::script::{Confinement, Host, Limits, Output, headless, parse_memory, parse_timeout, partition};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use owo_colors::OwoColorize;

/// mimalloc instead of the system allocator. It keeps blocks of one size together, so the
/// blocks a logic frame reads of each actor (layers, graph numbers, tree numbers) sit next to
/// those of the neighbouring actors rather than between their names and other cold strings,
/// and the event log's small strings come and go cheaply. Measured with `blendlab bench crowd
/// --runs 5` (the median ratio of the engine to the hand-written floor): 5.27 → 5.06 at 1 000
/// actors, 6.72 → 5.57 at 4 000, 6.9 → 6.1 at 10 000, 12.4 → 9.3 at 40 000. Results never
/// depend on the allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "blendlab",
    version,
    about = "Animation sandbox: exact blend weights and event order, scriptable in Lua"
)]
struct Cli {
    /// When to colour output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    color: ColorChoice,
    /// Print timings (start → prompt, save → live) on standard error.
    #[arg(long, hide = true, global = true)]
    measure: bool,
    #[command(subcommand)]
    command: Option<Command>,
    /// TOML configs and Lua scripts to load before the prompt.
    files: Vec<PathBuf>,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Run a Lua script headless; exit 1 if it raises an error or an expectation fails.
    Run {
        /// After the script, keep the session and hot-reload its configs when they change
        /// (not with --timeout, --max-memory, --sandbox, --golden or --partition-check).
        #[arg(long, conflicts_with_all = ["timeout", "max_memory", "sandbox"])]
        watch: bool,
        #[command(flatten)]
        confinement: ConfinementArgs,
        /// Compare what the script prints with FILE (exit 1 with a unified diff if it differs).
        /// The script runs in its own folder, so the paths it prints are relative to it.
        #[arg(long, value_name = "FILE", conflicts_with = "watch")]
        golden: Option<PathBuf>,
        /// With --golden: write FILE with what the script prints.
        #[arg(long)]
        bless: bool,
        /// Run the script again with its clock steps split differently (frame by frame,
        /// seeded random pieces, giant steps) and report any difference in the events, the
        /// final clock or the final weights (tolerance 1e-9).
        #[arg(long, conflicts_with_all = ["watch", "golden"])]
        partition_check: bool,
        /// The script, then what it gets as `arg[1..]` and `...`: everything after the script
        /// is the script's, even what looks like an option, as with `lua`.
        // One list: clap would take an option right after the script for its own.
        #[arg(
            value_name = "SCRIPT [ARGS]",
            required = true,
            num_args = 1..,
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        script: Vec<String>,
    },
    /// Validate config files: every problem as `file:line:col: error: message`.
    Check {
        /// Config files, or folders: every `*.toml` directly in each.
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<PathBuf>,
    },
    /// Check every `*.lua` in the folders against the golden beside it (`NAME.out`), in
    /// parallel, each in its own folder; ends with `N passed, N failed`.
    Test {
        /// Write each golden with what its script prints.
        #[arg(long)]
        bless: bool,
        #[command(flatten)]
        confinement: ConfinementArgs,
        /// Folders of scripts (every `*.lua` directly in each, with `NAME.out` beside it as
        /// its golden), or scripts.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
    },
    /// Print the JSON Schema of the config format (for TOML editors; samples name a copy
    /// with a `#:schema` first line).
    Schema,
    /// Benchmarks against peer runtimes (see ../shared/bench/WORKLOAD.md).
    Bench {
        #[command(subcommand)]
        workload: Workload,
    },
}

/// What every headless run of a script may spend and reach (`run`, `run --golden`,
/// `run --partition-check`, each script of `test`).
#[derive(Args)]
struct ConfinementArgs {
    /// Stop the script with an error (naming the line) after this many seconds; with
    /// --golden, --partition-check or test, each run of it.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout, allow_negative_numbers = true)]
    timeout: Option<Duration>,
    /// Stop the script with an error when its Lua state needs more memory (64M, 512K, 1G).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    max_memory: Option<usize>,
    /// No os, io, debug, dofile, loadfile or C modules; require, bl.load, exports and
    /// --bless only inside the script's folder.
    #[arg(long)]
    sandbox: bool,
}

impl ConfinementArgs {
    fn confinement(&self) -> Confinement {
        Confinement { limits: Limits { timeout: self.timeout, max_memory: self.max_memory }, sandbox: self.sandbox }
    }
}

#[derive(Subcommand)]
enum Workload {
    /// The crowd workload through the engine (`blendlab`), then by hand (`floor`).
    /// `CROWD_DUMP=path` writes the engine's per-character values.
    Crowd {
        /// Characters (N), from 1 to 2 000 000 (each takes about 3.4 KiB of memory).
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=2_000_000))]
        actors: u32,
        /// Logic frames at 60 Hz (F), at least 1: the checksum is taken after frame F − 1.
        #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..))]
        frames: u32,
        /// Runs of each, alternating engine and floor, each pair in a process of its own:
        /// prints the median run of each and, for more than one, a line with the median ratio
        /// of the engine to the floor.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
        runs: u16,
    },
}

/// Whether the line editor can drive a terminal of type `term` (`$TERM`): rustyline cannot
/// start on one that says it is `dumb`, `cons25` or `emacs` (Emacs' shell, some CI consoles),
/// so there the REPL reads plain lines, as from a pipe.
fn editor_runs_on(term: Option<&std::ffi::OsStr>) -> bool {
    !matches!(term.and_then(|t| t.to_str()), Some("dumb" | "cons25" | "emacs"))
}

fn style(choice: ColorChoice, stream_is_terminal: bool) -> Style {
    let color = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => stream_is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    };
    Style { color }
}

fn error_line(style: Style, message: &str) -> String {
    let label = if style.color { "error:".red().bold().to_string() } else { "error:".to_string() };
    format!("{label} {message}")
}

fn host(choice: ColorChoice) -> Result<Host, String> {
    Host::new(Output {
        out: Box::new(std::io::stdout()),
        err: Box::new(std::io::stderr()),
        style: style(choice, std::io::stdout().is_terminal()),
    })
    .map_err(|e| e.message)
}

/// Output piped into a program that stops reading (`blendlab run x.lua | head`) ends
/// blendlab quietly, as it ends any Unix tool, rather than with a `Broken pipe` error: Rust
/// ignores SIGPIPE unless told otherwise.
fn stop_quietly_when_the_reader_goes() {
    #[cfg(unix)]
    // SAFETY: called first in `main`, before any other thread exists; restoring a signal's
    // default action touches no memory of the program.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    stop_quietly_when_the_reader_goes();
    let started = Instant::now();
    let cli = Cli::parse();
    let err_style = style(cli.color, std::io::stderr().is_terminal());
    let options = |files: Vec<PathBuf>| repl::Options {
        files,
        style: style(cli.color, std::io::stdout().is_terminal()),
        err_style,
        terminal: std::io::stdin().is_terminal()
            && std::io::stdout().is_terminal()
            && editor_runs_on(std::env::var_os("TERM").as_deref()),
        history: history_file(),
        measure: cli.measure,
        started,
    };
    if let Some(Command::Run { script, golden, bless, .. }) = &cli.command {
        let refused = unknown_run_option(&script[0])
            .or_else(|| (*bless && golden.is_none()).then(bless_without_golden))
            .or_else(|| refused_run(Path::new(&script[0]), golden.as_deref()));
        if let Some(message) = refused {
            eprintln!("{}", error_line(err_style, &message));
            return ExitCode::from(2);
        }
    }
    let result = match cli.command {
        Some(Command::Run { watch: true, script, .. }) => {
            let (script, args) = script_and_args(&script);
            repl::watch_after_script(options(Vec::new()), &script, args)
        }
        Some(Command::Run { golden: Some(golden), bless, script, confinement, .. }) => {
            let (script, args) = script_and_args(&script);
            return golden_run(err_style, &script, args, &golden, bless, confinement.confinement());
        }
        Some(Command::Run { partition_check: true, script, confinement, .. }) => {
            let (script, args) = script_and_args(&script);
            partition::partition_check(&script, args, confinement.confinement()).map(|summary| println!("{summary}"))
        }
        Some(Command::Run { watch: false, script, confinement, .. }) => {
            let (script, args) = script_and_args(&script);
            return run(cli.color, err_style, &script, args, confinement.confinement());
        }
        Some(Command::Test { bless, confinement, dirs }) => {
            return test(err_style, &dirs, bless, confinement.confinement());
        }
        Some(Command::Schema) => {
            print!("{}", blendlab::config::schema::config_schema_text());
            Ok(())
        }
        Some(Command::Check { files }) => return check(err_style, &files),
        Some(Command::Bench { workload: Workload::Crowd { actors, frames, runs } }) => {
            crowd(actors as usize, frames as usize, runs.into())
        }
        None => {
            let refused: Vec<String> = mistyped_command(&cli.files)
                .map_or_else(|| cli.files.iter().filter_map(|f| neither_config_nor_script(f)).collect(), |m| vec![m]);
            if !refused.is_empty() {
                refused.iter().for_each(|message| eprintln!("{}", error_line(err_style, message)));
                return ExitCode::from(2);
            }
            repl::run(options(cli.files.clone()))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{}", error_line(err_style, &message));
            ExitCode::from(1)
        }
    }
}

/// `run`'s script and the arguments after it, from the one list clap collects (never empty).
fn script_and_args(words: &[String]) -> (PathBuf, &[String]) {
    (PathBuf::from(&words[0]), &words[1..])
}

/// Why `blendlab run WORD …` is refused when WORD, in the script's place, looks like an option
/// and is no file: clap gives `run` everything from its first word that is not one of its
/// options, so a misspelt option (`--tiemout`) would be read as the script's name.
fn unknown_run_option(word: &str) -> Option<String> {
    if !word.starts_with('-') || Path::new(word).exists() {
        return None;
    }
    let cli = Cli::command();
    let run = cli.find_subcommand("run")?;
    let global = cli.get_arguments().filter(|a| a.is_global_set());
    let longs = run.get_arguments().chain(global).filter_map(|a| a.get_long());
    let options: Vec<String> = longs.map(|long| format!("--{long}")).chain(["--help".into()]).collect();
    let name = word.split('=').next().unwrap_or(word);
    let hint = blendlab::config::suggestion(name, options.iter().map(String::as_str))
        .unwrap_or_else(|| "see `blendlab run --help`".into());
    Some(format!("run: unknown option `{word}` (options go before the script); {hint}"))
}

/// Why `run --bless` without `--golden` is refused: it writes the golden file `--golden`
/// names, and with another mode (`--partition-check`, `--watch`, a plain run) it would be
/// ignored without a word.
fn bless_without_golden() -> String {
    "run: --bless writes the golden file of --golden, and there is none: \
     `blendlab run --golden FILE --bless SCRIPT.lua`"
        .into()
}

/// Why `blendlab WORD …` is refused when WORD is no file and has no extension: it is almost
/// always a command mistyped (`blendlab tset tests/scripts`), which would otherwise open the
/// prompt with a file that cannot be read.
fn mistyped_command(files: &[PathBuf]) -> Option<String> {
    let first = files.first().filter(|f| f.extension().is_none() && !f.exists())?;
    let word = first.to_string_lossy();
    let commands = ["run", "check", "test", "schema", "bench"];
    let hint = blendlab::config::suggestion(&word, commands).unwrap_or_else(|| "see `blendlab --help`".into());
    Some(format!("`{word}` is neither a command ({}) nor a file to load at the prompt; {hint}", commands.join(", ")))
}

/// `blendlab run SCRIPT`: exit 0 when it ends, 1 when it fails, its code when it calls
/// `os.exit` (after everything it printed is written).
fn run(color: ColorChoice, err_style: Style, script: &Path, args: &[String], confinement: Confinement) -> ExitCode {
    let ran = host(color).and_then(|host| {
        let run = host.end_script_on_exit().and_then(|()| host.confine(script, confinement));
        match host.finish_script(run.and_then(|()| host.run_file(script, args))) {
            Err(_) if let Some(code) = host.exit_code() => Ok(ExitCode::from(code as u8)),
            Err(e) => Err(e.message),
            Ok(()) => Ok(ExitCode::SUCCESS),
        }
    });
    ran.unwrap_or_else(|message| {
        eprintln!("{}", error_line(err_style, &message));
        ExitCode::from(1)
    })
}

/// `blendlab run --golden FILE [--bless] SCRIPT`: exit 0 when the output matches (or FILE
/// was written), 1 otherwise.
fn golden_run(
    style: Style,
    script: &Path,
    args: &[String],
    golden: &Path,
    bless: bool,
    confinement: Confinement,
) -> ExitCode {
    let verdict = headless::check_golden(script, args, golden, bless, confinement);
    let message = verdict.describe(script, golden, "run again with --bless");
    if verdict.passed() {
        eprintln!("{message}");
        ExitCode::SUCCESS
    } else {
        eprintln!("{}", error_line(style, &message));
        ExitCode::from(1)
    }
}

/// Why `blendlab run [--golden GOLDEN] SCRIPT` is refused before anything runs (exit 2): the
/// script is a config or a golden file ([`blendlab::script::not_a_script`]), or the golden
/// cannot be the script's ([`headless::not_a_golden`]: `--golden a.lua --bless a.out`, the
/// two swapped, would overwrite the script, and is told as such).
fn refused_run(script: &Path, golden: Option<&Path>) -> Option<String> {
    let script_problem = || blendlab::script::not_a_script(script).map(|why| format!("{}: {why}", script.display()));
    let golden_problem = || {
        let golden = golden?;
        headless::not_a_golden(golden, script).map(|what| {
            format!(
                "--golden {}: {what}, not a golden file: give the golden (NAME.out) after --golden, the script last",
                golden.display()
            )
        })
    };
    if golden.is_some_and(|g| g.extension().is_some_and(|e| e == "lua")) {
        golden_problem().or_else(script_problem)
    } else {
        script_problem().or_else(golden_problem)
    }
}

/// `blendlab test DIR…`: every script against its golden, one thread per core.
fn test(style: Style, dirs: &[PathBuf], bless: bool, confinement: Confinement) -> ExitCode {
    let scripts = match headless::find_files(dirs, "lua") {
        Ok(scripts) => scripts,
        Err(message) => {
            eprintln!("{}", error_line(style, &message));
            return ExitCode::from(2);
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let verdicts = headless::run_tests(&scripts, bless, threads, confinement);
    print!("{}", headless::test_report(&scripts, &verdicts));
    if verdicts.iter().all(headless::Verdict::passed) { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// `blendlab bench crowd`: the engine's line, then the floor's (WORKLOAD §6), each the median
/// of `runs` runs; with more than one run, the ratio line after them. One run runs here; each
/// of several runs in a process of its own ([`runs_apart`]).
fn crowd(actors: usize, frames: usize, runs: usize) -> Result<(), String> {
    let comparison = if runs == 1 {
        let (comparison, characters) = blendlab::bench::compare(actors, frames)?;
        // An empty value is no path, as if unset (`CROWD_DUMP= blendlab bench crowd`).
        if let Some(path) = std::env::var_os("CROWD_DUMP").filter(|path| !path.is_empty()) {
            std::fs::write(&path, blendlab::bench::dump(&characters))
                .map_err(|e| format!("CROWD_DUMP: cannot write {}: {e}", PathBuf::from(&path).display()))?;
        }
        comparison
    } else {
        runs_apart(actors, frames, runs)?
    };
    let mut lines = vec![comparison.median_engine().to_string(), comparison.median_floor().to_string()];
    if runs > 1 {
        lines.push(comparison.ratio_line());
    }
    println!("{}", lines.join("\n"));
    Ok(())
}

/// `runs` runs of the crowd, each a `blendlab bench crowd` of one run (the engine, then the
/// floor) in a process of its own, one after the other: as WORKLOAD's peers are measured, each
/// run starts on a fresh heap. Run after run in one process, the engine found the heap the
/// runs before it had left, its actors' blocks no longer side by side, and ran slower: 64 ns
/// per character-frame in a process's first run, 69–73 in the five after it; over
/// `--runs 9`, a median of 68.0–68.2 ns in one process against 65.0–65.9 a process per run.
fn runs_apart(actors: usize, frames: usize, runs: usize) -> Result<blendlab::bench::Comparison, String> {
    let program = std::env::current_exe().map_err(|e| format!("bench: cannot find the blendlab program: {e}"))?;
    let mut comparison = blendlab::bench::Comparison { engine: Vec::new(), floor: Vec::new() };
    for _ in 0..runs {
        let run = std::process::Command::new(&program)
            .args(["bench", "crowd", "--actors", &actors.to_string(), "--frames", &frames.to_string()])
            .stderr(std::process::Stdio::inherit())
            .output()
            .map_err(|e| format!("bench: cannot start a run: {e}"))?;
        let out = String::from_utf8_lossy(&run.stdout);
        match out.lines().map(blendlab::bench::BenchLine::parse).collect::<Option<Vec<_>>>().as_deref() {
            Some([engine, floor]) if run.status.success() => {
                comparison.engine.push(engine.clone());
                comparison.floor.push(floor.clone());
            }
            _ => return Err(format!("bench: a run failed ({}):\n{out}", run.status)),
        }
    }
    Ok(comparison)
}

/// A diagnostic rendered against its file's text, its severity in colour when `style` says so.
fn styled(style: Style, d: &Diagnostic, text: &str) -> String {
    let rendered = d.render(text);
    if !style.color {
        return rendered;
    }
    let label = format!("{}:", d.severity.label());
    let painted = if d.is_error() { label.red().bold().to_string() } else { label.yellow().bold().to_string() };
    rendered.replacen(&label, &painted, 1)
}

/// Why a file named to load is refused: blendlab tells TOML configs and Lua scripts apart by
/// their extension, and anything else (a README, a JSON file) read as TOML would give an
/// error per line.
fn neither_config_nor_script(path: &Path) -> Option<String> {
    let known = path.extension().is_some_and(|e| e == "toml" || e == "lua");
    (!known && !path.is_dir()).then(|| {
        format!("{}: neither a TOML config (.toml) nor a Lua script (.lua): blendlab reads only those", path.display())
    })
}

/// `blendlab check`: every diagnostic of the files as one library; exit 1 on any error.
fn check(style: Style, paths: &[PathBuf]) -> ExitCode {
    let mut sources = Vec::new();
    let mut unreadable = 0;
    let mut files = Vec::new();
    for path in paths {
        if path.extension().is_some_and(|e| e == "lua") {
            let message = format!("{}: a Lua script, not a TOML config: `blendlab run` runs it", path.display());
            eprintln!("{}", error_line(style, &message));
            unreadable += 1;
            continue;
        }
        if let Some(message) = neither_config_nor_script(path) {
            eprintln!("{}", error_line(style, &message));
            unreadable += 1;
            continue;
        }
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        match headless::find_files(std::slice::from_ref(path), "toml") {
            Ok(found) => files.extend(found),
            Err(message) => {
                eprintln!("{}", error_line(style, &message));
                unreadable += 1;
            }
        }
    }
    // A file named twice is one file of the library.
    headless::once_each(&mut files);
    for file in &files {
        match std::fs::read(file) {
            Ok(bytes) => match SourceFile::from_bytes(&file.display().to_string(), bytes) {
                Ok(source) => sources.push(source),
                Err((d, text)) => {
                    eprint!("{}", styled(style, &d, &text));
                    unreadable += 1;
                }
            },
            Err(e) => {
                eprintln!("{}", error_line(style, &format!("{}: cannot read file: {e}", file.display())));
                unreadable += 1;
            }
        }
    }
    let compiled = compile(&sources);
    let mut out = std::io::stdout().lock();
    for d in &compiled.diagnostics {
        let text = sources.iter().find(|s| s.path == d.file).map_or("", |s| s.text.as_str());
        let _ = write!(out, "{}", styled(style, d, text));
    }
    let errors = compiled.diagnostics.iter().filter(|d| d.is_error()).count() + unreadable;
    let warnings = compiled.diagnostics.len() + unreadable - errors;
    let _ = writeln!(
        out,
        "{} checked: {}, {}",
        count(files.len(), "file"),
        count(errors, "error"),
        count(warnings, "warning")
    );
    if errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// Where the REPL keeps history: `$BLENDLAB_HISTORY`, else `~/.blendlab_history`.
fn history_file() -> Option<PathBuf> {
    let explicit = std::env::var_os("BLENDLAB_HISTORY").filter(|v| !v.is_empty()).map(PathBuf::from);
    explicit.or_else(|| {
        std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".blendlab_history"))
    })
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    #[test]
    fn a_dumb_terminal_gets_plain_lines() {
        for (term, editor) in
            [(Some("xterm-256color"), true), (None, true), (Some("dumb"), false), (Some("emacs"), false)]
        {
            assert_eq!(super::editor_runs_on(term.map(OsStr::new)), editor, "{term:?}");
        }
    }
}

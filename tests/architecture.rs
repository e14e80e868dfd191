//! Architecture invariants that a reviewer would otherwise have to remember: the core is
//! pure (no Lua, terminal, file watching, printing, I/O, wall clock or hash-map order).

use std::path::Path;

/// Front-end modules: everything else under `src/` is core.
const FRONT_ENDS: &[&str] = &["script", "repl", "watch", "report", "main.rs", "bench", "lib.rs"];

const FORBIDDEN_IN_CORE: &[&str] = &[
    "mlua",
    "rustyline",
    "notify",
    "owo_colors",
    "println!",
    "print!(",
    "eprintln!",
    "eprint!(",
    "dbg!(",
    "std::fs",
    "std::io",
    "std::time",
    "SystemTime",
    "Instant",
    "HashMap",
    "HashSet",
    "std::env",
    "std::process",
    "thread_rng",
];

fn core_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let top_level = dir == Path::new("src");
        if top_level && FRONT_ENDS.iter().any(|f| name == *f || name == format!("{f}.rs")) {
            continue;
        }
        if path.is_dir() {
            core_files(&path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[test]
fn core_modules_stay_pure() {
    let mut files = Vec::new();
    core_files(Path::new("src"), &mut files);
    assert!(files.len() >= 8, "expected the core modules, found {files:?}");
    let mut violations = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            for word in FORBIDDEN_IN_CORE {
                if code.contains(word) {
                    violations.push(format!("{}:{}: `{word}` in core: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

//! The Lua API as scripts and editors see it: `scripts/blendlab.d.lua` (LuaLS definitions for
//! editors) declares exactly the functions of `bl` and the methods of actor and playback
//! handles, and every recording and sweep method it declares exists; every event the scripts
//! log has only the fields `bl.expect_event` accepts for its kind.

mod common;

use std::collections::BTreeSet;

use blendlab::script::headless::run_captured;

const DEFINITIONS: &str = "scripts/blendlab.d.lua";

/// Names declared as `function PREFIX.NAME(` / `function PREFIX:NAME(`.
fn declared(text: &str, prefix: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("function ")?.strip_prefix(prefix))
        .filter_map(|rest| rest.split('(').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_definitions_match_the_api() {
    let text = std::fs::read_to_string(DEFINITIONS).unwrap();
    assert!(text.starts_with("---@meta\n"));
    let dir = common::scratch("lua-api");
    let script = dir.join("handles.lua");
    let library = std::fs::canonicalize("tests/scripts/graph_layers.toml").unwrap();
    std::fs::write(
        &script,
        format!(
            "bl.load({library:?})\nhero = bl.spawn('hero', {{ graph = 'hero' }})\npb = hero:play('greet', {{ layer = 'upper' }})\n\
             rec = bl.record(hero)\nsw = bl.sweep('moving', 'speed', 0, 1, 2)\n"
        ),
    )
    .unwrap();
    let (output, host) = run_captured(&script, &[], Default::default(), |_| {});
    assert_eq!(output, "", "the setup runs");
    let actual =
        |path: &[&str], methods: bool| -> BTreeSet<String> { host.completions(path, methods).into_iter().collect() };
    assert_eq!(declared(&text, "bl."), actual(&["bl"], false), "functions of bl");
    assert_eq!(declared(&text, "Actor:"), actual(&["hero"], true), "actor methods");
    assert_eq!(declared(&text, "Playback:"), actual(&["pb"], true), "playback methods");
    for (handle, prefix) in [("rec", "Recording:"), ("sw", "Sweep:")] {
        for method in declared(&text, prefix) {
            let kind = host.eval(&format!("type({handle}.{method})")).unwrap();
            assert_eq!(kind, ["function"], "{handle}:{method}");
        }
    }
}

#[test]
fn every_logged_event_has_only_the_fields_of_its_kind() {
    let mut scripts: Vec<std::path::PathBuf> = ["tests/scripts", "scripts"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == "lua") && !p.ends_with("blendlab.d.lua"))
        .collect();
    scripts.sort();
    let mut kinds = BTreeSet::new();
    for script in &scripts {
        let (_, host) = run_captured(script, &[], Default::default(), |_| {});
        host.with_session(|session| {
            for event in session.events().iter() {
                let known = blendlab::event::field_names(event.kind.name());
                for (key, _) in event.kind.fields() {
                    assert!(
                        known.contains(&key),
                        "{}: a {} event has field `{key}`",
                        script.display(),
                        event.kind.name()
                    );
                }
                kinds.insert(event.kind.name());
            }
        });
    }
    // The scripts log nearly every kind, so the list is checked where it matters.
    assert!(kinds.len() >= 18, "only {} kinds logged: {kinds:?}", kinds.len());
}

//! Fault drills: the ways a config file goes bad under a running session — written in two
//! halves, truncated, deleted, replaced by a directory, made unreadable, swapped behind a
//! symbolic link — each followed by a good write. Driven through `Host::reload_configs`,
//! the function the watcher's debounced batches call, so every step is deterministic. After
//! every bad write the live snapshot is still the last good one (compared whole) and the
//! actor's weights are unchanged; the next good write recovers.
//!
//! Tests run as root here, so `chmod 000` would not stop a read: "unreadable" is a dangling
//! symbolic link and a file that is not UTF-8 text instead.

mod common;

use std::path::{Path, PathBuf};

use blendlab::compile::Snapshot;
use blendlab::script::{Host, Output, Reload};

/// A session with `hero` on `dir/loco.toml` (v1) at speed 0.75 after one second.
struct Drill {
    host: Host,
    file: PathBuf,
    good: Snapshot,
    weights: Vec<String>,
    /// The drill's scratch folder, removed with the drill.
    folder: common::Scratch,
}

impl Drill {
    /// A host with the locomotion config loaded from scratch folder `name`.
    fn start(name: &str) -> Drill {
        let folder = common::scratch(name);
        let output =
            Output { out: Box::new(std::io::sink()), err: Box::new(std::io::sink()), style: Default::default() };
        let host = Host::new(output).unwrap();
        let file = common::write_loco(&folder, "v1.toml");
        host.load_config(&file).unwrap();
        host.eval("hero = bl.spawn('hero', { blend_tree = 'locomotion' }) hero:set('speed', 0.75) bl.step(1)").unwrap();
        let good = host.with_session(|s| s.snapshot().clone());
        let weights = host.eval("hero:weights()").unwrap();
        Drill { host, file, good, weights, folder }
    }

    fn reload(&self) -> Reload {
        self.host.reload_configs(&[self.file.display().to_string()])
    }

    /// After `damage`, the reload fails and nothing live changed,
    /// and the session keeps running on it.
    fn survives(&mut self, what: &str, damage: impl FnOnce(&Path)) {
        damage(&self.file);
        assert!(matches!(self.reload(), Reload::Failed { .. }), "{what}: the reload should fail");
        assert!(self.host.with_session(|s| *s.snapshot() == self.good), "{what}: the live snapshot changed");
        assert_eq!(self.host.eval("hero:weights()").unwrap(), self.weights, "{what}: the weights changed");
        self.host.eval("bl.step(0.1)").unwrap();
        self.weights = self.host.eval("hero:weights()").unwrap();
    }

    /// A good write (`text`, at a path cleared of whatever replaced the file) is applied.
    fn recovers(&mut self, what: &str, text: &str) {
        clear(&self.file);
        std::fs::write(&self.file, text).unwrap();
        assert!(matches!(self.reload(), Reload::Applied { .. }), "{what}: the good write should apply");
        self.good = self.host.with_session(|s| s.snapshot().clone());
        self.weights = self.host.eval("hero:weights()").unwrap();
    }
}

/// Removes a file, link or directory at `path`.
fn clear(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path).unwrap(),
        Ok(_) => std::fs::remove_file(path).unwrap(),
        Err(_) => {}
    }
}

#[test]
fn every_bad_write_keeps_the_last_good_snapshot_until_a_good_one() {
    let mut drill = Drill::start("drill-writes");
    let v1 = common::reload_version("v1.toml");
    let v2 = common::reload_version("v2.toml");

    drill.survives("first half of a write", |f| std::fs::write(f, &v1[..v1.len() / 2]).unwrap());
    drill.recovers("second half", &v1);

    drill.survives("truncated to nothing", |f| std::fs::write(f, "").unwrap());
    drill.survives("truncated to blank lines", |f| std::fs::write(f, "\n\n").unwrap());
    drill.survives("truncated mid-key", |f| std::fs::write(f, &v1[..v1.find("length").unwrap() + 3]).unwrap());
    drill.recovers("rewritten whole", &v2);

    drill.survives("deleted", |f| std::fs::remove_file(f).unwrap());
    drill.recovers("restored", &v1);

    drill.survives("replaced by a directory", |f| {
        std::fs::remove_file(f).unwrap();
        std::fs::create_dir(f).unwrap();
    });
    drill.recovers("a file again", &v2);

    drill.survives("unreadable: a dangling symbolic link", |f| {
        std::fs::remove_file(f).unwrap();
        std::os::unix::fs::symlink(f.with_extension("gone"), f).unwrap();
    });
    drill.survives("unreadable: not UTF-8 text", |f| {
        clear(f);
        std::fs::write(f, b"[clips]\nidle = { length = \xff\xfe }\n").unwrap();
    });
    drill.recovers("readable again", &v1);
}

#[test]
fn a_symbolic_link_swapped_between_targets() {
    let mut drill = Drill::start("drill-symlink");
    let dir = drill.folder.to_path_buf();
    let target = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let good = target("good.toml", &common::reload_version("v2.toml"));
    let broken = target("broken.toml", &common::reload_version("broken.toml"));
    // an editor-style swap: a new link made beside the config, renamed over it
    let swap = |to: &Path| {
        let fresh = dir.join("loco.toml.new");
        std::os::unix::fs::symlink(to, &fresh).unwrap();
        std::fs::rename(&fresh, dir.join("loco.toml")).unwrap();
    };

    swap(&good);
    assert!(matches!(drill.reload(), Reload::Applied { .. }), "the link now names v2");
    drill.good = drill.host.with_session(|s| s.snapshot().clone());
    drill.weights = drill.host.eval("hero:weights()").unwrap();
    drill.survives("link swapped to a broken file", |_| swap(&broken));
    drill.survives("link swapped to nothing", |_| swap(&dir.join("missing.toml")));
    swap(&good);
    // the same text as the last good library: a rebuild (the last one failed), no change
    assert!(matches!(drill.reload(), Reload::Applied { .. }));
    assert!(drill.host.with_session(|s| *s.snapshot() == drill.good));
    drill.recovers("a plain file over the link", &common::reload_version("v1.toml"));
}

#[test]
fn a_catch_up_step_over_budget_is_refused_before_any_work() {
    let drill = Drill::start("drill-budget");
    let before = drill.host.with_session(|s| (s.clock().frame(), s.events().len(), format!("{:?}", s.actors())));
    let refused = drill.host.eval("bl.catch_up_budget(10) return pcall(bl.step, 1)").unwrap();
    assert_eq!(refused[0], "false");
    assert!(
        refused[1].contains("that would run 60 logic frames at once, over the catch-up budget of 10"),
        "{refused:?}"
    );
    let after = drill.host.with_session(|s| (s.clock().frame(), s.events().len(), format!("{:?}", s.actors())));
    assert_eq!(before, after, "nothing ran: no frame, no event, no actor change");
    drill.host.eval("bl.step(10 / 60)").unwrap();
    assert_eq!(drill.host.with_session(|s| s.clock().frame()), before.0 + 10, "a step within budget still runs");
}

#[test]
fn an_asset_that_disappears_and_comes_back() {
    let mut drill = Drill::start("drill-vanish");
    let gone = "[parameters]\na = {}\nb = {}\nspeed = {}\n\n[clips]\nidle = { length = 2.0, loop = true }\n\n\
                [blend_trees.other]\ntype = \"1d\"\nparameter = \"a\"\nchildren = [{ motion = \"idle\", threshold = 0.0 }]\n";
    std::fs::write(&drill.file, gone).unwrap();
    assert!(matches!(drill.reload(), Reload::Applied { .. }));
    drill.host.eval("bl.step(0.5)").unwrap();
    drill.recovers("the tree is back", &common::reload_version("v1.toml"));
    drill.host.eval("bl.step(0.5)").unwrap();
    assert_eq!(drill.host.eval("return hero:get('speed')").unwrap(), ["0.75", "0.75"], "the parameter kept its value");
}

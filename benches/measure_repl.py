#!/usr/bin/env python3
"""Measures the REPL as a person feels it, on a pseudo-terminal:
  start → prompt: from spawning `blendlab FILE.toml` until the first `> ` is shown;
  save → live:    from writing a config until its `reload_applied` line is shown
                  (debounce, re-read, compile, migration and the report included).
Usage: python3 benches/measure_repl.py [path/to/blendlab]   (default: target/release/blendlab)
"""
import os, pty, re, select, shutil, statistics, sys, tempfile, time

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/blendlab")
SAMPLE = os.path.abspath("samples/locomotion.toml")


def read_until(fd, pattern, deadline=10.0):
    """Reads from the terminal until `pattern` shows; answers cursor-position queries."""
    seen, start = b"", time.perf_counter()
    while time.perf_counter() - start < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        chunk = os.read(fd, 4096)
        seen += chunk
        if b"\x1b[6n" in chunk:
            os.write(fd, b"\x1b[1;1R")
        if re.search(pattern, seen):
            return time.perf_counter()
    raise SystemExit(f"timed out waiting for {pattern!r}; saw {seen[-400:]!r}")


def start(workdir, config):
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(workdir)
        os.environ.update(TERM="xterm", NO_COLOR="1", HOME=workdir)
        os.execv(BINARY, [BINARY, config])
    return pid, fd


def main():
    workdir = tempfile.mkdtemp(prefix="blendlab-measure-")
    config = os.path.join(workdir, "loco.toml")
    shutil.copy(SAMPLE, config)
    starts = []
    for _ in range(10):
        begun = time.perf_counter()
        pid, fd = start(workdir, config)
        starts.append(read_until(fd, rb"> ") - begun)
        os.write(fd, b"\x04")
        os.waitpid(pid, 0)
        os.close(fd)
    pid, fd = start(workdir, config)
    read_until(fd, rb"> ")
    os.write(fd, b"hero = bl.spawn('hero', { blend_tree = 'locomotion' })\r")
    read_until(fd, rb"> ")
    text, saves = open(config).read(), []
    for generation in range(2, 12):
        threshold = 1.0 + generation / 100
        saved = time.perf_counter()
        with open(config, "w") as f:
            f.write(text.replace("threshold = 1.0", f"threshold = {threshold}"))
        saves.append(read_until(fd, rb"reload_applied generation=%d" % generation) - saved)
        time.sleep(0.3)  # let the next save be a separate one
    os.write(fd, b"\x04")
    os.waitpid(pid, 0)
    shutil.rmtree(workdir)
    ms = lambda xs: f"median {statistics.median(xs) * 1000:.1f} ms, max {max(xs) * 1000:.1f} ms"
    print(f"start → prompt ({len(starts)} runs): {ms(starts)}")
    print(f"save → live    ({len(saves)} saves): {ms(saves)}")


if __name__ == "__main__":
    main()

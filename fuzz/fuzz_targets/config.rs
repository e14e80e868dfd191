//! libFuzzer on the config loader: any bytes (read as text the way a lossy editor would) must
//! compile without a panic, every diagnostic inside the text, and a snapshot exactly when
//! there is no error.

#![no_main]

use blendlab::compile::compile;
use blendlab::config::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let sources = [SourceFile { path: "fuzz.toml".into(), text }];
    let compiled = compile(&sources);
    let text = &sources[0].text;
    for d in &compiled.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?}");
        let _ = d.render(text);
    }
    assert_eq!(compiled.snapshot.is_some(), !compiled.diagnostics.iter().any(|d| d.is_error()));
});

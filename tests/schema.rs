//! The JSON Schema of the config format (`blendlab schema`) matches what the loader accepts:
//! every table's properties are the serde fields of its type, every enum the serde variants;
//! and `samples/blendlab.schema.json` (which the samples' `#:schema` lines name) is current.
//! `BLENDLAB_BLESS=1 cargo test --test schema` rewrites the copy.

mod common;

use std::path::Path;

use blendlab::config::inputs::{RawInputs, RawTrack as RawInputTrack, RawTrigger};
use blendlab::config::raw::{RawBlendTree, RawChild, RawClip, RawParameter};
use blendlab::config::schema::{config_schema, config_schema_text};
use blendlab::config::timeline::{
    RawAudio, RawGraph, RawLayer, RawMarker, RawTask, RawTimeline, RawTimelineClip, RawTrack,
};
use common::{check_golden, files_in};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The backquoted names serde lists after the first in a message like "unknown field `x`,
/// expected one of `a`, `b`" (or "expected `a` or `b`").
fn listed(message: &str) -> Vec<String> {
    message.split('`').skip(3).step_by(2).map(String::from).collect()
}

/// The fields serde accepts for `T`.
fn fields<T: DeserializeOwned>() -> Vec<String> {
    let error = toml::from_str::<T>("zzz_probe = 0").err().expect("an unknown field is rejected");
    listed(error.message())
}

/// The values serde accepts for enum field `key` of `T`.
fn variants<T: DeserializeOwned>(key: &str) -> Vec<String> {
    let error = toml::from_str::<T>(&format!("{key} = \"zzz_probe\"")).err().expect("an unknown variant is rejected");
    assert!(error.message().starts_with("unknown variant"), "{key}: {}", error.message());
    listed(error.message())
}

fn definition<'a>(schema: &'a Value, name: &str) -> &'a Value {
    &schema["definitions"][name]
}

fn properties(schema: &Value, name: &str) -> Vec<String> {
    let properties =
        definition(schema, name)["properties"].as_object().unwrap_or_else(|| panic!("{name} has properties"));
    properties.keys().cloned().collect()
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

#[test]
fn every_table_has_the_fields_the_loader_accepts() {
    let schema = config_schema();
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("clip", fields::<RawClip>()),
        ("parameter", fields::<RawParameter>()),
        ("blend_tree", fields::<RawBlendTree>()),
        ("child", fields::<RawChild>()),
        ("timeline", fields::<RawTimeline>()),
        ("marker", fields::<RawMarker>()),
        ("track", fields::<RawTrack>()),
        ("timeline_clip", fields::<RawTimelineClip>()),
        ("task", fields::<RawTask>()),
        ("graph", fields::<RawGraph>()),
        ("layer", fields::<RawLayer>()),
        ("audio", fields::<RawAudio>()),
        ("inputs", fields::<RawInputs>()),
        ("input_track", fields::<RawInputTrack>()),
        ("trigger", fields::<RawTrigger>()),
    ];
    for (name, fields) in cases {
        assert!(!fields.is_empty(), "{name}: serde listed no fields");
        assert_eq!(sorted(properties(&schema, name)), sorted(fields), "properties of `{name}`");
    }
    let sections: Vec<String> = schema["properties"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(sections, blendlab::config::SECTIONS, "top-level tables");
}

#[test]
fn every_enum_has_the_values_the_loader_accepts() {
    let schema = config_schema();
    let enumeration = |name: &str, key: &str| -> Vec<String> {
        let values =
            definition(&schema, name)["properties"][key]["enum"].as_array().unwrap_or_else(|| panic!("{name}.{key}"));
        values.iter().map(|v| v.as_str().unwrap().to_string()).collect()
    };
    let cases = [
        ("blend_tree", "type", variants::<RawBlendTree>("type")),
        ("blend_tree", "sync", variants::<RawBlendTree>("sync")),
        ("timeline", "wrap", variants::<RawTimeline>("wrap")),
        ("timeline", "duration_mode", variants::<RawTimeline>("duration_mode")),
        ("timeline_clip", "pre_extrapolation", variants::<RawTimelineClip>("pre_extrapolation")),
        ("timeline_clip", "post_extrapolation", variants::<RawTimelineClip>("post_extrapolation")),
        ("track", "kind", variants::<RawTrack>("kind")),
        ("input_track", "interpolation", variants::<RawInputTrack>("interpolation")),
    ];
    for (name, key, variants) in cases {
        assert_eq!(sorted(enumeration(name, key)), sorted(variants), "{name}.{key}");
    }
    // A mix curve is a name or keys: its names are the first of the two forms.
    for key in ["mix_in_curve", "mix_out_curve"] {
        let names = definition(&schema, "timeline_clip")["properties"][key]["anyOf"][0]["enum"].as_array().unwrap();
        let names: Vec<String> = names.iter().map(|v| v.as_str().unwrap().to_string()).collect();
        assert_eq!(sorted(names), sorted(variants::<RawTimelineClip>(key)), "timeline_clip.{key}");
    }
}

#[test]
fn the_samples_name_the_current_schema() {
    if let Some(difference) = check_golden(Path::new("samples/blendlab.schema.json"), &config_schema_text()) {
        panic!("{difference}");
    }
    for sample in files_in("samples", "toml") {
        let text = std::fs::read_to_string(&sample).unwrap();
        assert!(
            text.starts_with("#:schema ./blendlab.schema.json\n"),
            "{} starts with its #:schema line",
            sample.display()
        );
    }
}

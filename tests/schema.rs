//! The JSON Schema of the config format (`blendlab schema`) matches what the loader accepts:
//! every table's properties are the serde fields of its type, every enum the serde variants;
//! and `samples/blendlab.schema.json` (which the samples' `#:schema` lines name) is current.
//! `BLENDLAB_BLESS=1 cargo test --test schema` rewrites the copy. Every config fixture is
//! validated against it (the `jsonschema` crate, draft 7): those the loader accepts must pass,
//! and those it refuses must fail, but for the ones listed in [`BEYOND_A_SCHEMA`] with the
//! reason no JSON Schema can see their error.

mod common;

use std::path::{Path, PathBuf};

use blendlab::compile::compile;
use blendlab::config::inputs::{RawInputs, RawTrack as RawInputTrack, RawTrigger};
use blendlab::config::raw::{RawBlendTree, RawChild, RawClip, RawParameter};
use blendlab::config::schema::{config_schema, config_schema_text, min_positive_seconds, name_rule};
use blendlab::config::timeline::{
    RawAudio, RawGraph, RawLayer, RawMarker, RawTask, RawTimeline, RawTimelineClip, RawTrack,
};
use blendlab::config::{SourceFile, is_hidden_character};
use blendlab::time::Ticks;
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

/// README's "Config reference" stands for DESIGN.md, which a clone does not have: it names
/// every table, every field of every table and every value of every enum, backquoted.
#[test]
fn the_readme_config_reference_names_every_table_field_and_value() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start = readme.find("\n## Config reference\n").expect("README has a Config reference");
    let section = &readme[start + 1..];
    let section = &section[..section[1..].find("\n## ").map_or(section.len(), |end| end + 1)];
    let schema = config_schema();
    let mut missing = Vec::new();
    for table in schema["properties"].as_object().unwrap().keys() {
        if !section.contains(&format!("[{table}")) {
            missing.push(format!("table [{table}]"));
        }
    }
    for (name, definition) in schema["definitions"].as_object().unwrap() {
        let Some(properties) = definition["properties"].as_object() else { continue };
        for (field, property) in properties {
            if !section.contains(&format!("`{field}")) && !section.contains(&format!("{field} =")) {
                missing.push(format!("{name}.{field}"));
            }
            let values = property["enum"].as_array().or_else(|| property["anyOf"][0]["enum"].as_array());
            for value in values.into_iter().flatten().filter_map(Value::as_str) {
                if !section.contains(&format!("`{value}`")) {
                    missing.push(format!("{name}.{field} = {value:?}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "README's Config reference does not name: {missing:#?}");
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

/// The broken fixtures of `tests/config/err` the schema accepts, by why no JSON Schema can
/// refuse them: their error lies between entries, in a sum or an order of numbers, in geometry,
/// or in a whole number written with a fraction (JSON Schema counts `30.0` as an integer).
const BEYOND_A_SCHEMA: &[(&str, &[&str])] = &[
    (
        "a reference to another entry: unknown, of the wrong kind, or a channel its graph lacks",
        &[
            "files_mask_channel_in_other_file",
            "files_parameter_near_miss_across_files",
            "files_reference_typo",
            "files_task_catalog_in_other_file",
            "layer_blend_tree_is_clip",
            "layer_blend_tree_unknown",
            "layer_clip_is_timeline",
            "layer_clip_unknown",
            "layer_mask_unknown_channel",
            "layer_mask_without_channels",
            "layer_timeline_masks_channel_typo",
            "layer_timeline_masks_missing_channel",
            "layer_timeline_unknown",
            "layer_transitions_is_timeline",
            "layer_transitions_unknown",
            "parameter_near_miss_short_names",
            "task_animation_is_timeline",
            "task_animation_unknown",
            "task_audio_unknown",
            "task_audio_unknown_no_catalog",
            "task_hit_profile_unknown",
            "tlclip_motion_is_graph",
            "tlclip_motion_unknown",
            "tree_direct_parameter_near_miss",
            "tree_fdir_parameters_near_miss",
            "tree_motion_empty_name",
            "tree_motion_is_graph",
            "tree_motion_is_timeline",
            "tree_motion_unknown",
            "tree_motion_unknown_far",
            "tree_motion_unknown_hint_no_cycle",
            "tree_motion_unknown_one_letter",
            "tree_parameter_near_miss",
        ],
    ),
    (
        "one name twice: in two sections or files, or in one list of tables",
        &[
            "duplicate_across_files",
            "files_duplicate_audio",
            "files_duplicate_hit_profile",
            "files_duplicate_three_files",
            "files_duplicate_timeline_and_graph",
            "files_duplicate_tree",
            "graph_name_taken_by_clip",
            "layer_duplicate_names",
            "tl_name_taken_by_tree",
            "tlclip_duplicate_names",
            "tree_name_taken_by_clip",
        ],
    ),
    (
        "a cycle of references",
        &[
            "cycles_dense",
            "files_cycle_across_files",
            "files_timeline_cycle_across_files",
            "tl_cycle_self",
            "tl_cycle_two",
            "tree_cycle",
            "tree_cycle_self",
            "tree_cycle_three",
            "tree_cycle_two_separate",
        ],
    ),
    (
        "a size of assets nested by reference",
        &["tl_nesting_too_deep", "tl_playbacks_over_limit", "tree_leaves_over_limit", "tree_nesting_too_deep"],
    ),
    (
        "against the duration the timeline's clips give it",
        &["marker_past_the_end", "marker_timeline_level_past_end", "tl_loop_region", "tl_loop_too_short"],
    ),
    (
        "an order or a sum of numbers: increasing keys, end_frame after start_frame, a clip's end",
        &[
            "param_curve_not_increasing",
            "param_curve_repeated_input",
            "tlclip_end_before_start",
            "tlclip_mix_curve_not_increasing",
            "tlclip_start_at_limit_plus_duration",
        ],
    ),
    (
        "geometry: two children at one position, a triangle's area, or its indices against the children",
        &[
            "tree_fcart_duplicate_position",
            "tree_fdir_duplicate_position",
            "tree_positions",
            "tree_simple_duplicate_position",
            "tree_simple_two_centres",
            "tree_tri_duplicate_position",
            "tree_tri_triangle_huge_index",
            "tree_tri_triangle_out_of_range",
            "tree_tri_triangle_zero_area",
        ],
    ),
    (
        "a whole number written with a fraction: JSON Schema counts 30.0 as an integer",
        &["tl_frame_rate_float_whole", "tree_tri_triangle_floats"],
    ),
    ("a number JSON has no word for: inf or nan deep in a payload", &["task_payload_not_finite"]),
];

/// Config fixtures as the loader reads them: one file, or a folder's files loaded together.
fn fixture_cases() -> Vec<PathBuf> {
    let mut cases = Vec::new();
    for dir in ["tests/config/err", "tests/config/ok"] {
        let entries = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path());
        cases.extend(entries.filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "toml")));
    }
    for dir in [
        "samples",
        "tests/scripts",
        "tests/load",
        "tests/reload",
        "tests/sandbox",
        "tests/fuzz/config",
        "tests/fuzz/lua",
    ] {
        cases.extend(files_in(dir, "toml"));
    }
    cases.push("tests/repl/split_library".into());
    cases.sort();
    cases
}

/// Configs that only load together with others, as their scripts load them: each with the
/// files it is loaded with.
const LOADED_WITH: &[(&str, &[&str])] = &[("tests/scripts/inputs_layers.toml", &["tests/scripts/inputs_data.toml"])];

fn case_files(case: &Path) -> Vec<PathBuf> {
    if case.is_dir() {
        return files_in(case.to_str().unwrap(), "toml");
    }
    let others = LOADED_WITH.iter().find(|(file, _)| case == Path::new(file)).map_or(&[][..], |(_, others)| others);
    others.iter().map(PathBuf::from).chain([case.to_path_buf()]).collect()
}

#[test]
fn the_schema_refuses_every_broken_config_it_can_and_accepts_every_good_one() {
    let schema = config_schema();
    assert!(jsonschema::draft7::meta::is_valid(&schema), "the schema is valid draft-07");
    let validator = jsonschema::draft7::new(&schema).unwrap();
    let beyond: Vec<&str> = BEYOND_A_SCHEMA.iter().flat_map(|(_, cases)| cases.iter().copied()).collect();
    let (mut failures, mut checked) = (Vec::new(), 0);
    for case in fixture_cases() {
        let files = case_files(&case);
        let sources: Vec<SourceFile> = files
            .iter()
            .map(|f| SourceFile { path: f.display().to_string(), text: std::fs::read_to_string(f).unwrap() })
            .collect();
        // A file that is not TOML never reaches a schema: its error is the parser's.
        let Ok(tables) = sources.iter().map(|s| toml::from_str::<toml::Table>(&s.text)).collect::<Result<Vec<_>, _>>()
        else {
            continue;
        };
        checked += 1;
        // TOML's nan and inf have no JSON form: they become null, which no number accepts.
        let errors: Vec<String> = tables
            .iter()
            .zip(&files)
            .flat_map(|(table, file)| {
                let instance = serde_json::to_value(table).unwrap();
                let errors: Vec<String> =
                    validator.iter_errors(&instance).map(|e| format!("{}: {e}", file.display())).collect();
                errors
            })
            .collect();
        let loader_refuses = compile(&sources).diagnostics.iter().any(|d| d.is_error());
        let name = case.file_stem().unwrap().to_str().unwrap();
        let listed = case.starts_with("tests/config/err") && beyond.contains(&name);
        match (loader_refuses, errors.is_empty(), listed) {
            (false, false, _) => {
                failures.push(format!("{}: the loader accepts it, the schema not: {errors:?}", case.display()))
            }
            (true, true, false) => {
                failures.push(format!("{}: the loader refuses it, the schema accepts it", case.display()))
            }
            (_, false, true) => {
                failures.push(format!("{}: listed as beyond a schema, but the schema refuses it", case.display()))
            }
            _ => {}
        }
    }
    assert!(checked > 400, "only {checked} fixtures were checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_schema_s_name_rule_is_the_loader_s() {
    let validator = jsonschema::draft7::new(&name_rule()).unwrap();
    for c in (0..0x3100).chain(0xfe00..0x10000).filter_map(char::from_u32) {
        let bad = is_hidden_character(c) || c == '/' || c == '#';
        assert_eq!(validator.is_valid(&serde_json::json!(format!("a{c}b"))), !bad, "{c:?} inside a name");
    }
    for (name, good) in
        [("walk", true), ("", false), (" ", false), ("\u{3000}", false), ("<x", false), ("x<", true), (" a", true)]
    {
        assert_eq!(validator.is_valid(&serde_json::json!(name)), good, "{name:?}");
    }
}

#[test]
fn the_shortest_time_the_schema_accepts_is_one_tick() {
    let shortest = min_positive_seconds();
    assert_eq!(Ticks::from_secs(shortest), Ok(Ticks(1)));
    assert_eq!(Ticks::from_secs(shortest.next_down()), Ok(Ticks(0)));
}

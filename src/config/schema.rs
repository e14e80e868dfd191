//! A JSON Schema (draft-07) of the config format, for TOML editors (Taplo / Even Better
//! TOML) to complete and check: `blendlab schema` prints it; samples point at a copy with a
//! `#:schema ./blendlab.schema.json` first line. Every table is closed
//! (`additionalProperties: false`), like the loader's `deny_unknown_fields`.
//!
//! The property names and enum values here are checked against the serde types of `raw`,
//! `timeline` and `inputs` by `tests/schema.rs` (which asks serde for each type's fields), so
//! the schema cannot silently drift from what the loader accepts.

use serde_json::{Map, Value, json};

use super::raw::BlendKind;
use crate::timeline::TaskKind;

fn described(mut schema: Value, description: &str) -> Value {
    schema["description"] = json!(description);
    schema
}

fn number(description: &str) -> Value {
    described(json!({ "type": "number" }), description)
}

fn non_negative(description: &str) -> Value {
    described(json!({ "type": "number", "minimum": 0 }), description)
}

fn integer(description: &str) -> Value {
    described(json!({ "type": "integer" }), description)
}

fn string(description: &str) -> Value {
    described(json!({ "type": "string" }), description)
}

fn boolean(description: &str) -> Value {
    described(json!({ "type": "boolean" }), description)
}

fn one_of(values: &[&str], description: &str) -> Value {
    described(json!({ "type": "string", "enum": values }), description)
}

fn names(description: &str) -> Value {
    described(json!({ "type": "array", "items": { "type": "string" } }), description)
}

fn pair(description: &str) -> Value {
    described(json!({ "type": "array", "items": { "type": "number" }, "minItems": 2, "maxItems": 2 }), description)
}

fn list_of(item: Value, description: &str) -> Value {
    described(json!({ "type": "array", "items": item }), description)
}

fn reference(definition: &str) -> Value {
    json!({ "$ref": format!("#/definitions/{definition}") })
}

/// A closed table with `properties` (in order) and the `required` ones.
fn table(description: &str, properties: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let properties: Map<String, Value> = properties.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let mut schema = json!({ "type": "object", "additionalProperties": false, "properties": properties });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    described(schema, description)
}

/// A table of named entries, each following `definition`.
fn named(definition: &str, description: &str) -> Value {
    described(json!({ "type": "object", "additionalProperties": reference(definition) }), description)
}

const EXTRAPOLATION: &[&str] = &["none", "hold", "loop", "ping_pong", "continue"];
const CURVES: &[&str] = &["smoothstep", "linear"];

fn definitions() -> Vec<(&'static str, Value)> {
    let curve = described(
        json!({ "anyOf": [
            { "type": "string", "enum": CURVES },
            { "type": "array", "items": { "type": "array", "items": { "type": "number" }, "minItems": 2, "maxItems": 2 } }
        ] }),
        "a curve name, or keys [[p, value], …] with p and value in [0, 1] and strictly increasing p",
    );
    vec![
        (
            "clip",
            table(
                "A motion: its length and loop flag (Unity: AnimationClip).",
                vec![
                    ("length", non_negative("seconds, at least one tick (1e-12 s)")),
                    ("loop", boolean("wraps at its length (default false)")),
                ],
                &["length"],
            ),
        ),
        (
            "parameter",
            table(
                "Per-parameter settings (REFERENCE §2.7).",
                vec![
                    ("default", number("value before anything sets it (default 0)")),
                    ("smooth_time", non_negative("SmoothDamp time in seconds; 0 = no smoothing")),
                    ("max_speed", number("SmoothDamp's maximum speed, > 0 (default unlimited)")),
                    ("dead_zone", non_negative("|x| below it reads as 0 (radial for 2D trees)")),
                    (
                        "curve",
                        list_of(pair("[in, out]"), "piecewise-linear remap [[in, out], …], strictly increasing in"),
                    ),
                ],
                &[],
            ),
        ),
        (
            "blend_tree",
            table(
                "A blend tree (REFERENCE §2).",
                vec![
                    ("type", one_of(&BlendKind::ALL.map(BlendKind::name), "the blend tree type")),
                    ("parameter", string("1d: the parameter it blends on")),
                    ("parameters", names("2D types: the two parameters [x, y]")),
                    ("children", list_of(reference("child"), "its children, each a clip or another blend tree")),
                    (
                        "sync",
                        one_of(
                            &["normalized", "none"],
                            "normalized: one shared phase (default); none: each child advances by dt",
                        ),
                    ),
                    ("normalize", boolean("direct: divide the weights by their sum")),
                    (
                        "triangles",
                        list_of(
                            json!({ "type": "array", "items": { "type": "integer" }, "minItems": 3, "maxItems": 3 }),
                            "2d_triangulated: triangles as child indices (default: Delaunay)",
                        ),
                    ),
                ],
                &["type", "children"],
            ),
        ),
        (
            "child",
            table(
                "A child of a blend tree.",
                vec![
                    ("motion", string("a clip or blend tree of the library")),
                    ("threshold", number("1d: its threshold")),
                    ("position", pair("2D types: its position [x, y]")),
                    ("parameter", string("direct: the parameter that is its weight")),
                ],
                &["motion"],
            ),
        ),
        (
            "timeline",
            table(
                "A timeline (REFERENCE §3).",
                vec![
                    ("frame_rate", integer("frames per second for frames, markers by frame and tasks (1 to 100000)")),
                    (
                        "wrap",
                        one_of(
                            &["hold", "loop", "none"],
                            "past the duration: hold (default), loop, or complete (none)",
                        ),
                    ),
                    (
                        "duration_mode",
                        one_of(
                            &["based_on_clips", "fixed"],
                            "based_on_clips (default): the latest clip end; fixed: `duration`",
                        ),
                    ),
                    ("duration", non_negative("seconds, with duration_mode = \"fixed\"")),
                    ("markers", list_of(reference("marker"), "markers (signals) on the timeline")),
                    ("tracks", list_of(reference("track"), "its tracks, in order")),
                ],
                &[],
            ),
        ),
        (
            "marker",
            table(
                "A marker: fires a `signal` event when time passes it (REFERENCE §3.7).",
                vec![
                    ("name", string("the signal's name")),
                    ("time", non_negative("seconds from the timeline start")),
                    ("frame", integer("or a frame at the timeline's frame_rate")),
                    ("retroactive", boolean("fire at the first evaluation if the playback starts after it")),
                    ("emit_once", boolean("fire only the first time ever (not again after a loop)")),
                ],
                &["name"],
            ),
        ),
        (
            "track",
            table(
                "A track: an animation track (clips, override sub-tracks) or a group track.",
                vec![
                    ("name", string("the track's name")),
                    ("kind", one_of(&["animation", "group"], "animation (default) or group")),
                    ("muted", boolean("muted tracks contribute nothing")),
                    ("clips", list_of(reference("timeline_clip"), "its clips")),
                    ("tracks", list_of(reference("track"), "group tracks: the tracks inside")),
                    ("overrides", list_of(reference("track"), "override sub-tracks: layers above the track's clips")),
                    ("mask", names("override sub-tracks: the channels they affect")),
                    ("markers", list_of(reference("marker"), "markers on this track")),
                ],
                &["name"],
            ),
        ),
        (
            "timeline_clip",
            table(
                "A clip on a timeline track (REFERENCE §3.1–3.4).",
                vec![
                    ("name", string("its leaf name (default: the motion's name)")),
                    ("start", non_negative("seconds")),
                    ("duration", non_negative("seconds, > 0")),
                    ("start_frame", integer("first logic frame, at the timeline's frame_rate")),
                    ("end_frame", integer("last logic frame (inclusive)")),
                    ("motion", string("a clip, blend tree or (nested) timeline")),
                    ("clip_in", non_negative("seconds into the motion where the clip starts")),
                    ("time_scale", number("0.001 to 1000")),
                    ("ease_in", non_negative("seconds of fade in")),
                    ("ease_out", non_negative("seconds of fade out")),
                    ("mix_in_curve", curve.clone()),
                    ("mix_out_curve", curve),
                    ("pre_extrapolation", one_of(EXTRAPOLATION, "before the clip")),
                    ("post_extrapolation", one_of(EXTRAPOLATION, "after the clip")),
                    ("loop", boolean("a looping playback replays from this clip")),
                    ("task", reference("task")),
                ],
                &[],
            ),
        ),
        (
            "task",
            table(
                "A task run by the clip's lifecycle (REFERENCE §4, §7).",
                vec![
                    ("type", one_of(TaskKind::NAMES, "what the task does")),
                    ("scope", one_of(&["clip", "flow"], "flow: also Disposed when the playback ends")),
                    ("animation", string("PlayAnimation: the state to transition to")),
                    ("audio", string("PlayAudio: a sound of [audio]")),
                    ("hit_profile", string("ApplyHit: a profile of [hit_profiles]")),
                    ("name", string("Emit: the name passed to Lua")),
                    ("payload", described(json!({ "type": "object" }), "Emit: passed through to Lua")),
                    ("fade", non_negative("PlayAnimation: seconds of the crossfade (default 0.1)")),
                ],
                &["type"],
            ),
        ),
        (
            "graph",
            table(
                "A mixer graph: layers (bottom first) over channels (REFERENCE §6).",
                vec![
                    ("channels", names("body regions (default: [\"body\"])")),
                    ("layers", list_of(reference("layer"), "its layers, bottom first")),
                ],
                &["layers"],
            ),
        ),
        (
            "layer",
            table(
                "A graph layer with exactly one source.",
                vec![
                    ("name", string("the layer's name")),
                    ("blend_tree", string("source: a blend tree")),
                    ("timeline", string("source: a timeline slot")),
                    ("clip", string("source: a clip")),
                    ("transitions", string("source: a transition layer starting in this state")),
                    ("weight", number("0 to 1 (default 1)")),
                    ("mask", names("the channels it affects (default: all)")),
                    ("additive", boolean("adds to the layers below instead of overriding")),
                    ("autoplay", boolean("timeline layers: start playing at spawn (default true)")),
                    (
                        "completion_delay",
                        integer("transition layers: frames between a fade reaching 1 and its completion"),
                    ),
                ],
                &["name"],
            ),
        ),
        ("audio", table("A sound of the catalog.", vec![("length", non_negative("seconds, > 0"))], &[])),
        (
            "inputs",
            table(
                "Inputs as data, played by bl.inputs(actor, NAME); times from that moment.",
                vec![
                    ("parameters", named("input_track", "keyframes per parameter")),
                    ("triggers", list_of(reference("trigger"), "things that happen at times")),
                ],
                &[],
            ),
        ),
        (
            "input_track",
            table(
                "One parameter's keyframes.",
                vec![
                    ("keys", list_of(pair("[time_s, value]"), "keys with strictly increasing times ≥ 0")),
                    ("interpolation", one_of(&["linear", "step", "smooth"], "between keys (default linear)")),
                ],
                &["keys"],
            ),
        ),
        (
            "trigger",
            table(
                "At `time`, play a timeline or begin a transition.",
                vec![
                    ("time", non_negative("seconds after bl.inputs")),
                    ("play", string("a timeline to play")),
                    ("transition", string("a state (clip or blend tree) to transition to")),
                    ("layer", string("the layer (required for transitions)")),
                    ("duration", non_negative("transition seconds (default 0.25)")),
                ],
                &["time"],
            ),
        ),
    ]
}

/// The schema of a config file.
pub fn config_schema() -> Value {
    let definitions: Map<String, Value> = definitions().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let sections = vec![
        ("clips", named("clip", "the motion catalog")),
        ("parameters", named("parameter", "optional per-parameter settings")),
        ("blend_trees", named("blend_tree", "blend trees")),
        ("timelines", named("timeline", "timelines")),
        ("graphs", named("graph", "mixer graphs")),
        ("audio", named("audio", "the sound catalog")),
        (
            "hit_profiles",
            described(
                json!({ "type": "object", "additionalProperties": { "type": "object" } }),
                "hit profiles (free-form tables)",
            ),
        ),
        ("inputs", named("inputs", "inputs as data")),
    ];
    let mut schema = table("A blendlab config file: one library with every file loaded beside it.", sections, &[]);
    let object = schema.as_object_mut().expect("a table is an object");
    let mut ordered = Map::new();
    ordered.insert("$schema".into(), json!("http://json-schema.org/draft-07/schema#"));
    ordered.insert("title".into(), json!("blendlab config"));
    ordered.extend(std::mem::take(object));
    ordered.insert("definitions".into(), Value::Object(definitions));
    Value::Object(ordered)
}

/// The schema as printed: pretty JSON with a final line break.
pub fn config_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&config_schema()).expect("a JSON value always prints");
    text.push('\n');
    text
}

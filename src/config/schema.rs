//! A JSON Schema (draft-07) of the config format, for TOML editors (Taplo / Even Better
//! TOML) to complete and check: `blendlab schema` prints it; samples point at a copy with a
//! `#:schema ./blendlab.schema.json` first line. Every table is closed
//! (`additionalProperties: false`), like the loader's `deny_unknown_fields`.
//!
//! It states every local rule of the loader that JSON Schema can: number ranges (a time of at
//! least one tick, every number within ±[`MAX_NUMBER`](super::MAX_NUMBER), time_scale, layer
//! weights, frame rates), the fields each blend tree `type` and each task `type` needs and
//! refuses (`if`/`then` on the type), exactly one of the fields that exclude each other
//! (seconds or frames, `time` or `frame`, one layer source, `play` or `transition`), the name
//! rule (entry keys and the `name` of clips, tracks and layers), where a track may hold what,
//! and array lengths. What it cannot say is left to `blendlab check`: references between
//! names, cycles, sizes of nested assets, geometry (shared positions, triangles), order
//! (increasing keys, `end_frame` after `start_frame`), sums (a clip's end), uniqueness of
//! names inside a list, and the rounding of times to ticks beyond the smallest one.
//! `tests/schema.rs` runs every config fixture through it and lists, with the reason, each
//! broken one it still accepts.
//!
//! The property names and enum values here are checked against the serde types of `raw`,
//! `timeline` and `inputs` by `tests/schema.rs` (which asks serde for each type's fields), so
//! the schema cannot silently drift from what the loader accepts.

use serde_json::{Map, Value, json};

use super::MAX_NUMBER;
use super::blend_tree::placement;
use super::raw::BlendKind;
use super::timeline::MAX_FRAME_RATE;
use crate::time::{MAX_SECONDS, Ticks};
use crate::timeline::TaskKind;

fn described(mut schema: Value, description: &str) -> Value {
    schema["description"] = json!(description);
    schema
}

/// `schema` with the keywords of `extra` added.
fn with(mut schema: Value, extra: Value) -> Value {
    let object = schema.as_object_mut().expect("a schema here is an object");
    object.extend(extra.as_object().expect("extra keywords are an object").clone());
    schema
}

/// A number from `min` to `max`, both included.
fn range(min: f64, max: f64) -> Value {
    json!({ "type": "number", "minimum": min, "maximum": max })
}

/// Any number blendlab accepts: within ±`MAX_NUMBER`.
fn number(description: &str) -> Value {
    described(range(-MAX_NUMBER, MAX_NUMBER), description)
}

/// From 0 to `MAX_NUMBER`.
fn non_negative(description: &str) -> Value {
    described(range(0.0, MAX_NUMBER), description)
}

/// The smallest number of seconds that is at least one tick once rounded to ticks, as every
/// time is (`Ticks::from_secs`): a shorter positive time would become 0, which is refused.
pub fn min_positive_seconds() -> f64 {
    let ticks = |s: f64| Ticks::from_secs(s).map_or(0, |t| t.0);
    let mut s = Ticks(1).secs() / 2.0;
    while ticks(s) < 1 {
        s = s.next_up();
    }
    while ticks(s.next_down()) >= 1 {
        s = s.next_down();
    }
    s
}

/// A duration in seconds: at least one tick, at most `MAX_SECONDS`.
fn positive_seconds(description: &str) -> Value {
    described(range(min_positive_seconds(), MAX_SECONDS), description)
}

/// The largest frame number that is within `MAX_SECONDS` at some frame rate (the fastest).
const MAX_FRAME: f64 = MAX_SECONDS * MAX_FRAME_RATE as f64;

/// A frame number, ≥ 0 and within ±`MAX_SECONDS` at the fastest frame rate.
fn frame(description: &str) -> Value {
    described(json!({ "type": "integer", "minimum": 0, "maximum": MAX_FRAME }), description)
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

/// The characters a name may not hold (`config::is_hidden_character`), as a regex class body.
const HIDDEN: &str = r"\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff";

/// The name rule (`config::name_problems`): not empty nor only whitespace, no `/` or `#`, not
/// starting with `<`, no hidden characters.
pub fn name_rule() -> Value {
    json!({
        "type": "string",
        "allOf": [
            { "pattern": format!("^[^</#{HIDDEN}][^/#{HIDDEN}]*$") },
            { "pattern": r"\S" }
        ]
    })
}

fn name(description: &str) -> Value {
    described(name_rule(), description)
}

/// A channel name: not empty nor only whitespace.
fn channel() -> Value {
    json!({ "type": "string", "pattern": r"\S" })
}

/// A mask: at least one channel, each once.
fn mask(description: &str) -> Value {
    described(json!({ "type": "array", "items": channel(), "minItems": 1, "uniqueItems": true }), description)
}

/// Exactly two `item`s.
fn pair_of(item: Value, description: &str) -> Value {
    described(json!({ "type": "array", "items": item, "minItems": 2, "maxItems": 2 }), description)
}

/// A pair of numbers of any size (finite: JSON has no other).
fn pair(description: &str) -> Value {
    pair_of(json!({ "type": "number" }), description)
}

fn list_of(item: Value, description: &str) -> Value {
    described(json!({ "type": "array", "items": item }), description)
}

/// At least one `item`.
fn non_empty_list_of(item: Value, description: &str) -> Value {
    with(list_of(item, description), json!({ "minItems": 1 }))
}

fn reference(definition: &str) -> Value {
    json!({ "$ref": format!("#/definitions/{definition}") })
}

/// None of `fields` is present.
fn absent(fields: &[&str]) -> Value {
    let each: Vec<Value> = fields.iter().map(|f| json!({ "required": [f] })).collect();
    json!({ "not": { "anyOf": each } })
}

/// `rule` applies when the table's `key` is `value`.
fn when(key: &str, value: &str, rule: Value) -> Value {
    json!({ "if": { "properties": { key: { "const": value } }, "required": [key] }, "then": rule })
}

/// Exactly one of `fields` is present.
fn exactly_one_of(fields: &[&str]) -> Value {
    let each: Vec<Value> = fields.iter().map(|f| json!({ "required": [f] })).collect();
    json!({ "oneOf": each })
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

/// A table of named entries, each following `definition`, their names by the name rule.
fn named(definition: &str, description: &str) -> Value {
    described(
        json!({ "type": "object", "propertyNames": name_rule(), "additionalProperties": reference(definition) }),
        description,
    )
}

const EXTRAPOLATION: &[&str] = &["none", "hold", "loop", "ping_pong", "continue"];
const CURVES: &[&str] = &["smoothstep", "linear"];

/// What each blend tree type needs and refuses: its parameter key (`parameters` for 2D, none
/// for direct), `normalize` only for direct, `triangles` only for 2d_triangulated, and of
/// each child the field that places it (`placement`), no other.
fn blend_tree_rules() -> Value {
    let rules: Vec<Value> = BlendKind::ALL
        .iter()
        .map(|&kind| {
            let (needs, refuses): (&[&str], &[&str]) = match kind {
                BlendKind::OneD => (&["parameter"], &["parameters"]),
                BlendKind::Direct => (&[], &["parameter", "parameters"]),
                _ => (&["parameters"], &["parameter"]),
            };
            let mut refuses = refuses.to_vec();
            if kind != BlendKind::Direct {
                refuses.push("normalize");
            }
            if kind != BlendKind::Triangulated {
                refuses.push("triangles");
            }
            let placed = placement(kind);
            let others: Vec<&str> =
                ["threshold", "position", "parameter"].into_iter().filter(|f| *f != placed).collect();
            let child = with(json!({ "required": [placed] }), absent(&others));
            let rule =
                with(json!({ "required": needs, "properties": { "children": { "items": child } } }), absent(&refuses));
            when("type", kind.name(), rule)
        })
        .collect();
    json!(rules)
}

/// What each task type needs and refuses (`TaskKind::fields`).
fn task_rules() -> Value {
    const OPTIONAL: [&str; 6] = ["animation", "audio", "hit_profile", "name", "payload", "fade"];
    let rules: Vec<Value> = TaskKind::NAMES
        .iter()
        .map(|&kind| {
            let (takes, needs) = TaskKind::fields(kind).expect("every task name has its fields");
            let refuses: Vec<&str> = OPTIONAL.into_iter().filter(|f| !takes.contains(f)).collect();
            let rule = with(json!({ "required": needs.into_iter().collect::<Vec<_>>() }), absent(&refuses));
            when("type", kind, rule)
        })
        .collect();
    json!(rules)
}

/// A track at the root of a timeline or inside a group track: no `mask` (that is for override
/// sub-tracks).
fn root_track() -> Value {
    with(json!({ "allOf": [reference("track")] }), absent(&["mask"]))
}

/// An override sub-track: an animation track without overrides of its own.
fn override_track() -> Value {
    json!({ "allOf": [
        reference("track"),
        { "properties": { "kind": { "const": "animation" }, "overrides": { "maxItems": 0 } } }
    ] })
}

fn definitions() -> Vec<(&'static str, Value)> {
    let curve = described(
        json!({ "anyOf": [
            { "type": "string", "enum": CURVES },
            { "type": "array", "items": pair_of(range(0.0, 1.0), "[p, value]"), "minItems": 2 }
        ] }),
        "a curve name, or keys [[p, value], …] with p and value in [0, 1] and strictly increasing p",
    );
    vec![
        (
            "clip",
            table(
                "A motion: its length and loop flag (Unity: AnimationClip).",
                vec![
                    ("length", positive_seconds("seconds, at least one tick (1e-12 s)")),
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
                    (
                        "smooth_time",
                        non_negative("SmoothDamp time in seconds, 0 smoothing over 1e-4 s; absent: no smoothing"),
                    ),
                    (
                        "max_speed",
                        described(
                            json!({ "type": "number", "exclusiveMinimum": 0, "maximum": MAX_NUMBER }),
                            "SmoothDamp's maximum speed, > 0 (default unlimited)",
                        ),
                    ),
                    ("dead_zone", non_negative("|x| below it reads as 0 (radial for 2D trees)")),
                    (
                        "curve",
                        with(
                            list_of(pair("[in, out]"), "piecewise-linear remap [[in, out], …], strictly increasing in"),
                            json!({ "minItems": 2 }),
                        ),
                    ),
                ],
                &[],
            ),
        ),
        (
            "blend_tree",
            with(
                table(
                    "A blend tree (REFERENCE §2).",
                    vec![
                        ("type", one_of(&BlendKind::ALL.map(BlendKind::name), "the blend tree type")),
                        ("parameter", string("1d: the parameter it blends on")),
                        ("parameters", pair_of(json!({ "type": "string" }), "2D types: the two parameters [x, y]")),
                        (
                            "children",
                            non_empty_list_of(reference("child"), "its children, each a clip or another blend tree"),
                        ),
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
                            non_empty_list_of(
                                json!({
                                    "type": "array",
                                    "items": { "type": "integer", "minimum": 0 },
                                    "minItems": 3,
                                    "maxItems": 3,
                                    "uniqueItems": true
                                }),
                                "2d_triangulated: triangles as three different child indices (default: Delaunay)",
                            ),
                        ),
                    ],
                    &["type", "children"],
                ),
                json!({ "allOf": blend_tree_rules() }),
            ),
        ),
        (
            "child",
            table(
                "A child of a blend tree.",
                vec![
                    ("motion", string("a clip or blend tree of the library")),
                    ("threshold", number("1d: its threshold")),
                    ("position", pair_of(range(-MAX_NUMBER, MAX_NUMBER), "2D types: its position [x, y]")),
                    ("parameter", string("direct: the parameter that is its weight")),
                ],
                &["motion"],
            ),
        ),
        (
            "timeline",
            with(
                table(
                    "A timeline (REFERENCE §3).",
                    vec![
                        (
                            "frame_rate",
                            described(
                                json!({ "type": "integer", "minimum": 1, "maximum": MAX_FRAME_RATE }),
                                "frames per second for frames, markers by frame and tasks (1 to 100000)",
                            ),
                        ),
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
                        ("duration", positive_seconds("seconds, with duration_mode = \"fixed\" (and only then)")),
                        ("markers", list_of(reference("marker"), "markers (signals) on the timeline")),
                        ("tracks", list_of(root_track(), "its tracks, in order")),
                    ],
                    &[],
                ),
                json!({
                    "allOf": [
                        {
                            "if": { "properties": { "duration_mode": { "const": "fixed" } }, "required": ["duration_mode"] },
                            "then": { "required": ["duration"] },
                            "else": absent(&["duration"])
                        },
                        {
                            "if": absent(&["frame_rate"]),
                            "then": {
                                "properties": {
                                    "markers": { "items": absent(&["frame"]) },
                                    "tracks": { "items": reference("track_without_frame_rate") }
                                }
                            }
                        }
                    ]
                }),
            ),
        ),
        (
            "track_without_frame_rate",
            described(
                json!({
                    "properties": {
                        "clips": { "items": absent(&["start_frame", "end_frame", "task"]) },
                        "markers": { "items": absent(&["frame"]) },
                        "tracks": { "items": reference("track_without_frame_rate") },
                        "overrides": { "items": reference("track_without_frame_rate") }
                    }
                }),
                "A track of a timeline without a frame_rate: no frames, no tasks.",
            ),
        ),
        (
            "marker",
            with(
                table(
                    "A marker: fires a `signal` event when time passes it (REFERENCE §3.7).",
                    vec![
                        ("name", string("the signal's name")),
                        ("time", non_negative("seconds from the timeline start")),
                        ("frame", frame("or a frame at the timeline's frame_rate")),
                        ("retroactive", boolean("fire at the first evaluation if the playback starts after it")),
                        ("emit_once", boolean("fire only the first time ever (not again after a loop)")),
                    ],
                    &["name"],
                ),
                exactly_one_of(&["time", "frame"]),
            ),
        ),
        (
            "track",
            with(
                table(
                    "A track: an animation track (clips, override sub-tracks) or a group track.",
                    vec![
                        ("name", name("the track's name")),
                        ("kind", one_of(&["animation", "group"], "animation (default) or group")),
                        ("muted", boolean("muted tracks contribute nothing")),
                        ("clips", list_of(reference("timeline_clip"), "animation tracks: its clips")),
                        ("tracks", list_of(root_track(), "group tracks: the tracks inside")),
                        (
                            "overrides",
                            list_of(override_track(), "animation tracks: override sub-tracks, layers above its clips"),
                        ),
                        ("mask", mask("override sub-tracks: the channels they affect")),
                        ("markers", list_of(reference("marker"), "markers on this track")),
                    ],
                    &["name"],
                ),
                json!({
                    "if": { "properties": { "kind": { "const": "group" } }, "required": ["kind"] },
                    "then": { "properties": { "clips": { "maxItems": 0 }, "overrides": { "maxItems": 0 } } },
                    "else": { "properties": { "tracks": { "maxItems": 0 } } }
                }),
            ),
        ),
        (
            "timeline_clip",
            with(
                table(
                    "A clip on a timeline track (REFERENCE §3.1–3.4).",
                    vec![
                        ("name", name("its leaf name (default: the motion's name)")),
                        ("start", non_negative("seconds")),
                        ("duration", positive_seconds("seconds, > 0")),
                        ("start_frame", frame("first logic frame, at the timeline's frame_rate")),
                        ("end_frame", frame("last logic frame (inclusive), not before start_frame")),
                        ("motion", string("a clip, blend tree or (nested) timeline")),
                        ("clip_in", non_negative("seconds into the motion where the clip starts")),
                        ("time_scale", described(range(0.001, 1000.0), "0.001 to 1000")),
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
                json!({ "anyOf": [
                    with(json!({ "required": ["start", "duration"] }), absent(&["start_frame", "end_frame"])),
                    with(json!({ "required": ["start_frame", "end_frame"] }), absent(&["start", "duration"]))
                ] }),
            ),
        ),
        (
            "task",
            with(
                table(
                    "A task run by the clip's lifecycle (REFERENCE §4, §7).",
                    vec![
                        ("type", one_of(TaskKind::NAMES, "what the task does")),
                        (
                            "scope",
                            one_of(
                                &["clip", "flow"],
                                "flow: also Disposed when the playback ends (on a looping timeline, when its pass ends)",
                            ),
                        ),
                        ("animation", string("PlayAnimation: the state to transition to")),
                        ("audio", string("PlayAudio: a sound of [audio]")),
                        ("hit_profile", string("ApplyHit: a profile of [hit_profiles]")),
                        ("name", string("Emit: the name passed to Lua")),
                        ("payload", described(json!({ "type": "object" }), "Emit: passed through to Lua")),
                        ("fade", non_negative("PlayAnimation: seconds of the crossfade (default 0.1)")),
                    ],
                    &["type"],
                ),
                json!({ "allOf": task_rules() }),
            ),
        ),
        (
            "graph",
            table(
                "A mixer graph: layers (bottom first) over channels (REFERENCE §6).",
                vec![
                    (
                        "channels",
                        described(
                            json!({ "type": "array", "items": channel(), "minItems": 1, "uniqueItems": true }),
                            "body regions, each once (default: [\"body\"])",
                        ),
                    ),
                    ("layers", non_empty_list_of(reference("layer"), "its layers, bottom first")),
                ],
                &["layers"],
            ),
        ),
        (
            "layer",
            with(
                with(
                    table(
                        "A graph layer with exactly one source.",
                        vec![
                            ("name", name("the layer's name")),
                            ("blend_tree", string("source: a blend tree")),
                            ("timeline", string("source: a timeline slot")),
                            ("clip", string("source: a clip")),
                            ("transitions", string("source: a transition layer starting in this state")),
                            ("weight", described(range(0.0, 1.0), "0 to 1 (default 1)")),
                            ("mask", mask("the channels it affects (default: all)")),
                            ("additive", boolean("adds to the layers below instead of overriding")),
                            ("autoplay", boolean("timeline layers: start playing at spawn (default true)")),
                            (
                                "completion_delay",
                                with(
                                    integer("transition layers: frames between a fade reaching 1 and its completion"),
                                    json!({ "minimum": 0 }),
                                ),
                            ),
                        ],
                        &["name"],
                    ),
                    exactly_one_of(&["blend_tree", "timeline", "clip", "transitions"]),
                ),
                json!({ "dependencies": { "autoplay": ["timeline"], "completion_delay": ["transitions"] } }),
            ),
        ),
        ("audio", table("A sound of the catalog.", vec![("length", positive_seconds("seconds, > 0"))], &[])),
        (
            "inputs",
            table(
                "Inputs as data, played by bl.inputs(actor, NAME); times from that moment.",
                vec![
                    (
                        "parameters",
                        described(
                            json!({ "type": "object", "additionalProperties": reference("input_track") }),
                            "keyframes per parameter",
                        ),
                    ),
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
                    (
                        "keys",
                        non_empty_list_of(
                            json!({
                                "type": "array",
                                "items": [range(0.0, MAX_SECONDS), range(-MAX_NUMBER, MAX_NUMBER)],
                                "minItems": 2,
                                "maxItems": 2
                            }),
                            "keys [time_s, value] with strictly increasing times ≥ 0",
                        ),
                    ),
                    ("interpolation", one_of(&["linear", "step", "smooth"], "between keys (default linear)")),
                ],
                &["keys"],
            ),
        ),
        (
            "trigger",
            with(
                with(
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
                    exactly_one_of(&["play", "transition"]),
                ),
                json!({ "dependencies": { "transition": ["layer"], "duration": ["transition"] } }),
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
                json!({ "type": "object", "propertyNames": name_rule(), "additionalProperties": { "type": "object" } }),
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

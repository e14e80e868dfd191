//! Assertions for regression scripts: `bl.expect_event{…}`, `bl.expect_weights(actor, {…},
//! tol)` and `bl.no_duplicate_events()`. A failure is a Lua error located at the script line
//! (`file:line: expectation failed: …`) that shows what was expected and what happened,
//! one above the other, so a failing CI log says what to look at.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mlua::{Lua, Table, Value};

use super::Shared;
use super::api::{actor_of, event_filter, event_table, located};
use crate::config::suggestion;
use crate::event::{Event, EventKind, EventLog, FieldValue, field_names};
use crate::report::{self, Align, Style, event_line, fixed, grid};
use crate::session::Session;
use crate::time::Ticks;

/// Events listed in a failure message at most.
const SHOWN: usize = 8;

/// The keys of a `bl.expect_event` spec besides the event's fields.
const SPEC_KEYS: &[&str] = &["kind", "between", "actor", "count", "frame"];

/// What `bl.expect_event` looks for: a kind, an optional time window, actor and field values.
struct EventSpec {
    kind: String,
    /// Inclusive, in ticks: times given in seconds are rounded to ticks as the clock does,
    /// so `t0 + 0.2` finds an event at the frame time it means.
    between: Option<(Ticks, Ticks)>,
    /// The actor's id and name.
    actor: Option<(usize, String)>,
    count: Option<usize>,
    /// Other keys: field name and wanted value.
    fields: Vec<(String, Value)>,
}

impl EventSpec {
    fn from_table(lua: &Lua, session: &Session, spec: Table) -> mlua::Result<EventSpec> {
        let mut out = EventSpec { kind: String::new(), between: None, actor: None, count: None, fields: Vec::new() };
        for pair in spec.pairs::<String, Value>() {
            let (key, value) = pair?;
            match key.as_str() {
                "kind" => out.kind = String::from_lua_value(lua, value, "kind")?,
                "between" => out.between = Some(window(lua, &value)?),
                "actor" => {
                    let id = actor_of(lua, "bl.expect_event", session, value)?;
                    out.actor = Some((id, session.actor(id).name().to_string()));
                }
                "count" => out.count = Some(usize::from_lua_value(lua, value, "count")?),
                "frame" => {
                    let frame = usize::from_lua_value(lua, value, "frame")?;
                    out.fields.push((key, Value::Number(frame as f64)));
                }
                _ => out.fields.push((key.clone(), field_value(lua, &key, value)?)),
            }
        }
        if out.kind.is_empty() {
            return Err(located(
                lua,
                "bl.expect_event: the spec needs `kind`, e.g. { kind = \"signal\", name = \"hit\" }",
            ));
        }
        super::check_kind(&out.kind).map_err(|m| located(lua, format!("bl.expect_event: {m}")))?;
        // A key that is not a field of the kind would match nothing: a typo, said as one.
        let known = field_names(&out.kind);
        if let Some((_, time)) = out.fields.iter().find(|(key, _)| key == "time") {
            let t = number(time).map_or_else(|| "t".to_string(), crate::config::number);
            return Err(located(
                lua,
                format!(
                    "bl.expect_event: every event has a time, matched with `between = {{ t0, t1 }}` (both \
                     included); for exactly {t} s: between = {{ {t}, {t} }}"
                ),
            ));
        }
        if let Some((key, _)) = out.fields.iter().find(|(key, _)| key != "frame" && !known.contains(&key.as_str())) {
            let hint = suggestion(key, known.iter().copied().chain(SPEC_KEYS.iter().copied()))
                .map_or(String::new(), |h| format!("; {h}"));
            return Err(located(
                lua,
                format!(
                    "bl.expect_event: a {} event has no field `{key}` (its fields: {}; a spec also takes {}){hint}",
                    out.kind,
                    known.join(", "),
                    SPEC_KEYS.join(", ")
                ),
            ));
        }
        out.fields.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    fn matches(&self, event: &Event) -> bool {
        let fields = event.kind.fields();
        event.kind.name() == self.kind
            && self.between.is_none_or(|(t0, t1)| (t0..=t1).contains(&event.time))
            && self.actor.as_ref().is_none_or(|&(id, _)| event.actor() == Some(id))
            && self.fields.iter().all(|(key, wanted)| {
                fields.iter().any(|(k, v)| k == key && field_equals(v, wanted))
                    || (key == "frame" && number(wanted) == Some(event.frame as f64))
            })
    }

    /// `signal name=hit actor=hero between 0.1 s and 0.3 s, 2 times`.
    fn describe(&self) -> String {
        let mut text = self.kind.clone();
        for (key, value) in &self.fields {
            // A string that reads as a number is quoted: `local_frame="8"` never matches the
            // number 8 that the event line shows as `local_frame=8`.
            let shown = match value {
                Value::String(s) if s.to_string_lossy().trim().parse::<f64>().is_ok() => {
                    format!("{:?}", s.to_string_lossy())
                }
                Value::String(s) => s.to_string_lossy(),
                // A list of strings (a reload's `files`), joined as the event line joins it.
                Value::Table(t) if t.raw_len() > 0 => {
                    t.sequence_values::<String>().filter_map(Result::ok).collect::<Vec<_>>().join(",")
                }
                // A table of fields (an `Emit`'s payload), as the event line shows one.
                Value::Table(t) => match toml_table(t, 0) {
                    Some(table) => FieldValue::inline(&table),
                    None => shown(value).unwrap_or_else(|e| e.to_string()),
                },
                other => number(other).map_or_else(|| format!("{other:?}"), crate::config::number),
            };
            let _ = write!(text, " {key}={shown}");
        }
        if let Some((_, actor)) = &self.actor {
            let _ = write!(text, " actor={actor}");
        }
        if let Some((t0, t1)) = self.between {
            let _ = write!(text, " between {} s and {} s", bound(t0), bound(t1));
        }
        match self.count {
            Some(1) => text.push_str(", once"),
            Some(n) => {
                let _ = write!(text, ", {n} times");
            }
            None => {}
        }
        text
    }
}

/// A bound of `between` in seconds: six decimals as event lines show times, or to the tick
/// (twelve) when six would read as another time (`0.7000000000006` is not `0.700000`).
fn bound(t: Ticks) -> String {
    let shown = fixed(t.secs());
    let exact = shown.parse::<f64>().ok().and_then(|s| Ticks::from_secs(s).ok()) == Some(t);
    if exact { shown } else { format!("{:.12}", t.secs()) }
}

/// `between = { t0, t1 }`: exactly two times in seconds, rounded to ticks, the first not
/// after the second.
fn window(lua: &Lua, value: &Value) -> mlua::Result<(Ticks, Ticks)> {
    let times = match value {
        Value::Table(window) if window.pairs::<Value, Value>().count() == 2 => (window.raw_get(1)?, window.raw_get(2)?),
        _ => (Value::Nil, Value::Nil),
    };
    let (Some(t0), Some(t1)) = (number(&times.0), number(&times.1)) else {
        return Err(located(
            lua,
            format!(
                "bl.expect_event: `between` takes two times in seconds, {{ t0, t1 }}, got {}; e.g. between = {{ 0.1, 0.3 }}",
                shown(value)?
            ),
        ));
    };
    let tick = |t: f64| Ticks::from_secs(t).map_err(|e| located(lua, format!("bl.expect_event: between: {e}")));
    let (t0, t1) = (tick(t0)?, tick(t1)?);
    if t1 < t0 {
        let (t0, t1) = (crate::config::number(t0.secs()), crate::config::number(t1.secs()));
        return Err(located(lua, format!("bl.expect_event: `between` = {{ {t0}, {t1} }} ends before it starts")));
    }
    Ok((t0, t1))
}

/// The value a spec wants of an event's field `key`: a string or a number, as fields are, a
/// list of strings for a reload's `files`, or a table for an `Emit`'s `payload`.
fn field_value(lua: &Lua, key: &str, value: Value) -> mlua::Result<Value> {
    let strings =
        |t: &Table| t.raw_len() > 0 && t.sequence_values::<Value>().all(|item| matches!(item, Ok(Value::String(_))));
    match (key, value) {
        (_, value @ (Value::String(_) | Value::Integer(_) | Value::Number(_))) => Ok(value),
        ("files", Value::Table(t)) if strings(&t) => Ok(Value::Table(t)),
        ("payload", value @ Value::Table(_)) => Ok(value),
        (_, other) => Err(located(
            lua,
            format!(
                "bl.expect_event: `{key}` takes a string or a number, as an event's fields are (or a list of \
                 strings, as a reload's `files`, or a table, as an `Emit`'s `payload`), got {}; e.g. {key} = \"walk\"",
                shown(&other)?
            ),
        )),
    }
}

/// Tables nested deeper than this in a spec are not shown as TOML (a table can hold itself).
const MAX_DEPTH: usize = 16;

/// A spec's table of fields as TOML, to show it as an event line shows a payload: a
/// sequence as an array, string keys as a table; `None` for what TOML cannot hold.
fn toml_table(t: &Table, depth: usize) -> Option<toml::Table> {
    if depth > MAX_DEPTH {
        return None;
    }
    let field = |pair: mlua::Result<(Value, Value)>| match pair.ok()? {
        (Value::String(key), value) => Some((key.to_str().ok()?.to_string(), toml_value(&value, depth + 1)?)),
        _ => None,
    };
    t.pairs::<Value, Value>().map(field).collect()
}

fn toml_value(value: &Value, depth: usize) -> Option<toml::Value> {
    Some(match value {
        Value::String(s) => toml::Value::String(s.to_str().ok()?.to_string()),
        Value::Integer(n) => toml::Value::Integer(*n),
        Value::Number(x) => toml::Value::Float(*x),
        Value::Boolean(b) => toml::Value::Boolean(*b),
        Value::Table(t)
            if depth <= MAX_DEPTH && t.raw_len() > 0 && t.pairs::<Value, Value>().count() == t.raw_len() =>
        {
            let items = t.sequence_values::<Value>().map(|item| toml_value(&item.ok()?, depth + 1));
            toml::Value::Array(items.collect::<Option<_>>()?)
        }
        Value::Table(t) => toml::Value::Table(toml_table(t, depth)?),
        _ => return None,
    })
}

/// A value a spec was given, as an error shows it: strings quoted, tables as Lua writes them.
fn shown(value: &Value) -> mlua::Result<String> {
    match value {
        Value::String(s) => Ok(format!("{:?}", s.to_string_lossy())),
        other => super::pretty(other),
    }
}

/// Conversions of spec values with errors that name the key.
trait FromSpec: Sized {
    fn from_lua_value(lua: &Lua, value: Value, key: &str) -> mlua::Result<Self>;
}

impl FromSpec for String {
    fn from_lua_value(lua: &Lua, value: Value, key: &str) -> mlua::Result<Self> {
        match value {
            Value::String(s) => Ok(s.to_string_lossy()),
            other => Err(located(lua, format!("bl.expect_event: `{key}` takes a string, got {}", other.type_name()))),
        }
    }
}

impl FromSpec for usize {
    fn from_lua_value(lua: &Lua, value: Value, key: &str) -> mlua::Result<Self> {
        match number(&value) {
            Some(n) if n >= 0.0 && n.fract() == 0.0 => Ok(n as usize),
            _ => Err(located(
                lua,
                format!("bl.expect_event: `{key}` takes a whole number ≥ 0, got {}; e.g. {key} = 2", shown(&value)?),
            )),
        }
    }
}

fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

fn field_equals(field: &FieldValue, wanted: &Value) -> bool {
    match (field, wanted) {
        (FieldValue::Text(text), Value::String(s)) => s.to_str().is_ok_and(|s| *s == **text),
        (FieldValue::List(items), Value::String(s)) => s.to_str().is_ok_and(|s| *s == FieldValue::joined(items)),
        (FieldValue::List(items), Value::Table(t)) => {
            t.sequence_values::<String>().collect::<mlua::Result<Vec<_>>>().is_ok_and(|wanted| wanted == *items)
        }
        (FieldValue::Table(table), Value::String(s)) => s.to_str().is_ok_and(|s| *s == FieldValue::inline(table)),
        (FieldValue::Table(table), Value::Table(t)) => table_equals(table, t),
        (FieldValue::Int(n), other) => number(other) == Some(*n as f64),
        (FieldValue::Number(x) | FieldValue::Given(x), other) => near(*x, other),
        _ => false,
    }
}

fn near(x: f64, wanted: &Value) -> bool {
    number(wanted).is_some_and(|y| (x - y).abs() <= 1e-9)
}

/// A table of fields (an `Emit`'s payload) equals a Lua table with the same keys and equal
/// values, compared as Lua would: a string only a string (`"3"` is not 3), numbers by value
/// (3 is 3.0), a datetime its TOML text, an array a sequence.
fn table_equals(table: &toml::Table, wanted: &Table) -> bool {
    wanted.pairs::<Value, Value>().count() == table.len()
        && table.iter().all(|(key, value)| wanted.raw_get::<Value>(key.as_str()).is_ok_and(|w| data_equals(value, &w)))
}

fn data_equals(value: &toml::Value, wanted: &Value) -> bool {
    match (value, wanted) {
        (toml::Value::String(text), Value::String(w)) => w.to_str().is_ok_and(|w| *w == **text),
        (toml::Value::Datetime(when), Value::String(w)) => w.to_str().is_ok_and(|w| *w == when.to_string()),
        // As Lua compares them: exactly (2^53 + 1 is not 2^53, nor `math.maxinteger` 2^63).
        (toml::Value::Integer(n), Value::Integer(w)) => n == w,
        (toml::Value::Integer(n), Value::Number(w)) => {
            w.fract() == 0.0 && (-(2f64.powi(63))..2f64.powi(63)).contains(w) && *w as i64 == *n
        }
        (toml::Value::Float(x), other) => near(*x, other),
        (toml::Value::Boolean(b), Value::Boolean(w)) => b == w,
        (toml::Value::Array(items), Value::Table(t)) => {
            t.pairs::<Value, Value>().count() == items.len()
                && items
                    .iter()
                    .enumerate()
                    .all(|(i, item)| t.raw_get::<Value>(i + 1).is_ok_and(|w| data_equals(item, &w)))
        }
        (toml::Value::Table(table), Value::Table(t)) => table_equals(table, t),
        _ => false,
    }
}

/// Up to [`SHOWN`] event lines, indented, with a count of the rest.
fn listing(log: &EventLog, events: &[&Event]) -> String {
    let mut text = String::new();
    for event in events.iter().take(SHOWN) {
        let _ = write!(text, "\n              {}", event_line(event, log.actor_name(event), Style::default()));
    }
    if events.len() > SHOWN {
        let _ = write!(text, "\n              … and {} more", events.len() - SHOWN);
    }
    text
}

/// `bl.expect_event(spec)`: the first matching event (as `bl.events` gives it), nil when
/// `count = 0` holds.
fn expect_event(lua: &Lua, state: &Shared, spec: Table) -> mlua::Result<Option<Table>> {
    let host = state.borrow();
    let spec = EventSpec::from_table(lua, &host.session, spec)?;
    let all = host.session.events();
    let matching: Vec<&Event> = all.iter().filter(|e| spec.matches(e)).collect();
    let found = match spec.count {
        Some(n) => matching.len() == n,
        None => !matching.is_empty(),
    };
    if found {
        return matching.first().map(|e| event_table(lua, e, all.actor_name(e))).transpose();
    }
    let of_kind: Vec<&Event> = all.iter().filter(|e| e.kind.name() == spec.kind).collect();
    let actual = if !matching.is_empty() {
        format!("{}:{}", report::count(matching.len(), "matching event"), listing(all, &matching))
    } else if of_kind.is_empty() {
        format!("no {} event at all", spec.kind)
    } else {
        format!(
            "{}, none matching:{}",
            report::count(of_kind.len(), &format!("{} event", spec.kind)),
            listing(all, &of_kind)
        )
    };
    Err(located(
        lua,
        format!("expectation failed: bl.expect_event\n  expected: {}\n  actual:   {actual}", spec.describe()),
    ))
}

/// The tolerance an assertion of `what` was given: 1e-6 when none; a negative one (or NaN)
/// would fail whatever happened, so it is refused as the script's mistake.
pub(crate) fn tolerance(lua: &Lua, what: &str, tol: Option<f64>) -> mlua::Result<f64> {
    match tol.unwrap_or(1e-6) {
        tol if tol >= 0.0 => Ok(tol),
        tol => {
            Err(located(lua, format!("{what}: the tolerance must be a number ≥ 0, got {}", crate::config::number(tol))))
        }
    }
}

/// `bl.expect_weights(actor, { leaf = w, … }, tol, channel)`.
fn expect_weights(lua: &Lua, state: &Shared, args: (Value, Table, Option<f64>, Option<String>)) -> mlua::Result<()> {
    let (actor, expected, tol, channel) = args;
    let tol = tolerance(lua, "bl.expect_weights", tol)?;
    let id = actor_of(lua, "bl.expect_weights", &state.borrow().session, actor)?;
    state.borrow_mut().session.refresh_graph(id);
    let host = state.borrow();
    let a = host.session.actor(id);
    let graph = host.session.graph(id);
    let c = match &channel {
        Some(name) => graph.channels().iter().position(|ch| ch == name).ok_or_else(|| {
            let hint = suggestion(name, graph.channels().iter().map(String::as_str))
                .map_or(String::new(), |h| format!("; {h}"));
            let channels = graph.channels().join(", ");
            located(
                lua,
                format!(
                    "bl.expect_weights: actor `{}` has no channel `{name}` (its channels: {channels}){hint}",
                    a.name()
                ),
            )
        })?,
        None => 0,
    };
    let mut actual: Vec<(String, f64)> =
        graph.leaves().iter().zip(graph.weights(c)).map(|(l, &w)| (l.name.clone(), w)).collect();
    actual.push(("<default>".into(), graph.default_share(c)));
    let mut wanted: Vec<(String, f64)> = Vec::new();
    for pair in expected.pairs::<String, Value>() {
        let (leaf, weight) =
            pair.map_err(|e| located(lua, format!("bl.expect_weights: expects {{ leaf = weight, … }}: {e}")))?;
        // A weight is a number, never a string that reads as one (as `bl.expect_event`'s
        // fields): `{ walk = "0.5" }` is a mistake to point out, not to convert.
        let weight = match weight {
            Value::Integer(w) => w as f64,
            Value::Number(w) => w,
            other => {
                let message =
                    format!("bl.expect_weights: the weight of `{leaf}` must be a number, got {}", other.type_name());
                return Err(located(lua, message));
            }
        };
        if !actual.iter().any(|(name, _)| *name == leaf) {
            let hint =
                suggestion(&leaf, actual.iter().map(|(n, _)| n.as_str())).map_or(String::new(), |h| format!("; {h}"));
            return Err(located(lua, format!("bl.expect_weights: actor `{}` has no leaf `{leaf}`{hint}", a.name())));
        }
        wanted.push((leaf, weight));
    }
    if wanted.is_empty() {
        return Err(located(
            lua,
            "bl.expect_weights: nothing to check: name at least one leaf, e.g. { walk = 0.5 } (\"<default>\" too)",
        ));
    }
    let within = |w: f64, e: f64| w == e || (w - e).abs() <= tol; // false for NaN
    let off = |leaf: &str, w: f64| wanted.iter().find(|(n, _)| n == leaf).is_some_and(|&(_, e)| !within(w, e));
    if !actual.iter().any(|(leaf, w)| off(leaf, *w)) {
        return Ok(());
    }
    let rows: Vec<Vec<String>> = actual
        .iter()
        .map(|(leaf, w)| {
            let expected = wanted.iter().find(|(n, _)| n == leaf).map(|(_, e)| *e);
            let mismatch = off(leaf, *w);
            let show = |x: f64| {
                if mismatch && expected.is_some_and(|e| fixed(e) == fixed(*w)) { format!("{x}") } else { fixed(x) }
            };
            let mark = if mismatch { "✗" } else { "" };
            vec![leaf.clone(), expected.map_or("—".into(), show), show(*w), mark.into()]
        })
        .collect();
    let table =
        grid("  ", &["leaf", "expected", "actual", ""], &[Align::Left, Align::Right, Align::Right, Align::Left], &rows);
    let channel = graph.channels()[c].as_str();
    Err(located(
        lua,
        format!(
            "expectation failed: weights of {} ({channel}) off by more than {}\n{}",
            a.name(),
            crate::config::number(tol),
            table.trim_end()
        ),
    ))
}

/// `bl.no_duplicate_events(filter)`: no event alike (frame, actor, kind, fields) more often
/// than its actor ran passes in that frame ([`repeated_events`]).
fn no_duplicate_events(lua: &Lua, state: &Shared, filter: Option<Table>) -> mlua::Result<()> {
    let host = state.borrow();
    let filter = event_filter(lua, &host.session, "bl.no_duplicate_events", filter)?;
    let repeated = repeated_events(host.session.events(), |e| filter.matches(e));
    if repeated.is_empty() {
        return Ok(());
    }
    let mut text = format!(
        "expectation failed: bl.no_duplicate_events\n  expected: every event once (per pass of a looping timeline)\n  \
         actual:   {} more than once:",
        report::count(repeated.len(), "event")
    );
    for (event, count, passes) in repeated.iter().take(SHOWN) {
        let line = event_line(event, host.session.events().actor_name(event), Style::default());
        let passes = if *passes > 1 { format!(" in {passes} passes") } else { String::new() };
        let _ = write!(text, "\n              {line} (×{count}{passes})");
    }
    Err(located(lua, text))
}

/// The events of `log` that `keep` keeps and that happened more often in one frame, for one
/// actor, than that actor ran passes in the frame: each with how many times, and the passes.
/// Each pass of a looping timeline runs its clips' tasks and fires its markers again, so a
/// frame or a seek that spans several passes logs the same events once per pass (a long
/// frame logs every pass's tasks before its `timeline_looped` events): an actor runs one pass
/// more in a frame than it logs `timeline_looped` events there (counted in the whole log,
/// whatever `keep` keeps). A loop of one of its timelines allows a repeat of any of its
/// events in that frame.
fn repeated_events(log: &EventLog, keep: impl Fn(&Event) -> bool) -> Vec<(&Event, usize, usize)> {
    let mut passes: BTreeMap<(i64, Option<usize>), usize> = BTreeMap::new();
    for event in log.iter().filter(|e| matches!(e.kind, EventKind::TimelineLooped { .. })) {
        *passes.entry((event.frame, event.actor())).or_insert(1) += 1;
    }
    let events: Vec<&Event> = log.iter().filter(|e| keep(e)).collect();
    let mut repeated = Vec::new();
    for (i, event) in events.iter().enumerate() {
        let same =
            |other: &&Event| other.frame == event.frame && other.actor() == event.actor() && other.kind == event.kind;
        if events[..i].iter().any(same) {
            continue;
        }
        let count = 1 + events[i + 1..].iter().filter(|e| same(e)).count();
        let passes = passes.get(&(event.frame, event.actor())).copied().unwrap_or(1);
        if count > passes {
            repeated.push((*event, count, passes));
        }
    }
    repeated
}

/// Adds `expect_event`, `expect_weights` and `no_duplicate_events` to the raw table.
pub(crate) fn add_raw_functions(lua: &Lua, raw: &Table, state: &Shared) -> mlua::Result<()> {
    let s = state.clone();
    raw.set("expect_event", lua.create_function(move |lua, spec: Table| expect_event(lua, &s, spec))?)?;
    let s = state.clone();
    raw.set(
        "expect_weights",
        lua.create_function(move |lua, args: (Value, Table, Option<f64>, Option<String>)| {
            expect_weights(lua, &s, args)
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "no_duplicate_events",
        lua.create_function(move |lua, filter: Option<Table>| no_duplicate_events(lua, &s, filter))?,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_repeats_once_per_pass_of_its_actor_in_a_frame() {
        let mut log = EventLog::default();
        let enable = |clip: &str| EventKind::ClipEnable { clip: clip.into() };
        let looped = || EventKind::TimelineLooped { timeline: "t".into(), count: 1 };
        // Frame 1: actor 0 runs two passes (one loop, logged after the passes' events, as a
        // long frame logs them): `x` twice is no duplicate, `y` three times is. Actor 1's
        // loop allows actor 0 nothing; actor 1 has no repeat. Frame 2: one pass, `x` twice.
        let frames = [
            (1, 0, enable("x")),
            (1, 0, enable("y")),
            (1, 0, enable("x")),
            (1, 0, enable("y")),
            (1, 0, enable("y")),
            (1, 1, looped()),
            (1, 1, enable("x")),
            (1, 0, looped()),
            (2, 0, enable("x")),
            (2, 0, enable("x")),
        ];
        for (frame, actor, kind) in frames {
            log.push(Event::new(frame, Ticks::ZERO, Some(actor), kind));
        }
        let repeated = repeated_events(&log, |_| true);
        let shown: Vec<_> =
            repeated.iter().map(|(e, count, passes)| (e.frame, e.kind.clone(), *count, *passes)).collect();
        assert_eq!(shown, [(1, enable("y"), 3, 2), (2, enable("x"), 2, 1)]);
    }
}

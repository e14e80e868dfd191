//! `bl.events_jsonl(path)`: the event log as JSON Lines — one object per event with `frame`,
//! `time` (seconds), `actor` (or null), `kind` and the kind's fields (a list, a reload's
//! `files`, as an array of strings; a table, an `Emit`'s payload, as an object with its
//! TOML types) — for tools that read the log without knowing Lua.

use std::fmt::Write as _;

use crate::event::{Event, EventLog, FieldValue};

/// A JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number (shortest text that reads back as the same `f64`); `null` if not finite.
pub fn json_number(x: f64) -> String {
    if x.is_finite() { format!("{x}") } else { "null".into() }
}

/// One event as one line of JSON; `actor` is the name of the actor it concerns.
pub fn event_json(event: &Event, actor: Option<&str>) -> String {
    let actor = actor.map_or("null".into(), json_string);
    let mut line = format!(
        "{{\"frame\":{},\"time\":{},\"actor\":{actor},\"kind\":{}",
        event.frame,
        json_number(event.time.secs()),
        json_string(event.kind.name())
    );
    for (key, value) in event.kind.fields() {
        let value = match value {
            FieldValue::Text(text) => json_string(&text),
            FieldValue::Int(n) => n.to_string(),
            FieldValue::Number(x) | FieldValue::Given(x) => json_number(x),
            FieldValue::List(items) => {
                format!("[{}]", items.iter().map(|item| json_string(item)).collect::<Vec<_>>().join(","))
            }
            FieldValue::Table(table) => json_object(&table),
        };
        let _ = write!(line, ",{}:{value}", json_string(key));
    }
    line.push('}');
    line
}

/// A TOML table as a JSON object, keys in the table's (sorted) order.
fn json_object(table: &toml::Table) -> String {
    let members: Vec<String> =
        table.iter().map(|(key, value)| format!("{}:{}", json_string(key), json_value(value))).collect();
    format!("{{{}}}", members.join(","))
}

/// A TOML value as JSON of the same type: a float keeps its point (`3.0`, as TOML and Lua
/// tell it from the integer 3; `null` if not finite), a datetime is its TOML text.
fn json_value(value: &toml::Value) -> String {
    match value {
        toml::Value::String(text) => json_string(text),
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::Float(x) if x.is_finite() => format!("{x:?}"),
        toml::Value::Float(_) => "null".into(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(when) => json_string(&when.to_string()),
        toml::Value::Array(items) => format!("[{}]", items.iter().map(json_value).collect::<Vec<_>>().join(",")),
        toml::Value::Table(table) => json_object(table),
    }
}

/// Every event of `log` that `keep` keeps, one per line.
pub fn events_jsonl(log: &EventLog, keep: impl Fn(&Event) -> bool) -> String {
    log.iter().filter(|e| keep(e)).map(|e| event_json(e, log.actor_name(e)) + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Command, EventKind};
    use crate::time::Ticks;

    #[test]
    fn events_become_json_objects() {
        let signal = EventKind::Signal { name: "hit\n".into(), timeline: "a".into() };
        let event = Event::new(3, Ticks(50_000_000_000), Some(0), signal);
        assert_eq!(
            event_json(&event, Some("hero \"1\"")),
            r#"{"frame":3,"time":0.05,"actor":"hero \"1\"","kind":"signal","name":"hit\n","timeline":"a"}"#
        );
        let args = vec![("fade".to_string(), FieldValue::Given(0.1))];
        let command = Command { kind: "PlayAnimation".into(), source: "s".into(), args };
        let command = Event::new(3, Ticks(50_000_000_000), Some(0), EventKind::Command(Box::new(command)));
        assert!(
            event_json(&command, None).ends_with(r#""type":"PlayAnimation","source":"s","fade":0.1}"#),
            "a number, not text"
        );
        // A file whose name holds a comma stays one item: no reader has to split a string.
        let files = vec!["a,b.toml".to_string(), "c.toml".to_string()];
        let reload = Event::new(0, Ticks(0), None, EventKind::ReloadApplied { generation: 2, files });
        let parsed: serde_json::Value = serde_json::from_str(&event_json(&reload, None)).unwrap();
        assert_eq!(parsed["files"], serde_json::json!(["a,b.toml", "c.toml"]), "an array of strings");
        assert_eq!(json_string("\u{1}"), "\"\\u0001\"");
        assert_eq!(json_number(f64::NAN), "null");
    }

    /// A payload is an object with its TOML types: "3" stays a string, 2.0 a float.
    #[test]
    fn a_payload_is_an_object_of_its_types() {
        let payload: toml::Table = "n = \"3\"\npower = 3\nwhole = 2.0\nnested = { x = [1, 2] }".parse().unwrap();
        let args = vec![("payload".to_string(), FieldValue::Table(payload))];
        let command = Command { kind: "Emit".into(), source: "s".into(), args };
        let line = event_json(&Event::new(0, Ticks(0), None, EventKind::Command(Box::new(command))), None);
        assert!(line.ends_with(r#""payload":{"n":"3","nested":{"x":[1,2]},"power":3,"whole":2.0}}"#), "{line}");
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        let payload = &parsed["payload"];
        assert!(payload["n"].is_string() && payload["power"].is_i64() && payload["whole"].is_f64(), "{payload}");
    }
}

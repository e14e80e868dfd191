//! `bl.events_jsonl(path)`: the event log as JSON Lines — one object per event with `frame`,
//! `time` (seconds), `actor` (or null), `kind` and the kind's fields (a list, a reload's
//! `files`, as an array of strings) — for tools that read the log without knowing Lua.

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
        };
        let _ = write!(line, ",{}:{value}", json_string(key));
    }
    line.push('}');
    line
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
}

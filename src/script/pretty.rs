//! The one way the REPL shows a Lua value, and the way a script's `print` shows a table, a
//! function or a userdata. Tables are sorted by key and indented, so the same
//! value always prints the same bytes; values with `__tostring` (actors, handles) print
//! their short summary; functions print where they were defined (`builtin` for C and for
//! blendlab's own Lua) and files whether they are open, instead of an address.

use std::fmt::Write as _;

use mlua::{Function, Table, Value};

/// Lines longer than this are split one entry per line.
const ONE_LINE_WIDTH: usize = 72;
/// Nested tables deeper than this print as `{…}`.
const MAX_DEPTH: usize = 8;

/// `value` as the REPL prints a result: strings bare (so `actor:table()` shows a table),
/// everything else as `nested` does.
pub fn pretty(value: &Value) -> mlua::Result<String> {
    match value {
        Value::String(s) => Ok(s.to_string_lossy()),
        other => nested(other),
    }
}

/// `value` inside a structure: strings quoted.
fn nested(value: &Value) -> mlua::Result<String> {
    let mut seen = Vec::new();
    render(value, 0, &mut seen)
}

fn render(value: &Value, depth: usize, seen: &mut Vec<usize>) -> mlua::Result<String> {
    Ok(match value {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(n) => n.to_string(),
        Value::Number(x) => number(*x),
        Value::String(s) => format!("{:?}", s.to_string_lossy()),
        Value::Function(f) => function(f),
        Value::Table(t) if t.metatable().is_some_and(|m| m.contains_key("__tostring").unwrap_or(false)) => {
            value.to_string()?
        }
        Value::Table(t) => table(t, depth, seen)?,
        Value::UserData(_) => userdata(value)?,
        Value::Error(e) => format!("error: {}", super::root_message(e)),
        other => other.type_name().to_string(),
    })
}

/// A float as Lua 5.4 prints it: `%.14g`, plus `.0` when that looks like an integer.
fn number(x: f64) -> String {
    if !x.is_finite() {
        let text = if x.is_nan() { "nan" } else { "inf" };
        return if x.is_sign_negative() { format!("-{text}") } else { text.into() };
    }
    let scientific = format!("{x:.13e}");
    let (mantissa, exponent) = scientific.split_once('e').expect("`{:e}` always has an exponent");
    let exponent: i32 = exponent.parse().expect("an integer exponent");
    let trim = |text: &str| {
        if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text.to_string() }
    };
    if !(-4..14).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", trim(mantissa), exponent.abs());
    }
    let decimals = (13 - exponent) as usize;
    let text = trim(&format!("{x:.decimals$}"));
    if text.contains('.') { text } else { format!("{text}.0") }
}

/// A function as `print` shows it: where it was defined, or `builtin` for a C function and for
/// blendlab's own Lua that wraps one (`bl.spawn`).
fn function(f: &Function) -> String {
    let info = f.info();
    let internal = info.source.as_deref().is_some_and(|source| super::api::INTERNAL_CHUNKS.contains(&source));
    match (info.what == "C" || internal, info.short_src, info.line_defined) {
        (true, ..) => "function: builtin".into(),
        (false, Some(src), Some(line)) => format!("function: {src}:{line}"),
        _ => "function".into(),
    }
}

/// A userdata as Lua's `tostring` has it (an actor's summary), less the address Lua gives a
/// file handle (`io.stdout`, what `io.open` returns): `file`, or `file (closed)`. The text is
/// what tells a file: mlua cannot read the metatable of a userdata it did not make.
fn userdata(value: &Value) -> mlua::Result<String> {
    let text = value.to_string()?;
    let open_file = text.starts_with("file (") && text != "file (closed)";
    Ok(if open_file { "file".into() } else { text })
}

/// How keys sort: numbers (ascending), then strings, then anything else by type.
fn key_order(key: &Value) -> (u8, f64, String) {
    match key {
        Value::Integer(n) => (0, *n as f64, String::new()),
        Value::Number(x) => (0, *x, String::new()),
        Value::String(s) => (1, 0.0, s.to_string_lossy()),
        other => (2, 0.0, other.type_name().to_string()),
    }
}

fn is_identifier(key: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
        "not", "or", "repeat", "return", "then", "true", "until", "while",
    ];
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&key)
}

fn table(t: &Table, depth: usize, seen: &mut Vec<usize>) -> mlua::Result<String> {
    let address = t.to_pointer() as usize;
    if seen.contains(&address) {
        return Ok("<cycle>".into());
    }
    if depth >= MAX_DEPTH {
        return Ok("{…}".into());
    }
    let mut pairs = t.pairs::<Value, Value>().collect::<mlua::Result<Vec<_>>>()?;
    if pairs.is_empty() {
        return Ok("{}".into());
    }
    pairs.sort_by(|(a, _), (b, _)| {
        let (a, b) = (key_order(a), key_order(b));
        a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2))
    });
    let sequence = pairs.iter().enumerate().all(|(i, (k, _))| matches!(k, Value::Integer(n) if *n == i as i64 + 1));
    seen.push(address);
    let mut entries = Vec::new();
    for (key, value) in &pairs {
        let value = render(value, depth + 1, seen)?;
        entries.push(match key {
            _ if sequence => value,
            Value::String(s) if is_identifier(&s.to_string_lossy()) => format!("{} = {value}", s.to_string_lossy()),
            other => format!("[{}] = {value}", render(other, depth + 1, seen)?),
        });
    }
    seen.pop();
    let one_line = format!("{{ {} }}", entries.join(", "));
    if one_line.len() <= ONE_LINE_WIDTH && !one_line.contains('\n') {
        return Ok(one_line);
    }
    let mut out = String::from("{\n");
    for entry in entries {
        let _ = writeln!(out, "  {},", entry.replace('\n', "\n  "));
    }
    out.push('}');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(code: &str) -> String {
        let lua = mlua::Lua::new();
        pretty(&lua.load(code).eval::<Value>().unwrap()).unwrap()
    }

    #[test]
    fn numbers_print_as_lua_does() {
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(1.0 / 3.0), "0.33333333333333");
        assert_eq!(number(2.0), "2.0");
        assert_eq!(number(1e100), "1e+100");
        assert_eq!(number(1.5e-7), "1.5e-07");
        assert_eq!(number(-0.25), "-0.25");
        assert_eq!(number(123456.789), "123456.789");
        assert_eq!(number(0.0), "0.0");
        assert_eq!(number(1e13), "10000000000000.0");
        assert_eq!(number(1e14), "1e+14");
        assert_eq!(number(0.0001), "0.0001");
    }

    #[test]
    fn tables_sort_by_key_and_break_long_lines() {
        assert_eq!(show("{ b = 2, a = 1, [1] = 'x' }"), r#"{ [1] = "x", a = 1, b = 2 }"#);
        assert_eq!(show("{ 'a', 'b' }"), r#"{ "a", "b" }"#);
        assert_eq!(show("{}"), "{}");
        assert_eq!(show("{ ['<default>'] = 0.5, ['end'] = true }"), r#"{ ["<default>"] = 0.5, ["end"] = true }"#);
        let long = show("{ alpha = string.rep('x', 30), beta = string.rep('y', 30), gamma = { 1, 2 } }");
        assert_eq!(
            long,
            format!(
                "{{\n  alpha = \"{}\",\n  beta = \"{}\",\n  gamma = {{ 1, 2 }},\n}}",
                "x".repeat(30),
                "y".repeat(30)
            )
        );
    }

    #[test]
    fn cycles_functions_and_strings() {
        assert_eq!(show("local t = {} t.self = t return t"), "{ self = <cycle> }");
        assert_eq!(show("print"), "function: builtin");
        assert_eq!(show("load('return function() end', '=[bl]')()"), "function: builtin");
        assert_eq!(show("load('return function() end', '=x')()"), "function: x:1");
        assert_eq!(show("'bare'"), "bare");
        assert_eq!(show("{ 'quoted\\n' }"), r#"{ "quoted\n" }"#);
    }

    #[test]
    fn files_print_without_their_address() {
        assert_eq!(show("io.stdout"), "file");
        assert_eq!(show("{ out = io.stdout }"), "{ out = file }");
        let closed = "local f = io.tmpfile() f:close() return f";
        assert_eq!(show(closed), "file (closed)");
    }
}

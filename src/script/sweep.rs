//! `bl.sweep` from Lua: a tree's weights over a range of one parameter or a grid of two,
//! evaluated by the core without an actor ([`crate::blend::sweep`]).
//!
//! `bl.sweep(tree, parameter, from, to, steps)` or
//! `bl.sweep(tree, { x = "px", y = "py" }, { from, to, steps }, { from, to, steps })`
//! returns a table of rows `{ inputs = { [parameter] = value }, weights = { [leaf] = w,
//! ["<default>"] = … }, coverage = c }` (x varies slowest in the grid form) with fields
//! `tree`, `parameters`, `leaves`, and methods `:table()` (the printed table, also what
//! `tostring` gives) and `:csv(path)` (writes the CSV through a temporary file and a rename;
//! a relative path resolves against the calling script's folder; returns the path written).
//! The methods are `sweep_*` raw functions wrapped by the prelude.

use mlua::{Lua, Table, UserData, UserDataRef, Value};

use super::Shared;
use super::actor::weights_table;
use super::api::{Options, located};
use super::files::write_for_script;
use crate::blend::sweep::{Axis, Sweep, sweep};
use crate::report::{sweep_csv, sweep_table};

/// The result behind a sweep's rows, for its methods.
pub(crate) struct SweepRef(Sweep);

impl UserData for SweepRef {}

const USAGE: &str = "bl.sweep: expected (tree, parameter, from, to, steps) or \
                     (tree, { x = \"…\", y = \"…\" }, { from, to, steps }, { from, to, steps })";

fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Integer(i) => Some(*i as f64),
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

/// An axis from a parameter name and `from`, `to`, `steps` (a whole number ≥ 0; ≥ 1 unless
/// `from = to`).
fn axis(lua: &Lua, parameter: String, range: [&Value; 3]) -> mlua::Result<Axis> {
    let [from, to, steps] = range.map(number);
    let (Some(from), Some(to), Some(steps)) = (from, to, steps) else { return Err(located(lua, USAGE)) };
    if !(steps >= 0.0 && steps.fract() == 0.0 && steps < crate::blend::sweep::MAX_ROWS as f64) {
        let most = crate::blend::sweep::MAX_ROWS - 1;
        return Err(located(lua, format!("bl.sweep: steps must be a whole number from 0 to {most}, got {steps}")));
    }
    // 0 steps is one value, `from`: for a range that is no single value, `to` is left out.
    if steps == 0.0 && from != to {
        let message = format!(
            "bl.sweep: `{parameter}`: 0 steps gives one value, `from` ({from}), and leaves out `to` ({to}): use 1 step or more \
             (or from = to for one value)"
        );
        return Err(located(lua, message));
    }
    Ok(Axis { parameter, from, to, steps: steps as u64 })
}

/// `{ from, to, steps }` as an axis of `parameter`: those three and nothing else.
fn grid_axis(lua: &Lua, parameter: String, range: &Value) -> mlua::Result<Axis> {
    let Value::Table(range) = range else { return Err(located(lua, USAGE)) };
    if range.pairs::<Value, Value>().count() != 3 || range.raw_len() != 3 {
        let given = super::pretty(&Value::Table(range.clone()))?;
        let message = format!("bl.sweep: the range of `{parameter}` takes {{ from, to, steps }}, got {given}");
        return Err(located(lua, message));
    }
    let values: [Value; 3] = [range.get(1)?, range.get(2)?, range.get(3)?];
    axis(lua, parameter, [&values[0], &values[1], &values[2]])
}

fn axes(lua: &Lua, what: Value, a: Value, b: Value, c: Value) -> mlua::Result<Vec<Axis>> {
    match what {
        Value::String(name) => Ok(vec![axis(lua, name.to_str()?.to_string(), [&a, &b, &c])?]),
        Value::Table(names) if c.is_nil() => {
            let names = Options::new(lua, "bl.sweep", Some(names), &["x", "y"])?;
            let (Some(x), Some(y)) = (names.get::<String>("x")?, names.get::<String>("y")?) else {
                return Err(located(lua, USAGE));
            };
            Ok(vec![grid_axis(lua, x, &a)?, grid_axis(lua, y, &b)?])
        }
        _ => Err(located(lua, USAGE)),
    }
}

/// The rows as Lua tables, with `tree`, `parameters` and `leaves` fields.
fn rows_table(lua: &Lua, sweep: &Sweep) -> mlua::Result<Table> {
    let rows = lua.create_table()?;
    for row in &sweep.rows {
        let inputs = lua.create_table()?;
        for (name, value) in sweep.parameters.iter().zip(&row.inputs) {
            inputs.set(name.as_str(), *value)?;
        }
        let weights = weights_table(lua, sweep.leaves.iter().map(String::as_str), &row.weights, 1.0 - row.coverage)?;
        let entry = lua.create_table()?;
        entry.set("inputs", inputs)?;
        entry.set("weights", weights)?;
        entry.set("coverage", row.coverage)?;
        rows.push(entry)?;
    }
    rows.set("tree", sweep.tree.as_str())?;
    rows.set("parameters", lua.create_sequence_from(sweep.parameters.iter().map(String::as_str))?)?;
    rows.set("leaves", lua.create_sequence_from(sweep.leaves.iter().map(String::as_str))?)?;
    Ok(rows)
}

/// Adds `sweep` and its methods `sweep_table`, `sweep_csv` to the raw table.
pub(crate) fn add_raw_functions(lua: &Lua, raw: &Table, state: &Shared) -> mlua::Result<()> {
    let s = state.clone();
    raw.set(
        "sweep",
        lua.create_function(move |lua, (tree, what, a, b, c): (String, Value, Value, Value, Value)| {
            let axes = axes(lua, what, a, b, c)?;
            let result = sweep(s.borrow().session.snapshot(), &tree, &axes)
                .map_err(|e| located(lua, format!("bl.sweep: {e}")))?;
            Ok((rows_table(lua, &result)?, SweepRef(result)))
        })?,
    )?;
    raw.set(
        "sweep_table",
        lua.create_function(|_, this: UserDataRef<SweepRef>| Ok(sweep_table(&this.0).trim_end().to_string()))?,
    )?;
    let s = state.clone();
    raw.set(
        "sweep_csv",
        lua.create_function(move |lua, (this, path): (UserDataRef<SweepRef>, String)| {
            write_for_script(lua, &s, "sweep:csv", &path, &sweep_csv(&this.0))
        })?,
    )?;
    Ok(())
}

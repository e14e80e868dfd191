//! A sweep ([`Sweep`]) as a printed table and as CSV: one column per swept parameter, one
//! per leaf, and `<default>` when the tree does not always cover the whole pose.

use std::fmt::Write as _;

use super::{Align, csv_field, fixed, grid};
use crate::blend::sweep::Sweep;
use crate::graph::DEFAULT_EPSILON;

/// Column names and the rows of cells, the same for the table and the CSV.
fn cells(sweep: &Sweep) -> (Vec<&str>, Vec<Vec<String>>) {
    let with_default = sweep.rows.iter().any(|r| 1.0 - r.coverage > DEFAULT_EPSILON);
    let mut columns: Vec<&str> = sweep.parameters.iter().chain(&sweep.leaves).map(String::as_str).collect();
    if with_default {
        columns.push("<default>");
    }
    let rows = sweep
        .rows
        .iter()
        .map(|row| {
            let mut cells: Vec<String> = row.inputs.iter().chain(&row.weights).map(|&v| fixed(v)).collect();
            if with_default {
                cells.push(fixed(1.0 - row.coverage));
            }
            cells
        })
        .collect();
    (columns, rows)
}

/// `sweep TREE · N rows` and an aligned table.
pub fn sweep_table(sweep: &Sweep) -> String {
    let (columns, rows) = cells(sweep);
    let count = sweep.rows.len();
    let mut out = String::new();
    let _ = writeln!(out, "sweep {} · {count} row{}", sweep.tree, if count == 1 { "" } else { "s" });
    out.push_str(&grid("  ", &columns, &vec![Align::Right; columns.len()], &rows));
    out
}

/// RFC 4180 CSV: a header of column names, then one line per row (six decimals).
pub fn sweep_csv(sweep: &Sweep) -> String {
    let (columns, rows) = cells(sweep);
    let mut out = String::new();
    let header: Vec<String> = columns.iter().map(|c| csv_field(c)).collect();
    let _ = writeln!(out, "{}", header.join(","));
    for row in rows {
        let _ = writeln!(out, "{}", row.join(","));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blend::sweep::SweepRow;

    fn example() -> Sweep {
        Sweep {
            tree: "t".into(),
            parameters: vec!["x".into()],
            leaves: vec!["a".into(), "b,c".into()],
            rows: vec![
                SweepRow { inputs: vec![0.0], weights: vec![1.0, 0.0], coverage: 1.0 },
                SweepRow { inputs: vec![1.0], weights: vec![0.25, 0.25], coverage: 0.5 },
            ],
        }
    }

    #[test]
    fn csv_quotes_odd_names_and_adds_the_default_column() {
        assert_eq!(
            sweep_csv(&example()),
            "x,a,\"b,c\",<default>\n0.000000,1.000000,0.000000,0.000000\n1.000000,0.250000,0.250000,0.500000\n"
        );
    }

    #[test]
    fn the_table_is_aligned() {
        let table = sweep_table(&example());
        assert_eq!(
            table,
            "sweep t · 2 rows\n         x         a       b,c  <default>\n  0.000000  1.000000  0.000000   0.000000\n  1.000000  0.250000  0.250000   0.500000\n"
        );
    }
}

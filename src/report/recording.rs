//! A recording of one actor over time (`bl.record`): every `every`-th logic frame, its
//! parameters (smoothed values, what the trees blend with), each leaf's effective weight per
//! channel, the default pose's share per channel (`<default>`, what the leaves leave of the
//! pose) and each leaf's local time — and the CSV of it. Leaves that appear later (a timeline
//! played on a new layer) get columns from then on; earlier rows leave them empty.
//! The REPL's `:plot` history is a recording too, one that keeps only its latest samples.

use std::fmt::Write as _;

use super::{csv_field, fixed};
use crate::session::{ActorId, Session};

/// What a column holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// A parameter's smoothed value.
    Parameter(String),
    /// A leaf's effective weight in a channel — for a leaf of an additive layer, what it adds
    /// (`weight × share` times what the overrides above it leave, REFERENCE §6).
    Weight { leaf: String, channel: String, additive: bool },
    /// The default pose's share of a channel: `1 − Σ` the leaves' weights (REFERENCE §6),
    /// the `<default>` row of weight tables. Every sample has it, whatever it is.
    Default { channel: String },
    /// A leaf's local time in seconds.
    Time { leaf: String },
}

impl Column {
    /// `param:speed`, `weight:idle` (`weight:idle@upper` when the actor has several
    /// channels; `additive:` for additive leaves), `weight:<default>` (`@upper` likewise),
    /// `time:idle`.
    pub fn header(&self, several_channels: bool) -> String {
        let in_channel =
            |name: String, channel: &str| if several_channels { format!("{name}@{channel}") } else { name };
        match self {
            Column::Parameter(name) => format!("param:{name}"),
            Column::Weight { leaf, channel, additive } => {
                let kind = if *additive { "additive" } else { "weight" };
                in_channel(format!("{kind}:{leaf}"), channel)
            }
            Column::Default { channel } => in_channel("weight:<default>".into(), channel),
            Column::Time { leaf } => format!("time:{leaf}"),
        }
    }
}

/// A column as a sample meets it, with borrowed names: a frame's sample allocates no names
/// unless the column is new.
#[derive(Copy, Clone)]
enum ColumnRef<'a> {
    Parameter(&'a str),
    Weight { leaf: &'a str, channel: &'a str, additive: bool },
    Default { channel: &'a str },
    Time { leaf: &'a str },
}

impl ColumnRef<'_> {
    fn is(self, column: &Column) -> bool {
        match (self, column) {
            (ColumnRef::Parameter(a), Column::Parameter(b)) => a == b,
            (ColumnRef::Weight { leaf, channel, additive }, Column::Weight { leaf: l, channel: c, additive: d }) => {
                leaf == l && channel == c && additive == *d
            }
            (ColumnRef::Default { channel }, Column::Default { channel: c }) => channel == c,
            (ColumnRef::Time { leaf }, Column::Time { leaf: l }) => leaf == l,
            _ => false,
        }
    }

    fn to_column(self) -> Column {
        match self {
            ColumnRef::Parameter(name) => Column::Parameter(name.into()),
            ColumnRef::Weight { leaf, channel, additive } => {
                Column::Weight { leaf: leaf.into(), channel: channel.into(), additive }
            }
            ColumnRef::Default { channel } => Column::Default { channel: channel.into() },
            ColumnRef::Time { leaf } => Column::Time { leaf: leaf.into() },
        }
    }
}

/// One sample: the frame's time and index, and a value per column (`None`: not there yet).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub time: f64,
    pub frame: i64,
    pub values: Vec<Option<f64>>,
}

/// Samples of one actor.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    pub actor: ActorId,
    pub actor_name: String,
    /// A sample every this many logic frames, counted from the first.
    pub every: u64,
    pub first_frame: i64,
    pub channels: Vec<String>,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    pub stopped: bool,
    /// Keep only the latest rows, at least this many (`None`: every row). Older rows go in
    /// batches, so a long history still costs O(1) per sample.
    pub keep: Option<usize>,
}

impl Recording {
    /// A recording of `hero` over one channel, `body`, with these columns and rows: what the
    /// printers' tests draw.
    #[cfg(test)]
    pub(crate) fn of_hero(columns: Vec<Column>, rows: Vec<Row>, keep: Option<usize>) -> Recording {
        let channels = vec!["body".into()];
        Recording {
            actor: 0,
            actor_name: "hero".into(),
            every: 1,
            first_frame: 0,
            channels,
            columns,
            rows,
            stopped: false,
            keep,
        }
    }

    /// How much it holds and how often it samples: `6 samples, every 2 frames`,
    /// `1 sample, every frame`.
    pub fn summary(&self) -> String {
        let every = if self.every == 1 { "every frame".to_string() } else { format!("every {} frames", self.every) };
        format!("{}, {every}", super::count(self.rows.len(), "sample"))
    }

    /// Starts recording `actor` every `every` frames (≥ 1), with a first sample now.
    pub fn new(session: &Session, actor: ActorId, every: u64) -> Self {
        let mut recording = Recording::empty(session, actor, every, None);
        recording.sample(session);
        recording
    }

    /// The REPL's history of `actor` (`:plot`): a sample after every frame from the next one
    /// on — the present is not a frame that ran — keeping the latest `keep` (≥ 1).
    pub fn history(session: &Session, actor: ActorId, keep: usize) -> Self {
        Recording::empty(session, actor, 1, Some(keep.max(1)))
    }

    fn empty(session: &Session, actor: ActorId, every: u64, keep: Option<usize>) -> Self {
        let a = session.actor(actor);
        Recording {
            actor,
            actor_name: a.name().to_string(),
            every: every.max(1),
            first_frame: session.clock().frame(),
            channels: session.graph(actor).channels().to_vec(),
            columns: Vec::new(),
            rows: Vec::new(),
            stopped: false,
            keep,
        }
    }

    /// Takes a sample if this frame is one of the recording's (and it was not taken yet).
    pub fn sample(&mut self, session: &Session) {
        let frame = session.clock().frame();
        let due = (frame - self.first_frame).rem_euclid(self.every as i64) == 0;
        if self.stopped || !due || self.rows.last().is_some_and(|r| r.frame == frame) {
            return;
        }
        let graph = session.graph(self.actor);
        let mut values = vec![None; self.columns.len()];
        // Columns come in the same order every frame: each is looked for after the last first.
        let mut next = 0;
        let mut put = |columns: &mut Vec<Column>, column: ColumnRef, value: f64| {
            let index = if columns.get(next).is_some_and(|c| column.is(c)) {
                next
            } else {
                columns.iter().position(|c| column.is(c)).unwrap_or_else(|| {
                    columns.push(column.to_column());
                    columns.len() - 1
                })
            };
            next = index + 1;
            if values.len() <= index {
                values.resize(index + 1, None);
            }
            values[index] = Some(value);
        };
        for p in graph.parameters() {
            let parameter = &session.snapshot().parameters[p];
            put(&mut self.columns, ColumnRef::Parameter(&parameter.name), session.params(self.actor)[p].smoothed);
        }
        for (i, leaf) in graph.leaves().iter().enumerate() {
            let additive = graph.layers()[leaf.layer].additive;
            for (c, channel) in graph.channels().iter().enumerate() {
                let column = ColumnRef::Weight { leaf: &leaf.name, channel, additive };
                let weight = if additive { graph.additive_weights(c)[i] } else { graph.weights(c)[i] };
                put(&mut self.columns, column, weight);
            }
        }
        for (c, channel) in graph.channels().iter().enumerate() {
            put(&mut self.columns, ColumnRef::Default { channel }, graph.default_share(c));
        }
        for (i, leaf) in graph.leaves().iter().enumerate() {
            put(&mut self.columns, ColumnRef::Time { leaf: &leaf.name }, graph.local_time(i));
        }
        self.rows.push(Row { time: session.clock().time().secs(), frame, values });
        if let Some(keep) = self.keep
            && self.rows.len() >= 2 * keep
        {
            self.rows.drain(..self.rows.len() - keep);
        }
    }

    /// The columns in print order: parameters, weights, `<default>`, times (each in order of
    /// appearance).
    pub fn ordered_columns(&self) -> Vec<usize> {
        let rank = |c: &Column| match c {
            Column::Parameter(_) => 0,
            Column::Weight { .. } => 1,
            Column::Default { .. } => 2,
            Column::Time { .. } => 3,
        };
        let mut order: Vec<usize> = (0..self.columns.len()).collect();
        order.sort_by_key(|&i| rank(&self.columns[i]));
        order
    }

    /// The leaves' weight columns in print order, each as (column, name, additive): the name
    /// is the leaf's, `leaf (channel)` when the actor has several channels, with `+ ` before
    /// an additive leaf.
    pub fn weight_series(&self) -> Vec<(usize, String, bool)> {
        self.ordered_columns()
            .into_iter()
            .filter_map(|i| match &self.columns[i] {
                Column::Weight { leaf, channel, additive } => {
                    let name = self.series_name(leaf, channel);
                    Some((i, if *additive { format!("+ {name}") } else { name }, *additive))
                }
                _ => None,
            })
            .collect()
    }

    /// The `<default>` columns in print order, each as (column, name): `<default>`,
    /// `<default> (channel)` when the actor has several channels.
    pub fn default_series(&self) -> Vec<(usize, String)> {
        let columns = self.ordered_columns().into_iter();
        columns
            .filter_map(|i| match &self.columns[i] {
                Column::Default { channel } => Some((i, self.series_name("<default>", channel))),
                _ => None,
            })
            .collect()
    }

    /// A series' name in a chart or a plot: `name`, or `name (channel)` when the actor has
    /// several channels.
    fn series_name(&self, name: &str, channel: &str) -> String {
        if self.channels.len() > 1 { format!("{name} ({channel})") } else { name.to_string() }
    }

    /// RFC 4180 CSV: `time_s,frame,` then the columns; six decimals, empty cells for leaves
    /// not there yet.
    pub fn csv(&self) -> String {
        let several = self.channels.len() > 1;
        let order = self.ordered_columns();
        let mut out = String::from("time_s,frame");
        for &i in &order {
            out.push(',');
            out.push_str(&csv_field(&self.columns[i].header(several)));
        }
        out.push('\n');
        for row in &self.rows {
            let _ = write!(out, "{},{}", fixed(row.time), row.frame);
            for &i in &order {
                out.push(',');
                if let Some(value) = row.values.get(i).copied().flatten() {
                    out.push_str(&fixed(value));
                }
            }
            out.push('\n');
        }
        out
    }
}

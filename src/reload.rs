//! What a reload did to each actor, so a person can trust a hot reload: the parameters and
//! leaves it removed or reset, and every leaf's weight before and after, at the current
//! frame. A front end captures the session with [`capture`] before and after
//! [`Session::apply_snapshot`](crate::session::Session::apply_snapshot) and hands both to
//! [`diff`]; nothing here changes the session.

use crate::graph::DEFAULT_EPSILON;
use crate::session::Session;

/// A leaf as a reload report shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LeafView {
    pub name: String,
    /// Effective weight in each channel of the actor's graph.
    pub weights: Vec<f64>,
    /// Local time in seconds.
    pub time: f64,
}

/// One actor's state at a moment, by stable names.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorView {
    pub name: String,
    pub spec: String,
    /// Every parameter of the library: (name, raw value). Values carry over by name, so a
    /// parameter's value is lost only when the library loses the parameter.
    pub params: Vec<(String, f64)>,
    /// The parameters the actor's graph reads (a timeline reads none): only these are worth
    /// a word when the library gains or loses one.
    pub reads: Vec<String>,
    /// Parameters the library lacks whose values a resting actor keeps until a reload
    /// declares them again ([`crate::session::Resting::kept`]): (name, raw value).
    pub kept: Vec<(String, f64)>,
    pub leaves: Vec<LeafView>,
    /// The graph's channels (one, unnamed `default` when it declares none).
    pub channels: Vec<String>,
    /// The default pose's share of each channel.
    pub default_shares: Vec<f64>,
}

/// Every actor of `session`, in spawn order.
pub fn capture(session: &Session) -> Vec<ActorView> {
    let snapshot = session.snapshot();
    session
        .actors()
        .iter()
        .enumerate()
        .map(|(id, actor)| {
            let graph = session.graph(id);
            let channels = 0..graph.channels().len();
            ActorView {
                name: actor.name().to_string(),
                spec: actor.spec().describe(),
                params: snapshot
                    .parameters
                    .iter()
                    .zip(session.params(id))
                    .map(|(p, s)| (p.name.clone(), s.raw))
                    .collect(),
                reads: graph.parameters().into_iter().map(|p| snapshot.parameters[p].name.clone()).collect(),
                kept: actor.resting().map_or_else(Vec::new, |resting| {
                    resting.kept.iter().map(|(name, state)| (name.clone(), state.raw)).collect()
                }),
                leaves: graph
                    .leaves()
                    .iter()
                    .enumerate()
                    .map(|(i, leaf)| LeafView {
                        name: leaf.name.clone(),
                        weights: channels.clone().map(|c| graph.weights(c)[i]).collect(),
                        time: graph.local_time(i),
                    })
                    .collect(),
                channels: graph.channels().to_vec(),
                default_shares: channels.map(|c| graph.default_share(c)).collect(),
            }
        })
        .collect()
}

/// A leaf's weight in each channel ([`ActorChange::channels`]) on both sides of a reload;
/// `None` where the leaf (or, before, the channel) does not exist.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightRow {
    pub leaf: String,
    pub before: Vec<Option<f64>>,
    pub after: Vec<Option<f64>>,
}

/// What a reload changed for one actor. Everything not listed carried over by name.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorChange {
    pub name: String,
    pub spec: String,
    /// Parameters the actor read that no longer exist (their values are gone).
    pub removed_params: Vec<String>,
    /// Parameters the actor read that no longer exist, whose values it keeps while it rests:
    /// (name, raw value).
    pub kept_params: Vec<(String, f64)>,
    /// New parameters the actor reads, starting at their default: (name, value).
    pub reset_params: Vec<(String, f64)>,
    /// Parameters declared again that the actor kept while it rested, back at their values:
    /// (name, value).
    pub restored_params: Vec<(String, f64)>,
    /// Leaves that no longer exist.
    pub removed_leaves: Vec<String>,
    /// New leaves, starting at local time 0.
    pub reset_leaves: Vec<String>,
    /// Leaves whose local time moved back because their clip got shorter: (name, before, after).
    pub clamped_leaves: Vec<(String, f64, f64)>,
    /// The channels of the actor's graph after the reload: one weight column each.
    pub channels: Vec<String>,
    /// Rows in the new graph's order, then removed leaves, then `<default>` if either side has
    /// a default share.
    pub weights: Vec<WeightRow>,
}

impl ActorChange {
    /// Whether nothing was removed or reset.
    pub fn kept_everything(&self) -> bool {
        self.removed_params.is_empty()
            && self.kept_params.is_empty()
            && self.reset_params.is_empty()
            && self.restored_params.is_empty()
            && self.removed_leaves.is_empty()
            && self.reset_leaves.is_empty()
            && self.clamped_leaves.is_empty()
    }

    /// Whether some leaf's weight (or the default pose's share) moved, or a leaf came or went.
    pub fn weights_changed(&self) -> bool {
        self.weights.iter().any(|row| {
            row.before.iter().zip(&row.after).any(|pair| match pair {
                (Some(before), Some(after)) => (after - before).abs() > WEIGHT_EPSILON,
                _ => true,
            })
        })
    }

    /// Whether `other` is the same news for another actor: the same spec, the same things
    /// removed and reset, the same weights. A crowd's actors that a reload changed alike are
    /// one block of a report.
    pub fn same_as(&self, other: &ActorChange) -> bool {
        ActorChange { name: String::new(), ..self.clone() } == ActorChange { name: String::new(), ..other.clone() }
    }
}

/// A weight moved by less than this is unchanged: far below the six decimals reports print.
const WEIGHT_EPSILON: f64 = 1e-9;

/// What changed for every actor present on both sides (actors are never added or removed by
/// a reload), in spawn order.
pub fn diff(before: &[ActorView], after: &[ActorView]) -> Vec<ActorChange> {
    after.iter().filter_map(|new| before.iter().find(|old| old.name == new.name).map(|old| change(old, new))).collect()
}

fn change(old: &ActorView, new: &ActorView) -> ActorChange {
    let has_param = |view: &ActorView, name: &str| view.params.iter().any(|(n, _)| n == name);
    let read = |view: &ActorView, name: &str| view.reads.iter().any(|n| n == name);
    let kept = |view: &ActorView, name: &str| view.kept.iter().any(|(n, _)| n == name);
    let new_params = new.params.iter().filter(|(n, _)| read(new, n) && !has_param(old, n));
    let (restored_params, reset_params) = new_params.cloned().partition(|(n, _)| kept(old, n));
    let old_leaf = |name: &str| old.leaves.iter().find(|l| l.name == name);
    // Each new channel's index among the old graph's channels, by name.
    let old_channel: Vec<Option<usize>> =
        new.channels.iter().map(|c| old.channels.iter().position(|o| o == c)).collect();
    let before = |weights: &[f64]| -> Vec<Option<f64>> {
        old_channel.iter().map(|o| o.and_then(|o| weights.get(o).copied())).collect()
    };
    let mut weights: Vec<WeightRow> = new
        .leaves
        .iter()
        .map(|l| WeightRow {
            leaf: l.name.clone(),
            before: old_leaf(&l.name).map_or_else(|| vec![None; new.channels.len()], |o| before(&o.weights)),
            after: l.weights.iter().copied().map(Some).collect(),
        })
        .collect();
    let removed_leaves: Vec<String> =
        old.leaves.iter().filter(|l| !new.leaves.iter().any(|n| n.name == l.name)).map(|l| l.name.clone()).collect();
    for leaf in &removed_leaves {
        let was = old_leaf(leaf).map_or_else(|| vec![None; new.channels.len()], |o| before(&o.weights));
        weights.push(WeightRow { leaf: leaf.clone(), before: was, after: vec![None; new.channels.len()] });
    }
    let shared = |shares: &[f64]| shares.iter().any(|&s| s > DEFAULT_EPSILON);
    if shared(&old.default_shares) || shared(&new.default_shares) {
        weights.push(WeightRow {
            leaf: "<default>".into(),
            before: before(&old.default_shares),
            after: new.default_shares.iter().copied().map(Some).collect(),
        });
    }
    ActorChange {
        name: new.name.clone(),
        spec: new.spec.clone(),
        removed_params: old.reads.iter().filter(|n| !has_param(new, n) && !kept(new, n)).cloned().collect(),
        kept_params: new.kept.iter().filter(|(n, _)| old.reads.contains(n) && !kept(old, n)).cloned().collect(),
        reset_params,
        restored_params,
        reset_leaves: new.leaves.iter().filter(|l| old_leaf(&l.name).is_none()).map(|l| l.name.clone()).collect(),
        clamped_leaves: new
            .leaves
            .iter()
            .filter_map(|l| old_leaf(&l.name).filter(|o| l.time < o.time).map(|o| (l.name.clone(), o.time, l.time)))
            .collect(),
        removed_leaves,
        channels: new.channels.clone(),
        weights,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(name: &str, weight: f64, time: f64) -> LeafView {
        LeafView { name: name.into(), weights: vec![weight], time }
    }

    /// An actor whose graph reads every parameter of the library.
    fn view(params: &[&str], leaves: Vec<LeafView>, default_share: f64) -> ActorView {
        ActorView {
            name: "hero".into(),
            spec: "blend_tree locomotion".into(),
            params: params.iter().map(|p| (p.to_string(), 0.5)).collect(),
            reads: params.iter().map(|p| p.to_string()).collect(),
            kept: Vec::new(),
            leaves,
            channels: vec!["default".into()],
            default_shares: vec![default_share],
        }
    }

    #[test]
    fn lists_removed_reset_and_clamped_by_name() {
        let before = view(&["speed", "old"], vec![leaf("idle", 0.5, 1.5), leaf("jog", 0.5, 0.2)], 0.0);
        let after = view(&["speed", "lean"], vec![leaf("idle", 0.25, 1.0), leaf("sprint", 0.75, 0.0)], 0.0);
        let changes = diff(&[before], &[after]);
        let change = &changes[0];
        assert_eq!(change.removed_params, ["old"]);
        assert_eq!(change.reset_params, [("lean".to_string(), 0.5)]);
        assert_eq!(change.removed_leaves, ["jog"]);
        assert_eq!(change.reset_leaves, ["sprint"]);
        assert_eq!(change.clamped_leaves, [("idle".to_string(), 1.5, 1.0)]);
        let rows: Vec<(&str, Option<f64>, Option<f64>)> =
            change.weights.iter().map(|r| (r.leaf.as_str(), r.before[0], r.after[0])).collect();
        assert_eq!(rows, [("idle", Some(0.5), Some(0.25)), ("sprint", None, Some(0.75)), ("jog", Some(0.5), None)]);
        assert!(!change.kept_everything());
    }

    #[test]
    fn a_resting_actor_keeps_the_values_of_parameters_the_library_lost_and_gets_them_back() {
        let reading = view(&["speed"], vec![leaf("idle", 1.0, 0.0)], 0.0);
        let resting = ActorView { kept: vec![("speed".into(), 0.8)], ..view(&[], vec![], 1.0) };
        let change = &diff(std::slice::from_ref(&reading), std::slice::from_ref(&resting))[0];
        assert_eq!(change.kept_params, [("speed".to_string(), 0.8)]);
        assert!(change.removed_params.is_empty(), "{change:?}");
        let back = ActorView { params: vec![("speed".into(), 0.8)], ..reading };
        let change = &diff(&[resting], &[back])[0];
        assert_eq!(change.restored_params, [("speed".to_string(), 0.8)]);
        assert!(change.reset_params.is_empty(), "{change:?}");
    }

    #[test]
    fn an_identical_reload_keeps_everything() {
        let same = view(&["speed"], vec![leaf("idle", 1.0, 0.3)], 0.0);
        let same = std::slice::from_ref(&same);
        let change = &diff(same, same)[0];
        assert!(change.kept_everything());
        assert!(!change.weights_changed());
        assert_eq!(change.weights.len(), 1, "no <default> row without a default share");
    }

    #[test]
    fn parameters_an_actor_does_not_read_are_not_its_news() {
        let reads_nothing = |params: &[&str]| ActorView { reads: Vec::new(), ..view(params, vec![], 0.0) };
        let change = &diff(&[reads_nothing(&["speed"])], &[reads_nothing(&["lean"])])[0];
        assert!(change.kept_everything(), "{change:?}");
        // A parameter the actor starts reading keeps the value the library had for it.
        let before = ActorView { reads: Vec::new(), ..view(&["speed"], vec![], 0.0) };
        let change = &diff(&[before], &[view(&["speed"], vec![], 0.0)])[0];
        assert!(change.kept_everything(), "{change:?}");
    }

    #[test]
    fn a_moved_weight_is_a_change_and_rounding_noise_is_not() {
        let at = |weight: f64| view(&[], vec![leaf("a", weight, 0.0)], 0.0);
        assert!(diff(&[at(0.5)], &[at(0.75)])[0].weights_changed());
        assert!(!diff(&[at(0.5)], &[at(0.5 + 1e-15)])[0].weights_changed());
    }

    #[test]
    fn a_default_share_on_either_side_gets_a_row() {
        let before = view(&[], vec![leaf("a", 1.0, 0.0)], 0.0);
        let after = view(&[], vec![leaf("a", 0.0, 0.0)], 1.0);
        let change = &diff(&[before], &[after])[0];
        let last = change.weights.last().unwrap();
        assert_eq!((last.leaf.as_str(), last.before[0], last.after[0]), ("<default>", Some(0.0), Some(1.0)));
    }

    /// Every channel has its column, matched by name across the reload: a channel the reload
    /// added has no weights before it.
    #[test]
    fn every_channel_has_a_column_matched_by_name() {
        let two = |weights: [f64; 2], channels: [&str; 2]| ActorView {
            leaves: vec![LeafView { name: "aim".into(), weights: weights.to_vec(), time: 0.0 }],
            channels: channels.map(String::from).to_vec(),
            default_shares: vec![0.0, 0.0],
            ..view(&[], vec![], 0.0)
        };
        let change = &diff(&[two([0.25, 0.5], ["lower", "upper"])], &[two([0.5, 0.75], ["upper", "head"])])[0];
        assert_eq!(change.channels, ["upper", "head"]);
        assert_eq!(change.weights[0].before, [Some(0.5), None]);
        assert_eq!(change.weights[0].after, [Some(0.5), Some(0.75)]);
        assert!(change.weights_changed());
        let (a, b) = (view(&["x"], vec![leaf("a", 1.0, 0.0)], 0.0), view(&["y"], vec![leaf("a", 1.0, 0.0)], 0.0));
        let mut other = diff(std::slice::from_ref(&a), std::slice::from_ref(&b))[0].clone();
        other.name = "villain".into();
        assert!(diff(&[a], &[b])[0].same_as(&other));
    }
}

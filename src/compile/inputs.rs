//! Compiling `[inputs.NAME]`: names unique among inputs, parameters resolved (an unknown one
//! is an error with a did-you-mean — inputs never declare parameters), trigger targets
//! checked (a timeline to play, a clip or blend tree to transition to), triggers sorted by
//! time.

use toml::Spanned;

use super::{Asset, Builder};
use crate::config::inputs::RawInputs;
use crate::config::{Named, ParsedFile, suggestion};
use crate::input::{InputDef, InputTrack, Trigger, TriggerAction};

/// Seconds of a transition trigger that names none.
const DEFAULT_DURATION: f64 = 0.25;

impl Builder<'_> {
    pub(super) fn inputs(&mut self, files: &[ParsedFile]) {
        for (f, inputs) in self.declared_once(files, |f| &f.inputs, "inputs") {
            if let Some(def) = self.input_def(f, inputs) {
                self.snapshot.inputs.push(def);
            }
        }
    }

    fn input_def(&mut self, file: usize, inputs: &Named<RawInputs>) -> Option<InputDef> {
        let mut tracks = Vec::new();
        for (name, track) in &inputs.value.parameters {
            let Some(parameter) = self.known_parameter(file, name) else { continue };
            let keys = track.get_ref().keys.get_ref().iter().map(|k| (k.get_ref()[0], k.get_ref()[1])).collect();
            tracks.push(InputTrack { parameter, keys, interpolation: track.get_ref().interpolation });
        }
        let mut triggers = Vec::new();
        for trigger in &inputs.value.triggers {
            let t = trigger.get_ref();
            let at = self.location(file, t.layer.as_ref().map_or(trigger.span(), |l| l.span()).start);
            let layer = t.layer.as_ref().map(|l| l.get_ref().clone());
            let action = match (&t.play, &t.transition, layer) {
                (Some(timeline), None, layer) => {
                    if !self.target(file, timeline, "timeline", |a| matches!(a, Asset::Timeline(_))) {
                        continue;
                    }
                    TriggerAction::Play { timeline: timeline.get_ref().clone(), layer }
                }
                (None, Some(target), Some(layer)) => {
                    if !self.target(file, target, "clip or blend tree", |a| {
                        matches!(a, Asset::Clip(_) | Asset::BlendTree(_))
                    }) {
                        continue;
                    }
                    let duration = t.duration.as_ref().map_or(DEFAULT_DURATION, |d| *d.get_ref());
                    TriggerAction::Transition { target: target.get_ref().clone(), layer, duration }
                }
                _ => continue, // reported by local validation
            };
            triggers.push(Trigger { time: *t.time.get_ref(), action, at });
        }
        triggers.sort_by(|a, b| a.time.total_cmp(&b.time));
        (inputs.valid).then(|| InputDef { name: inputs.name.clone(), tracks, triggers })
    }

    /// A parameter of the library (declared, or read by a tree); else an error naming the
    /// closest one — unless the library's parameters are not all known (an entry that would
    /// declare or read one has an error of its own): the name may be one of those.
    fn known_parameter(&mut self, file: usize, name: &Spanned<String>) -> Option<usize> {
        let wanted = name.get_ref();
        if let Some(id) = self.snapshot.parameter_id(wanted) {
            return Some(id);
        }
        if self.parameters_unknown {
            return None;
        }
        let names: Vec<String> = self.snapshot.parameters.iter().map(|p| p.name.clone()).collect();
        let hint = suggestion(wanted, names.iter().map(String::as_str))
            .or_else(|| (!names.is_empty()).then(|| format!("known parameters: {}", names.join(", "))));
        self.error(file, name.span(), format!("unknown parameter `{wanted}` in inputs"), hint);
        None
    }

    /// `file:line:col` of byte `offset` of file `file`.
    fn location(&self, file: usize, offset: usize) -> String {
        let source = &self.sources[file];
        let (line, col) = crate::config::diagnostic::line_col(&source.text, offset);
        format!("{}:{line}:{col}", source.path)
    }

    /// Whether `name` is an asset of the kind `is`; if not, an error with a did-you-mean.
    fn target(&mut self, file: usize, name: &Spanned<String>, kind: &str, is: fn(&Asset) -> bool) -> bool {
        if self.snapshot.assets.get(name.get_ref()).is_some_and(is) {
            return true;
        }
        let hint = suggestion(name.get_ref(), self.snapshot.names_of(is));
        self.error(file, name.span(), format!("no {kind} named `{}`", name.get_ref()), hint);
        false
    }
}

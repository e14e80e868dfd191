-- `bl.inputs(actor, NAME)` checks each trigger's layer against the actor's graph at once: a
-- missing layer (with a did-you-mean) or one of the wrong kind is an error at the call,
-- naming where the trigger is written, not an error out of the middle of a later step.
bl.load({ "inputs_data.toml", "inputs_layers.toml" })
local walker = bl.spawn("walker", { graph = "walker" })
for _, name in ipairs({ "misspelt", "not_transitions", "no_layer", "not_a_timeline" }) do
  print(pcall(bl.inputs, walker, name))
end
bl.step(0.5)
print(string.format("the steps run: frame %d, time %.6f", bl.frame(), bl.time()))
bl.inputs(walker, "stumble")
bl.step(0.5)
print(#bl.events({ kind = "transition_begin" }), "transition begun by a good trigger")

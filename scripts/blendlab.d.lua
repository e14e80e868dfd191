---@meta
-- LuaLS (lua-language-server) definitions of the `bl` API, so editors complete and check
-- blendlab scripts. Point your workspace at this folder (e.g. `"workspace.library":
-- ["scripts"]` in .luarc.json). Errors raised by `bl` functions are plain strings located
-- at the calling line (`file:line: message`), so `pcall` returns them as they print.
-- tests/lua_api.rs checks that every function of `bl`, of actors and of playbacks is declared
-- here, and every method of recordings and sweeps is one they have.

---A leaf's share of the final result: `{ [leaf] = weight }`, plus `["<default>"]` when the
---default pose has a share (REFERENCE §6).
---@alias bl.Weights table<string, number>

---@class bl.Event
---@field frame integer logic frame during which it happened
---@field time number that frame's time in seconds
---@field kind string one of the event kinds (DESIGN.md), e.g. "signal", "clip_enable"
---@field actor string? the actor it concerns
---@field clip string? lifecycle events: the leaf name
---@field local_frame integer? lifecycle events: the playback's local frame
---@field name string? signal: the marker's name
---@field timeline string?
---@field duration number? transition_begin: the fade's length in seconds, as asked for
---@field files string[]? reload_applied: the library's files, one string each
---@field payload table<string, any>? command of an Emit task: its payload with its TOML types (arrays as sequences, a datetime as its text)
---@field [string] any other fields of the kind

---An unknown key, kind or actor is an error (with a did-you-mean), never an empty filter.
---@class bl.EventFilter
---@field kind string? only events of this kind
---@field actor (string|bl.Actor)? only events of this actor (its name or its handle)

---@class bl.SpawnSpec
---@field graph string? a [graphs.NAME]
---@field blend_tree string? a [blend_trees.NAME]
---@field timeline string? a [timelines.NAME], playing from the spawn time

---@class bl.PlayOptions
---@field layer string? the timeline layer (default: the top-most timeline layer, or a new one)
---@field from number? timeline time in seconds to start at (≥ 0; past the end of a timeline that does not loop: a warning, it completes at the next frame)
---@field from_frame integer? local frame to start at (clips that ended before it never begin; ≥ 0; past the end: as `from`)

---@class bl.Token
---@field generation integer
---@field from string
---@field to string

---@class bl.Arbiter
---@field state string the committed state
---@field pending bl.Token? the newest transition not committed yet
---@field rejected integer stale and duplicate completions so far

---@class bl.Playback
local Playback = {}
---@return "playing"|"complete"|"interrupted"
function Playback:state() end
---@return number time the playback's timeline time in seconds
function Playback:time() end
---@return integer? frame its local frame: with task clips, the last frame its task lifecycle ran (−1 before the first; in a pass a seek has just entered, the frame before that pass's first; for a start past the end, its last frame: its lifetime, or the frame of a `fixed` end before it with `wrap = "none"`); without, the frame containing its time; nil without a `frame_rate`
function Playback:frame() end
---Interrupts it: begun, unfinished task clips get Interrupt (nothing happens once it ended).
function Playback:interrupt() end
---Moves it to timeline time `to` (seconds); `policy` says what happens to skipped markers
---(default "fire_skipped": they fire; "suppress": they do not). Either way `timeline_looped`
---is logged for every end it crosses and no task is skipped: the tasks of passes it leaves
---behind run at the seek, the rest catch up at the next frame. Before its first frame a seek
---moves where it starts: only `retroactive` markers before `to` fire.
---@param to number
---@param policy? "fire_skipped"|"suppress" default "fire_skipped"
function Playback:seek(to, policy) end

---@class bl.Actor
local Actor = {}
---@return string
function Actor:name() end
---Sets a parameter's raw value; smoothing (`smooth_time`) moves toward it from the next logic
---frame, a parameter without smoothing is at it at once. Weights follow at the next frame.
---@param parameter string
---@param value number within ±1e6, as a config's numbers
function Actor:set(parameter, value) end
---@param parameter string
---@return number raw, number smoothed
function Actor:get(parameter) end
---Each leaf's share of the final result (REFERENCE §6); a leaf of an additive layer has none
---(see `additive_weights`).
---@param channel? string default: the first channel
---@return bl.Weights
function Actor:weights(channel) end
---What each leaf of an additive layer adds on top: `layer weight × its share` (the table's
---`additive` column, `+CHANNEL` with several channels), times what the override layers above it
---leave.
---@param channel? string default: the first channel
---@return table<string, number>
function Actor:additive_weights(channel) end
---@param channel? string
---@return number coverage the output weight of the channel
function Actor:output_weight(channel) end
---@param leaf string
---@return number seconds the leaf's local time
function Actor:time(leaf) end
---@return string table the printed weight table
function Actor:table() end
---@return string text why each blend tree's weights are what they are
function Actor:explain() end
---@return string text the live graph: layers, mixers, inputs and weights
function Actor:graph() end
---The debugging chain: playbacks (and the timelines they play nested now, under the clip
---that plays them), task states, commands, entity. With `{ table = true }` the same as data:
---`{ frame, playbacks = { { timeline, layer, nested_in, state, time, frame, clips = { { name,
---task, first, last, state } } } }, commands = { { type, source, result } }, locked,
---lock_sources }` (`nested_in`: the clip playing that timeline nested, nil for a layer's own
---playback; `time`: its timeline seconds; `frame`: its local frame, nil without a frame_rate;
---a clip's `state`: "pending", "running", "done" (finished or interrupted), or "skipped" — it
---never began and will not, in this pass: its frames are behind the lifecycle, or the playback
---ended).
---@param options? { table: boolean }
---@return string|table trace
function Actor:trace(options) end
---Plays a timeline; an unknown timeline returns nil and a message (and logs timeline_missing).
---@param timeline string
---@param options? bl.PlayOptions
---@return bl.Playback? playback, string? message
function Actor:play(timeline, options) end
---@param layer? string default: the top-most timeline layer
---@return bl.Playback?
function Actor:playback(layer) end
---Begins a transition on a transition layer (REFERENCE §5).
---@param layer string
---@param target string a clip or blend tree
---@param duration number seconds
---@return bl.Token
function Actor:transition(layer, target, duration) end
---Delivers a completion by hand: only the pending token commits.
---@param layer string
---@param token bl.Token
---@return "committed"|"stale"|"duplicate"
function Actor:complete(layer, token) end
---@param layer string
---@return bl.Arbiter
function Actor:arbiter(layer) end
---@return boolean locked, string[] sources the movement lock and the sources holding it
function Actor:locked() end
---Writes the live graph as Graphviz DOT (shares on the edges); returns the path written.
---@param path string relative to the calling script's folder
---@return string
function Actor:dot(path) end

---@class bl.Recording
local Recording = {}
---Writes `time_s,frame,param:…,weight:…,additive:…,weight:<default>,time:…` rows (six
---decimals; `@channel` after a name when the actor has several channels); returns the path.
---@param path string
---@return string
function Recording:csv(path) end
---Writes a line chart of the weights over time (title, axes with units, legend), with
---`<default>` where the default pose has a share at some sample.
---@param path string
---@return string
function Recording:svg(path) end
---Stops sampling (what was recorded stays).
function Recording:stop() end
---@return integer samples
function Recording:samples() end

---@class bl.SweepRow
---@field inputs table<string, number>
---@field weights bl.Weights
---@field coverage number

---@class bl.Sweep: bl.SweepRow[]
---@field tree string
---@field parameters string[]
---@field leaves string[]
local Sweep = {}
---@return string
function Sweep:table() end
---@param path string
---@return string path
function Sweep:csv(path) end

---@class bl.ExpectEvent
---@field kind string the event kind (required)
---@field between number[]? `{ t0, t1 }` in seconds, inclusive: exactly two numbers
---@field frame integer? the logic frame it happened in
---@field actor (bl.Actor|string)?
---@field count integer? exactly this many matching events
---@field [string] string|number|table any other field of the event must equal this (a string never equals a number; `files` a list, `payload` a table, by value)

bl = {}

---Loads a TOML config into the library (relative to the calling script), or a list of them in
---one build (files that refer to each other), or a folder's `*.toml` files in one build;
---returns the names of the clips, blend trees,
---timelines and graphs they define. The files are watched for hot reload in the REPL.
---@param path string|string[]
---@return string[]
function bl.load(path) end
---@param name string
---@param spec bl.SpawnSpec
---@return bl.Actor
function bl.spawn(name, spec) end
---Runs `fn` at the first logic frame whose time ≥ `time` seconds (since the start, not a
---delay); a time already passed runs at the next frame, with a `warning`.
---@param time number
---@param fn fun()
function bl.at(time, fn) end
---Advances the clock by `dt` seconds, running every logic frame that falls due (catch-up).
---Calling it from inside a frame (a `bl.at` callback, a `bl.on` listener) is an error: schedule
---later work with `bl.at` instead.
---@param dt number
function bl.step(dt) end
---Runs exactly `n` logic frames, paused or not (not from inside a frame, as `bl.step`).
---@param n integer
function bl.frames(n) end
---@return number seconds time of the last logic frame
function bl.time() end
---@return integer frame
function bl.frame() end
---Sets the logic rate (before the first frame); returns it.
---@param hz? integer
---@return integer
function bl.rate(hz) end
---Sets how many seconds of clock time a second of `bl.step` is (0 to 1e6); returns it.
---@param speed? number
---@return number
function bl.speed(speed) end
---@param paused? boolean default true
function bl.pause(paused) end
---@param frames? integer the most frames one step may run
---@return integer
function bl.catch_up_budget(frames) end
---Records `clip_tick` events from now on (or stops, with false).
---@param on? boolean
function bl.trace_ticks(on) end
---@param filter? bl.EventFilter
---@return bl.Event[]
function bl.events(filter) end
---A `bl.on` listener: `:off()` removes it (true if it was still there). It prints as
---`bl.on listener #N for KIND (:off() removes it)`; N also names it in the errors it raises.
---@class bl.Listener
---@field id integer
---@field kind string
local Listener = {}
---@return boolean
function Listener:off() end
---Calls `fn(event)` for every event of `kind` logged from now on. An error it raises names
---the listener, the frame, and that the step stopped after that frame.
---@param kind string
---@param fn fun(event: bl.Event)
---@return bl.Listener
function bl.on(kind, fn) end
---Removes the listeners of `kind` (only those calling `fn`, when given); returns how many.
---@param kind string
---@param fn? fun(event: bl.Event)
---@return integer
function bl.off(kind, fn) end
---@param condition any
---@param message? string
function bl.expect(condition, message) end
---@param actual number
---@param expected number
---@param tolerance? number default 1e-6
---@param message? string
function bl.near(actual, expected, tolerance, message) end
---Fails unless an event matches (or exactly `count` do); returns the first match (nil when
---`count = 0` holds). A spec value of the wrong type is an error.
---@param spec bl.ExpectEvent
---@return bl.Event?
function bl.expect_event(spec) end
---Fails, with a table of expected and actual weights, unless every named leaf's weight is
---within `tolerance` (at least one leaf must be named).
---@param actor bl.Actor|string
---@param weights bl.Weights
---@param tolerance? number default 1e-6
---@param channel? string default: the first channel
function bl.expect_weights(actor, weights, tolerance, channel) end
---Fails if any event happened twice in one frame for one actor — more often than the actor
---ran passes of a looping timeline in that frame (one more than its `timeline_looped` events).
---@param filter? bl.EventFilter
function bl.no_duplicate_events(filter) end
---Samples an actor every `every` logic frames (default 1) from now.
---@param actor bl.Actor|string the actor or its name
---@param options? { every: integer? }
---@return bl.Recording
function bl.record(actor, options) end
---Writes the event log (optionally filtered) as JSON Lines (a reload's `files` as an array
---of strings, an Emit's `payload` as an object of its TOML types); returns the path written.
---@param path string
---@param filter? bl.EventFilter
---@return string
function bl.events_jsonl(path, filter) end
---What `bl.inputs` returns: `:stop()` ends the inputs (true if they were still playing; the
---parameters keep the values they were given last). It prints as
---`bl.inputs `NAME` #N on actor `A` (:stop() ends it)`.
---@class bl.Inputs
---@field id integer
---@field name string
---@field actor string
local Inputs = {}
---@return boolean
function Inputs:stop() end
---Plays `[inputs.NAME]` (keyframes and triggers) on an actor from now. A parameter has one
---driver, the latest applied: a later `bl.inputs` that drives it, or an `actor:set` of it,
---takes it over from these inputs (a `warning` event says so), which drive the rest as before.
---@param actor bl.Actor|string the actor or its name
---@param name string
---@return bl.Inputs
function bl.inputs(actor, name) end
---A tree's weights over one parameter (`from`, `to`, `steps`) or a grid of two.
---@overload fun(tree: string, axes: { x: string, y: string }, x: number[], y: number[]): bl.Sweep
---@param tree string
---@param parameter string
---@param from number
---@param to number
---@param steps integer
---@return bl.Sweep
function bl.sweep(tree, parameter, from, to, steps) end

//! The config format as written (DESIGN.md "Config format"): serde types with
//! `deny_unknown_fields`, values wrapped in [`Spanned`] where a later check must point at
//! them. Nothing here is validated beyond TOML types; see `config` and `compile`.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{Deserializer, Error as _, SeqAccess, Visitor};
use toml::Spanned;

/// An array of exactly `N` values. serde's own `[T; N]` ignores extra elements (`[x, y, z]`
/// would read as `[x, y]`), so a position or curve point with a stray number would pass
/// silently; this one reports the wrong length — from inside the visitor of the array, so the
/// error carries the array's own span, not that of whatever holds it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Exact<T, const N: usize>(pub [T; N]);

impl<T, const N: usize> std::ops::Deref for Exact<T, N> {
    type Target = [T; N];
    fn deref(&self) -> &[T; N] {
        &self.0
    }
}

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for Exact<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Values<T, const N: usize>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for Values<T, N> {
            type Value = Exact<T, N>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "an array of exactly {N} numbers")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Exact<T, N>, A::Error> {
                let mut values = Vec::with_capacity(N);
                while let Some(value) = seq.next_element()? {
                    values.push(value);
                }
                let len = values.len();
                values.try_into().map(Exact).map_err(|_| A::Error::invalid_length(len, &self))
            }
        }
        deserializer.deserialize_seq(Values(PhantomData))
    }
}

/// `[clips.NAME]`: a motion with a length and a loop flag (Unity: AnimationClip).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a clip table like { length = 1.0, loop = true }")]
pub struct RawClip {
    /// Seconds, > 0.
    pub length: Spanned<f64>,
    #[serde(default, rename = "loop")]
    pub looping: bool,
}

/// `[parameters.NAME]`: optional per-parameter settings.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a parameter table like { default = 0.0, smooth_time = 0.1 }")]
pub struct RawParameter {
    pub default: Option<Spanned<f64>>,
    /// SmoothDamp time in seconds (REFERENCE §2.7), 0 included (it smooths over 1e-4 s);
    /// absent means no smoothing.
    pub smooth_time: Option<Spanned<f64>>,
    /// SmoothDamp's maximum speed in units per second; ∞ when absent.
    pub max_speed: Option<Spanned<f64>>,
    /// `|x| < dead_zone` reads as 0.
    pub dead_zone: Option<Spanned<f64>>,
    /// Piecewise-linear remap `[[in, out], …]` with strictly increasing `in`.
    pub curve: Option<Spanned<Vec<Spanned<Exact<f64, 2>>>>>,
}

/// The blend tree types (REFERENCE §2.1–2.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum BlendKind {
    #[serde(rename = "1d")]
    OneD,
    #[serde(rename = "2d_simple_directional")]
    SimpleDirectional,
    #[serde(rename = "2d_freeform_directional")]
    FreeformDirectional,
    #[serde(rename = "2d_freeform_cartesian")]
    FreeformCartesian,
    #[serde(rename = "2d_triangulated")]
    Triangulated,
    #[serde(rename = "direct")]
    Direct,
}

impl BlendKind {
    pub const ALL: [BlendKind; 6] = [
        BlendKind::OneD,
        BlendKind::SimpleDirectional,
        BlendKind::FreeformDirectional,
        BlendKind::FreeformCartesian,
        BlendKind::Triangulated,
        BlendKind::Direct,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BlendKind::OneD => "1d",
            BlendKind::SimpleDirectional => "2d_simple_directional",
            BlendKind::FreeformDirectional => "2d_freeform_directional",
            BlendKind::FreeformCartesian => "2d_freeform_cartesian",
            BlendKind::Triangulated => "2d_triangulated",
            BlendKind::Direct => "direct",
        }
    }

    /// Whether the tree reads a 2D parameter pair `[x, y]` and places children by `position`.
    pub fn is_2d(self) -> bool {
        !matches!(self, BlendKind::OneD | BlendKind::Direct)
    }
}

/// How time advances inside a blend tree (REFERENCE §2.8).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SyncMode {
    /// One shared normalized phase advancing by `dt / Σ(w_i·D_i)` (Unity's default).
    #[default]
    Normalized,
    /// Each child advances its own time by `dt`.
    None,
}

/// `[blend_trees.NAME]`. `type` and `children` are required, but optional here: a tree
/// without one is still read, so the rest of it (its children's motions, its parameters) is
/// checked too; local validation reports what is missing.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a blend tree table with `type` and `children`")]
pub struct RawBlendTree {
    #[serde(rename = "type")]
    pub kind: Option<Spanned<BlendKind>>,
    /// The parameter of a `1d` tree.
    pub parameter: Option<Spanned<String>>,
    /// The two parameters `[x, y]` of a 2D tree.
    pub parameters: Option<Spanned<Vec<Spanned<String>>>>,
    pub children: Option<Spanned<Vec<RawChild>>>,
    #[serde(default)]
    pub sync: SyncMode,
    /// `direct` only: divide the weights by their sum.
    pub normalize: Option<Spanned<bool>>,
    /// `2d_triangulated` only: explicit triangles as child indices.
    pub triangles: Option<Spanned<Vec<Spanned<Exact<i64, 3>>>>>,
}

impl RawBlendTree {
    /// Its children; none when `children` is missing (reported).
    pub fn children(&self) -> &[RawChild] {
        self.children.as_ref().map_or(&[], |c| c.get_ref())
    }
}

/// One child of a blend tree.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a child table like { motion = \"idle\", threshold = 0.0 }")]
pub struct RawChild {
    /// A clip or another blend tree of the library.
    pub motion: Spanned<String>,
    /// `1d` only.
    pub threshold: Option<Spanned<f64>>,
    /// 2D types only.
    pub position: Option<Spanned<Exact<f64, 2>>>,
    /// `direct` only: the parameter that is this child's weight.
    pub parameter: Option<Spanned<String>>,
}

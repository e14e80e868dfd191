//! Local checks of one `[blend_trees.NAME]` entry: the fields its type needs (parameters,
//! thresholds, positions, per-child parameters, explicit triangles), finite numbers, no two
//! children at one position, and explicit triangles that are real triangles. Checks that
//! need other entries (names, references) or the triangulation live in `compile`.

use toml::Spanned;

use super::raw::{BlendKind, Exact, RawBlendTree, RawChild};
use super::{Named, Problems};

/// The child field each tree type places its children with (the JSON Schema requires it too).
pub(super) fn placement(kind: BlendKind) -> &'static str {
    match kind {
        BlendKind::OneD => "threshold",
        BlendKind::Direct => "parameter",
        _ => "position",
    }
}

/// How messages name a tree type's children.
fn children_label(kind: BlendKind) -> &'static str {
    match kind {
        BlendKind::OneD => "1d",
        BlendKind::Direct => "direct",
        _ => "2D",
    }
}

pub(super) fn validate_blend_tree(p: &mut Problems, tree: &Named<RawBlendTree>) {
    let (name, name_span, t) = (&tree.name, tree.span.clone(), &tree.value);
    let children = t.children();
    match &t.children {
        Some(list) if list.get_ref().is_empty() => {
            p.missing(&["children"], list.span(), format!("blend tree `{name}` has no children"))
        }
        Some(_) => {}
        None => p.missing(
            &["children"],
            name_span.clone(),
            format!("blend tree `{name}` needs `children = [{{ motion = \"…\", … }}, …]`"),
        ),
    }
    // Without a type (reported as missing, or its unreadable value), no check that depends on
    // it can be made; the children's motions and the parameters are still checked in `compile`.
    let Some(kind) = t.kind.as_ref().map(|k| *k.get_ref()) else {
        let types = BlendKind::ALL.map(BlendKind::name).join(", ");
        p.missing(&["type"], name_span, format!("blend tree `{name}` needs a `type` (one of: {types})"));
        return;
    };
    match kind {
        BlendKind::OneD => {
            if t.parameter.is_none() {
                let hint = if t.parameters.is_some() { " (a 1d tree takes `parameter`, not `parameters`)" } else { "" };
                p.missing(&["parameter"], name_span, format!("1d blend tree `{name}` needs `parameter = \"…\"`{hint}"));
            }
            if let Some(ps) = &t.parameters {
                p.error(ps.span(), "a 1d tree takes one `parameter`, not `parameters`");
            }
            validate_thresholds(p, children);
        }
        BlendKind::Direct => {
            let misplaced = [t.parameter.as_ref().map(Spanned::span), t.parameters.as_ref().map(Spanned::span)];
            for span in misplaced.into_iter().flatten() {
                p.error(span, "a direct tree reads one `parameter` per child, not parameters of the tree");
            }
            for child in children.iter().filter(|c| c.parameter.is_none()) {
                p.missing(
                    &["parameter"],
                    child.motion.span(),
                    format!("direct blend tree child `{}` needs `parameter`", child.motion.get_ref()),
                );
            }
        }
        _ => {
            match &t.parameters {
                Some(ps) if ps.get_ref().len() == 2 => {}
                Some(ps) => {
                    p.error(ps.span(), format!("a 2D tree takes two parameters `[x, y]`, got {}", ps.get_ref().len()))
                }
                // A list written as `parameter` was reported with a did-you-mean already.
                None => p.missing(
                    &["parameters", "parameter"],
                    name_span,
                    format!("2D blend tree `{name}` needs `parameters = [\"x\", \"y\"]`"),
                ),
            }
            if let Some(param) = &t.parameter {
                p.error(param.span(), "a 2D tree takes `parameters = [x, y]`, not `parameter`");
            }
            validate_positions(p, kind, children);
        }
    }
    for child in children {
        check_child_fields(p, kind, child);
    }
    if let Some(normalize) = &t.normalize
        && kind != BlendKind::Direct
    {
        p.error(normalize.span(), "`normalize` applies to direct trees only");
    }
    match &t.triangles {
        Some(triangles) if kind == BlendKind::Triangulated => validate_triangles(p, children, triangles),
        Some(triangles) => p.error(triangles.span(), "`triangles` applies to 2d_triangulated trees only"),
        None => {}
    }
}

/// Reports child fields that belong to another tree type.
fn check_child_fields(p: &mut Problems, kind: BlendKind, child: &RawChild) {
    let fields = [
        ("threshold", child.threshold.as_ref().map(Spanned::span)),
        ("position", child.position.as_ref().map(Spanned::span)),
        ("parameter", child.parameter.as_ref().map(Spanned::span)),
    ];
    let wanted = placement(kind);
    for (field, span) in fields {
        if let Some(span) = span
            && field != wanted
        {
            p.error(span, format!("{} children take `{wanted}`, not `{field}`", children_label(kind)));
        }
    }
}

fn validate_thresholds(p: &mut Problems, children: &[RawChild]) {
    let mut seen: Vec<f64> = Vec::new();
    for child in children {
        let Some(th) = &child.threshold else {
            p.missing(
                &["threshold"],
                child.motion.span(),
                format!("1d child `{}` needs a `threshold`", child.motion.get_ref()),
            );
            continue;
        };
        if p.finite(th, "threshold") {
            let v = *th.get_ref();
            if seen.contains(&v) {
                p.warning(
                    th.span(),
                    format!("two children share threshold {v}; Unity then gives both weight 1 there (sum 2)"),
                );
            }
            seen.push(v);
        }
    }
}

/// Every position present, finite, and not shared with an earlier child.
fn validate_positions(p: &mut Problems, kind: BlendKind, children: &[RawChild]) {
    let mut seen: Vec<([f64; 2], &str)> = Vec::new();
    for child in children {
        let name = child.motion.get_ref().as_str();
        let Some(pos) = &child.position else {
            p.missing(&["position"], child.motion.span(), format!("2D child `{name}` needs a `position = [x, y]`"));
            continue;
        };
        let [x, y] = pos.get_ref().0;
        let x_finite = p.finite_at(pos.span(), x, "position x");
        let y_finite = p.finite_at(pos.span(), y, "position y");
        if !(x_finite && y_finite) {
            continue;
        }
        if let Some((_, other)) = seen.iter().find(|(q, _)| *q == [x, y]) {
            let message = if kind == BlendKind::SimpleDirectional && [x, y] == [0.0, 0.0] {
                format!(
                    "`{name}` is a second child at (0, 0) after `{other}`: a simple directional tree has at most one \
                     centre child (Unity would give every child weight 0)"
                )
            } else {
                format!("`{name}` is at ({x}, {y}), where `{other}` already is: each position holds one child")
            };
            p.error(pos.span(), message);
        }
        seen.push(([x, y], name));
    }
}

/// Explicit triangles: a non-empty list of in-range, distinct child indices spanning a
/// non-zero area. A list emptied by dropping unreadable triangles (reported) is not empty.
fn validate_triangles(p: &mut Problems, children: &[RawChild], triangles: &Spanned<Vec<Spanned<Exact<i64, 3>>>>) {
    if triangles.get_ref().is_empty() {
        p.missing(
            &["triangles"],
            triangles.span(),
            "`triangles` is empty; leave it out to triangulate automatically (Delaunay)",
        );
    }
    let n = children.len();
    for triangle in triangles.get_ref() {
        let corners = triangle.get_ref().0;
        let shown = format!("[{}, {}, {}]", corners[0], corners[1], corners[2]);
        if let Some(&bad) = corners.iter().find(|&&i| usize::try_from(i).map_or(true, |i| i >= n)) {
            let range = if n == 0 { "it has none".to_string() } else { format!("0 to {}", n - 1) };
            p.error(
                triangle.span(),
                format!("triangle {shown}: child index {bad} is out of range ({n} children: {range})"),
            );
            continue;
        }
        let corners = corners.map(|i| i as usize);
        if corners[0] == corners[1] || corners[1] == corners[2] || corners[0] == corners[2] {
            p.error(
                triangle.span(),
                format!("triangle {shown} names a child twice; it needs three different children"),
            );
            continue;
        }
        let points: Option<Vec<[f64; 2]>> =
            corners.iter().map(|&i| children[i].position.as_ref().map(|q| q.get_ref().0)).collect();
        if let Some(q) = points
            && zero_area(q[0], q[1], q[2])
        {
            let names: Vec<&str> = corners.iter().map(|&i| children[i].motion.get_ref().as_str()).collect();
            p.error(
                triangle.span(),
                format!("triangle {shown} (`{}`) has zero area: its corners lie on one line", names.join("`, `")),
            );
        }
    }
}

/// Whether the triangle (finite corners) is degenerate: `|u × v| ≤ 1e-12·|u|·|v|`.
fn zero_area(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> bool {
    let (u, v) = ([b[0] - a[0], b[1] - a[1]], [c[0] - a[0], c[1] - a[1]]);
    let area = (u[0] * v[1] - u[1] * v[0]).abs();
    area <= 1e-12 * u[0].hypot(u[1]) * v[0].hypot(v[1])
}

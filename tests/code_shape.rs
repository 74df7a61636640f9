//! The shape of the source tree: no module imports another in a circle, no file over
//! `MAX_FILE_LINES`, no function over `MAX_FN_LINES`, and the CLI (`src/`) under
//! `MAX_CLI_LINES` in all: its logic lives in the crates. Tests and the paper models are
//! exempt from the per-file and per-function limits. Run alone with `cargo test --test code_shape`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 100;
const MAX_CLI_LINES: usize = 3000;

/// One crate's source root and the name its files use for it (`crate`).
const CRATES: &[&str] = &[
    "crates/netlist/src",
    "crates/routing/src",
    "crates/router/src",
    "crates/engine/src",
    "crates/analysis/src",
    "crates/booksim/src",
    "crates/studies/src",
    "src",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file relative to its crate root: `a/b.rs` and `a/b/mod.rs` are
/// both `a::b`; `lib.rs` and `main.rs` are the root (empty path).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// Test code: files named for tests, and everything after a `#[cfg(test)]` line.
fn is_test_file(rel: &Path) -> bool {
    let s = rel.to_string_lossy();
    s.ends_with("tests.rs")
        || s.contains("/tests/")
        || s.contains("testutil")
        || s.contains("_tests")
}

fn non_test_lines(text: &str) -> Vec<&str> {
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .collect()
}

/// A file's code with comments and test code removed: its `use` statements, each on one
/// line, and its other lines.
fn split_uses(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut uses, mut other) = (Vec::new(), Vec::new());
    let mut statement = String::new();
    for line in non_test_lines(text) {
        let code = line.split("//").next().unwrap_or("").trim();
        let opens = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .any(|p| code.starts_with(p));
        if statement.is_empty() && !opens {
            other.push(code.to_string());
            continue;
        }
        statement.push_str(code);
        statement.push(' ');
        if code.ends_with(';') {
            uses.push(std::mem::take(&mut statement));
        }
    }
    (uses, other)
}

/// One path a `use` statement brings in: its segments as written (`crate`, `super` and
/// `self` included) and the name it binds (`None` for a glob).
#[derive(Clone, Debug, PartialEq, Eq)]
struct UsePath {
    segments: Vec<String>,
    name: Option<String>,
}

/// The paths of a `use` tree: `a::{b, c::{d as e, self}, f::*}` gives `a::b`, `a::c::d`
/// (bound to `e`), `a::c` and `a::f` (a glob).
fn use_tree(tree: &str, prefix: &[String], out: &mut Vec<UsePath>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    let (head, group) = match tree.find('{') {
        Some(open) => {
            let close = tree.rfind('}').unwrap_or(tree.len());
            (&tree[..open], Some(&tree[open + 1..close]))
        }
        None => (tree, None),
    };
    let (head, alias) = match head.split_once(" as ") {
        Some((p, a)) => (p, Some(a.trim().to_string())),
        None => (head, None),
    };
    let mut segments = prefix.to_vec();
    segments.extend(
        head.split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from),
    );
    if let Some(group) = group {
        for item in split_top_level(group) {
            use_tree(item, &segments, out);
        }
        return;
    }
    match segments.last().map(String::as_str) {
        Some("*") => {
            segments.pop();
            out.push(UsePath {
                segments,
                name: None,
            });
        }
        Some("self") => {
            segments.pop();
            let name = alias.or_else(|| segments.last().cloned());
            out.push(UsePath { segments, name });
        }
        _ => {
            let name = alias.or_else(|| segments.last().cloned());
            out.push(UsePath { segments, name });
        }
    }
}

/// The items of a group, split at its own commas (not at those of nested groups).
fn split_top_level(group: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// The paths of one `use` statement, and whether it re-exports them (`pub use`).
fn use_statement(statement: &str) -> (bool, Vec<UsePath>) {
    let t = statement.trim().trim_end_matches(';');
    let (vis, tree) = t.split_once("use ").unwrap_or(("", t));
    let mut out = Vec::new();
    use_tree(tree, &[], &mut out);
    (vis.trim().starts_with("pub"), out)
}

/// A `use` path resolved against the file's module: `crate::`, `super::` and `self::`
/// paths, and paths starting with a child module; `None` for another crate's.
fn absolute(
    path: &[String],
    module: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut base = module.to_vec();
    let mut rest = path;
    match first.as_str() {
        "crate" => {
            base.clear();
            rest = &path[1..];
        }
        "self" => rest = &path[1..],
        "super" => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => {
            let mut child = module.to_vec();
            child.push(first.clone());
            if !modules.contains(&child) {
                return None;
            }
        }
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The `crate::` and `super::` paths a line of code (not a `use` statement) names,
/// resolved against the file's module.
fn inline_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (start, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        let prev = code[..start].chars().next_back();
        if prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '$') {
            continue;
        }
        let mut rest = &code[start..];
        let mut path = if let Some(r) = rest.strip_prefix("crate::") {
            rest = r;
            Vec::new()
        } else {
            let mut base = module.to_vec();
            while let Some(after) = rest.strip_prefix("super::") {
                base.pop();
                rest = after;
            }
            base
        };
        path.extend(identifiers(rest));
        out.push(path);
    }
    out
}

/// The leading `a::b::c` identifiers of a path.
fn identifiers(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    for seg in rest.split("::") {
        let id: String = seg
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if id.is_empty() {
            break;
        }
        let whole = id.len() == seg.len();
        out.push(id);
        if !whole {
            break;
        }
    }
    out
}

/// The names each module binds with `use` (descendants see them too): name -> the item's
/// full path, `None` for another crate's item.
type Bindings = BTreeMap<Vec<String>, BTreeMap<String, Option<Vec<String>>>>;

/// One source file: its module path and its text.
type File = (Vec<String>, String);

/// The import circles among `files` (one crate), each as its sorted modules. A module
/// depends on the modules its `use` statements and inline `crate::`/`super::` paths name,
/// followed through `use` bindings to the file that defines the item; a module re-exporting
/// its own descendants (a facade) does not depend on them.
fn module_circles(files: &[File]) -> Vec<Vec<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut bindings = Bindings::new();
    // Per file: the full paths it depends on.
    let mut named: Vec<Vec<Vec<String>>> = Vec::new();
    for (module, text) in files {
        let (uses, other) = split_uses(text);
        let mut paths = Vec::new();
        for statement in &uses {
            let (public, items) = use_statement(statement);
            for item in items {
                let full = absolute(&item.segments, module, &modules);
                if let Some(name) = item.name {
                    let names = bindings.entry(module.clone()).or_default();
                    names.insert(name, full.clone());
                }
                match full {
                    // A facade: a module re-exporting its own descendants.
                    Some(full) if public && full.starts_with(module) => {}
                    Some(full) => paths.push(full),
                    None => {}
                }
            }
        }
        paths.extend(other.iter().flat_map(|line| inline_paths(line, module)));
        named.push(paths);
    }
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for ((module, _), paths) in files.iter().zip(&named) {
        let entry = edges.entry(module.clone()).or_default();
        for path in paths {
            if let Some(target) = resolve(path, &modules, &bindings) {
                if &target != module {
                    entry.insert(target);
                }
            }
        }
    }
    circles(&edges)
}

/// The module a path names: the longest known module that is a prefix of `path`, followed
/// through the modules' `use` bindings to the file that defines the item; `None` for
/// another crate's item.
fn resolve(
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
    bindings: &Bindings,
) -> Option<Vec<String>> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let module = (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| modules.contains(p))?;
        let next = path
            .get(module.len())
            .and_then(|item| bindings.get(&module)?.get(item));
        match next {
            Some(None) => return None,
            Some(Some(full)) if full.as_slice() != path.as_slice() => {
                let mut p = full.clone();
                p.extend(path[module.len() + 1..].iter().cloned());
                path = p;
            }
            _ => return Some(module),
        }
    }
    None
}

/// Strongly connected components with more than one module (Tarjan).
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<Vec<String>, usize>,
        low: BTreeMap<Vec<String>, usize>,
        stack: Vec<Vec<String>>,
        on_stack: BTreeSet<Vec<String>>,
        found: Vec<Vec<Vec<String>>>,
    }
    fn visit(s: &mut State<'_>, v: &Vec<String>) {
        let i = s.index.len();
        s.index.insert(v.clone(), i);
        s.low.insert(v.clone(), i);
        s.stack.push(v.clone());
        s.on_stack.insert(v.clone());
        let next: Vec<Vec<String>> = s
            .edges
            .get(v)
            .map(|e| e.iter().cloned().collect())
            .unwrap_or_default();
        for w in &next {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(&w);
                let done = &w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.found.push(comp);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// The import circles of one crate, each as a list of file modules.
fn crate_circles(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let files: Vec<File> = files
        .iter()
        .filter(|f| !is_test_file(f.strip_prefix(src).unwrap()))
        .map(|f| {
            (
                module_of(f.strip_prefix(src).unwrap()),
                fs::read_to_string(f).unwrap(),
            )
        })
        .collect();
    module_circles(&files)
        .into_iter()
        .map(|c| {
            let names: Vec<String> = c
                .iter()
                .map(|m| {
                    if m.is_empty() {
                        "(crate root)".to_string()
                    } else {
                        m.join("::")
                    }
                })
                .collect();
            format!(
                "{}: {}",
                src.strip_prefix(root()).unwrap_or(src).display(),
                names.join(" <-> ")
            )
        })
        .collect()
}

#[test]
fn no_module_imports_another_in_a_circle() {
    let found: Vec<String> = CRATES
        .iter()
        .flat_map(|c| crate_circles(&root().join(c)))
        .collect();
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

fn exempt_from_size(rel: &str) -> bool {
    rel.contains("tests") || rel.contains("testutil") || rel.contains("/papers/")
}

/// Functions longer than `MAX_FN_LINES`, found by rustfmt's layout: a line opening a `fn`
/// ends at the next line that closes a brace at the same indentation.
fn long_functions(rel: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let is_fn = t.starts_with("fn ")
            || t.starts_with("pub fn ")
            || t.starts_with("pub(crate) fn ")
            || t.starts_with("pub(super) fn ")
            || t.starts_with("const fn ")
            || t.starts_with("pub const fn ");
        if !is_fn || t.ends_with(';') {
            continue;
        }
        let close = " ".repeat(indent) + "}";
        if let Some(len) = lines[i + 1..].iter().position(|l| *l == close) {
            if len + 2 > MAX_FN_LINES {
                out.push(format!("{rel}:{}: {} lines", i + 1, len + 2));
            }
        }
    }
    out
}

#[test]
fn no_file_or_function_is_too_long() {
    let mut found = Vec::new();
    for c in CRATES.iter() {
        let mut files = Vec::new();
        rust_files(&root().join(c), &mut files);
        for f in files {
            let rel = f
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if exempt_from_size(&rel) {
                continue;
            }
            let text = fs::read_to_string(&f).unwrap();
            let body = non_test_lines(&text);
            if body.len() > MAX_FILE_LINES {
                found.push(format!(
                    "{rel}: {} lines (limit {MAX_FILE_LINES})",
                    body.len()
                ));
            }
            found.extend(long_functions(&rel, &body.join("\n")));
        }
    }
    assert!(found.is_empty(), "too long:\n{}", found.join("\n"));
}

#[test]
fn the_cli_is_argument_parsing_and_printing_only() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let lines: usize = files
        .iter()
        .map(|f| fs::read_to_string(f).unwrap().lines().count())
        .sum();
    assert!(
        lines < MAX_CLI_LINES,
        "src/ has {lines} lines (limit {MAX_CLI_LINES}): move logic into crates/studies"
    );
}

/// Files of a made-up crate: `(module path, text)`.
fn made_up(files: &[(&str, &str)]) -> Vec<File> {
    files
        .iter()
        .map(|(m, t)| {
            let module = m.split("::").filter(|s| !s.is_empty()).map(String::from);
            (module.collect(), t.to_string())
        })
        .collect()
}

/// Module paths as `a::b` strings.
fn named(circles: Vec<Vec<Vec<String>>>) -> Vec<Vec<String>> {
    circles
        .into_iter()
        .map(|c| c.into_iter().map(|m| m.join("::")).collect())
        .collect()
}

#[test]
fn a_circle_through_a_use_super_group_is_found() {
    let files = made_up(&[
        ("", "mod routing;\n"),
        (
            "routing",
            "mod classes;\nmod registry;\npub use registry::build;\n",
        ),
        (
            "routing::classes",
            "use super::{registry, RouteSet};\nfn f() { registry::build() }\n",
        ),
        (
            "routing::registry",
            "use super::classes::Classes;\npub fn build() {}\n",
        ),
    ]);
    assert_eq!(
        named(module_circles(&files)),
        [["routing::classes", "routing::registry"]]
    );
}

#[test]
fn nested_and_multi_line_groups_name_every_module() {
    let files = made_up(&[
        ("", "mod a;\nmod b;\nmod c;\npub use c::C;\n"),
        ("a", "use crate::{\n    b::{self, B},\n    C,\n};\n"),
        ("b", "use self::inner::X;\nmod inner;\n"),
        ("b::inner", "use crate::a::A as Y; // back to a\n"),
        ("c", "use super::*;\n"),
    ]);
    // a -> b, a -> c (through the root's re-export of C), b -> b::inner, b::inner -> a,
    // c -> the root (a glob), and the root re-exports its own child: no edge.
    assert_eq!(named(module_circles(&files)), [["a", "b", "b::inner"]]);
}

#[test]
fn use_trees_expand_groups_aliases_self_and_globs() {
    let (public, paths) = use_statement("pub(crate) use a::{b, c::{d as e, self}, f::*};");
    assert!(public);
    let got: Vec<(String, Option<String>)> = paths
        .into_iter()
        .map(|p| (p.segments.join("::"), p.name))
        .collect();
    let want = [
        ("a::b", Some("b")),
        ("a::c::d", Some("e")),
        ("a::c", Some("c")),
        ("a::f", None),
    ];
    let want: Vec<(String, Option<String>)> = want
        .iter()
        .map(|(p, n)| (p.to_string(), n.map(String::from)))
        .collect();
    assert_eq!(got, want);
}

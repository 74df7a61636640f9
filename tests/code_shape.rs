//! The shape of the source tree: no module imports another in a circle, no file over
//! `MAX_FILE_LINES`, no function over `MAX_FN_LINES`. Tests and the paper models are exempt
//! from the size limits. Run alone with `cargo test --test code_shape`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 100;

/// One crate's source root and the name its files use for it (`crate`).
const CRATES: [&str; 7] = [
    "crates/netlist/src",
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

/// Paths a line names, as module-path segments resolved against the file's module.
fn referenced_paths(line: &str, module: &[String]) -> Vec<Vec<String>> {
    let code = line.split("//").next().unwrap_or("");
    let t = code.trim_start();
    // A parent re-exporting its children is a facade, not a dependency.
    if t.starts_with("pub use") || t.starts_with("pub(crate) use") || t.starts_with("mod ") {
        return Vec::new();
    }
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
        // `use a::{b, c::d}` names every listed module.
        let listed = rest.find('{').filter(|&i| rest[..i].ends_with("::"));
        if let Some(open) = listed {
            let inner = rest[open + 1..].split('}').next().unwrap_or("");
            for item in inner.split(',') {
                let mut p = path.clone();
                p.extend(identifiers(item.trim()));
                out.push(p);
            }
        }
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

/// Items a module re-exports (`pub use child::{A, B as C};`): name -> full path.
type Reexports = BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>;

/// The re-exports of `module` read from its text.
fn reexports_of(module: &[String], text: &str, into: &mut Reexports) {
    let mut statement = String::new();
    for line in non_test_lines(text) {
        let t = line.trim();
        if statement.is_empty() && !(t.starts_with("pub use ") || t.starts_with("pub(crate) use "))
        {
            continue;
        }
        statement.push_str(t);
        statement.push(' ');
        if !t.ends_with(';') {
            continue;
        }
        let body = statement
            .split_once("use ")
            .map_or("", |x| x.1)
            .trim_end_matches([';', ' ']);
        let body = body.strip_prefix("self::").unwrap_or(body);
        let mut base = module.to_vec();
        let rest = if let Some(r) = body.strip_prefix("crate::") {
            base.clear();
            r
        } else {
            body
        };
        let (prefix, items) = match rest.split_once("::{") {
            Some((p, items)) => (p, items.trim_end_matches('}').to_string()),
            None => match rest.rsplit_once("::") {
                Some((p, item)) => (p, item.to_string()),
                None => ("", rest.to_string()),
            },
        };
        base.extend(
            prefix
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from),
        );
        for item in items.split(',') {
            let item = item.trim();
            let (path, name) = match item.split_once(" as ") {
                Some((p, n)) => (p.trim(), n.trim()),
                None => (item, item.rsplit("::").next().unwrap_or(item)),
            };
            if path.is_empty() || path.contains('*') || path == "self" {
                continue;
            }
            let mut full = base.clone();
            full.extend(path.split("::").map(String::from));
            into.entry(module.to_vec())
                .or_default()
                .insert(name.to_string(), full);
        }
        statement.clear();
    }
}

/// The module a path names: the longest known module that is a prefix of `path`, followed
/// through the re-exports of facade modules to the file that defines the item.
fn resolve(
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
    reexports: &Reexports,
) -> Option<Vec<String>> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let module = (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| modules.contains(p))?;
        let next = path
            .get(module.len())
            .and_then(|item| reexports.get(&module)?.get(item));
        match next {
            Some(full) if full.as_slice() != path.as_slice() => {
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
    let files: Vec<(Vec<String>, String)> = files
        .iter()
        .filter(|f| !is_test_file(f.strip_prefix(src).unwrap()))
        .map(|f| {
            (
                module_of(f.strip_prefix(src).unwrap()),
                fs::read_to_string(f).unwrap(),
            )
        })
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut reexports = Reexports::new();
    for (module, text) in &files {
        reexports_of(module, text, &mut reexports);
    }
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, text) in &files {
        let entry = edges.entry(module.clone()).or_default();
        for line in non_test_lines(text) {
            for path in referenced_paths(line, module) {
                if let Some(target) = resolve(&path, &modules, &reexports) {
                    if &target != module {
                        entry.insert(target);
                    }
                }
            }
        }
    }
    circles(&edges)
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
    for c in CRATES {
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

//! Every command the documentation shows is run, so the docs cannot drift from the program.
//!
//! The rule (README.md, "Documentation"): in README.md and docs/*.md, each line of a fenced
//! block tagged `sh` is one shell command, run by bash (with `pipefail`) from the
//! repository root with this build's `flitsim` first on the PATH (`cargo run --release --`
//! is read as `flitsim`) and `out/` existing; it must exit 0. A command that needs a
//! program not installed here (`neato` from Graphviz) is skipped, and so are `cargo`
//! commands. Lines starting with `#` are comments. A comment line
//! `# doc-test: replace "A" "B"` lets the test run the block's later commands with `A`
//! replaced by `B` (smaller cycle counts), and says so in the doc. Blocks with any other
//! tag (`text`, `toml`, `console`, none) are not run: usage synopses, outputs, errors.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a doc: file, line, the command as run.
struct DocCommand {
    file: PathBuf,
    line: usize,
    command: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// `# doc-test: replace "A" "B"` as (A, B).
fn replacement(line: &str) -> Option<(String, String)> {
    let rest = line.trim().strip_prefix("# doc-test: replace ")?;
    let parts: Vec<&str> = rest.split('"').collect();
    match parts.as_slice() {
        ["", a, " ", b, ""] => Some((a.to_string(), b.to_string())),
        _ => panic!("malformed doc-test marker: {line}"),
    }
}

/// The commands of the `sh` blocks of `file`.
fn commands(file: &Path) -> Vec<DocCommand> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    let mut in_sh = None::<Vec<(String, String)>>;
    let mut in_other = false;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (fence, &mut in_sh, in_other) {
            (Some(_), Some(_), _) => in_sh = None,
            (Some(_), None, true) => in_other = false,
            (Some(tag), None, false) if tag.trim() == "sh" => in_sh = Some(Vec::new()),
            (Some(_), None, false) => in_other = true,
            (None, Some(reps), _) => {
                let l = line.trim();
                if let Some(r) = replacement(l) {
                    reps.push(r);
                } else if !l.is_empty() && !l.starts_with('#') {
                    let mut command = l.replace("cargo run --release -- ", "flitsim ");
                    for (a, b) in reps.iter() {
                        command = command.replace(a.as_str(), b.as_str());
                    }
                    out.push(DocCommand {
                        file: file.to_path_buf(),
                        line: i + 1,
                        command,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether every program of the pipeline `command` is installed (`flitsim` always is).
fn programs_installed(command: &str) -> bool {
    command.split('|').all(|segment| {
        let program = segment.split_whitespace().next().unwrap_or("");
        program == "flitsim"
            || Command::new("sh")
                .args(["-c", &format!("command -v {program}")])
                .output()
                .is_ok_and(|o| o.status.success())
    })
}

fn run(c: &DocCommand) -> Result<(), String> {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_flitsim"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .args(["-c", &format!("set -eo pipefail\n{}", c.command)])
        .current_dir(root())
        .env("PATH", path)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}:{}: `{}` exited {:?}\n{}",
            c.file.display(),
            c.line,
            c.command,
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[test]
fn every_documented_command_runs() {
    let all: Vec<DocCommand> = doc_files().iter().flat_map(|f| commands(f)).collect();
    assert!(
        all.len() >= 10,
        "only {} documented commands found",
        all.len()
    );
    std::fs::create_dir_all(root().join("out")).unwrap();
    // `cargo` commands build and test: the one running this test is one of them.
    let failures: Vec<String> = all
        .iter()
        .filter(|c| !c.command.starts_with("cargo ") && programs_installed(&c.command))
        .filter_map(|c| run(c).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_marker_grammar_is_strict() {
    assert_eq!(
        replacement("# doc-test: replace \"--rates auto\" \"--rates 0.01\""),
        Some(("--rates auto".into(), "--rates 0.01".into()))
    );
    assert_eq!(replacement("# a comment"), None);
}

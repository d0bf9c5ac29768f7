//! The hostile corpus (tests/fixtures/hostile/): every input ends in a clear error or a
//! correct result, within a time bound and a memory cap, never a panic, a hang or lost
//! progress. The cases that need a FIFO, a device or a symlink are made here.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Wall time one case may take (a debug build; the release build is ten times faster).
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// Address space one case may use, in KiB, set with `ulimit -v`.
const MEMORY_LIMIT_KIB: u64 = 2 * 1024 * 1024;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

#[derive(serde::Deserialize)]
struct Cases {
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    input: String,
    run: String,
    exit: i32,
    expect: String,
    expect_app: Option<String>,
    #[allow(dead_code)]
    why: Option<String>,
}

struct Ran {
    code: Option<i32>,
    out: String,
    took: Duration,
}

/// Runs the binary with `args` under the memory cap and time bound, with private config
/// and data folders; stdin from `stdin` or empty.
fn run(args: &[&str], stdin: Option<&[u8]>, config: &Path, data: &Path) -> Ran {
    let bin = env!("CARGO_BIN_EXE_kubedrill");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_LIMIT_KIB} && exec \"$@\""))
        .arg("sh")
        .arg(bin)
        .args(args)
        .env("KUBEDRILL_CONFIG_DIR", config)
        .env("KUBEDRILL_DATA_DIR", data)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let input = stdin.map(<[u8]>::to_vec).unwrap_or_default();
    let mut pipe = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let start = Instant::now();
    // Output is read on threads so a full pipe never stalls the child.
    let mut so = child.stdout.take().expect("stdout");
    let mut se = child.stderr.take().expect("stderr");
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut so, &mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut se, &mut v);
        v
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`kubedrill {}` ran past {TIME_LIMIT:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = start.elapsed();
    let _ = feeder.join();
    let mut out = out_t.join().unwrap_or_default();
    out.extend(err_t.join().unwrap_or_default());
    Ran {
        code: status.code(),
        out: String::from_utf8_lossy(&out).into_owned(),
        took,
    }
}

fn assert_sane(what: &str, r: &Ran) {
    assert!(
        !r.out.contains("panicked") && !r.out.contains("overflowed its stack"),
        "{what} panicked:\n{}",
        r.out
    );
    assert!(r.code.is_some(), "{what} died of a signal:\n{}", r.out);
    // Nothing raw reaches the terminal: no escape character in what was printed.
    assert!(
        !r.out.contains('\u{1b}') && !r.out.contains('\u{202e}'),
        "{what} printed a raw escape or bidi character:\n{}",
        r.out
    );
}

/// A store holding one grade, made by the binary itself through `import`.
fn seeded_store(config: &Path, data: &Path) {
    let doc = r#"{"format":"kubedrill-progress","version":2,"reviews":[{"question_id":"deleted-pod-returns","grade":"good","reviewed_at":1728043200000,"took_ms":1000,"mode":"review","phase_before":"new","undone_at":null}],"cards":[],"mock_sessions":[],"solved_challenges":[]}"#;
    let f = data.join("seed.json");
    std::fs::create_dir_all(data).unwrap();
    std::fs::write(&f, doc).unwrap();
    let r = run(&["import", f.to_str().unwrap()], None, config, data);
    assert_eq!(r.code, Some(0), "{}", r.out);
}

fn reviews_kept(config: &Path, data: &Path) -> usize {
    let r = run(&["export"], None, config, data);
    assert_eq!(r.code, Some(0), "export after the case failed: {}", r.out);
    r.out
        .matches("\"question_id\": \"deleted-pod-returns\"")
        .count()
}

#[test]
fn every_case_in_the_corpus() {
    let cases: Cases =
        toml::from_str(&std::fs::read_to_string(corpus().join("cases.toml")).unwrap()).unwrap();
    assert!(cases.case.len() >= 40, "the corpus lost cases");
    let mut failures = Vec::new();
    for c in &cases.case {
        let input = corpus().join(&c.input);
        let bytes = std::fs::read(&input).unwrap_or_else(|e| panic!("{}: {e}", c.input));
        let config = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let r = match c.run.as_str() {
            "check" => run(
                &["check", input.to_str().unwrap()],
                None,
                config.path(),
                data.path(),
            ),
            "sim" => {
                let first = String::from_utf8_lossy(bytes.split(|&b| b == b'\n').next().unwrap());
                let scenario = first.trim_start_matches('#').trim().to_string();
                run(
                    &["sim", &scenario],
                    Some(&bytes),
                    config.path(),
                    data.path(),
                )
            }
            "import" => {
                seeded_store(config.path(), data.path());
                let r = run(
                    &["import", input.to_str().unwrap()],
                    None,
                    config.path(),
                    data.path(),
                );
                // Rejected or merged, the grade already there is still there.
                let kept = reviews_kept(config.path(), data.path());
                if kept != 1 {
                    failures.push(format!("{}: the stored grade was lost ({kept})", c.input));
                }
                r
            }
            "config" => {
                std::fs::write(config.path().join("config.toml"), &bytes).unwrap();
                if let Some(want) = &c.expect_app {
                    let text = String::from_utf8_lossy(&bytes);
                    let start = Instant::now();
                    let cfg = kubedrill::tui::config::parse(
                        &text,
                        "config.toml",
                        kubedrill::tui::Settings::default(),
                    );
                    if start.elapsed() > TIME_LIMIT / 4 {
                        failures.push(format!(
                            "{}: the app's settings took {:?}",
                            c.input,
                            start.elapsed()
                        ));
                    }
                    if !cfg
                        .problems
                        .first()
                        .is_some_and(|p| p.contains(want.as_str()))
                    {
                        failures.push(format!(
                            "{}: the app's first problem is {:?}, wanted `{want}`",
                            c.input,
                            cfg.problems.first()
                        ));
                    }
                }
                run(&["stats"], None, config.path(), data.path())
            }
            other => panic!("{}: no run `{other}`", c.input),
        };
        assert_sane(&c.input, &r);
        if r.code != Some(c.exit) {
            failures.push(format!(
                "{}: exit {:?}, wanted {} (took {:?}):\n{}",
                c.input,
                r.code,
                c.exit,
                r.took,
                r.out.chars().take(600).collect::<String>()
            ));
        } else if !r.out.contains(&c.expect) {
            failures.push(format!(
                "{}: output lacks `{}`:\n{}",
                c.input,
                c.expect,
                r.out.chars().take(600).collect::<String>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[cfg(unix)]
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_symlink_loops_never_hang_start_up() {
    let config = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let content = config.path().join("content");
    std::fs::create_dir_all(content.join("nested")).unwrap();
    std::fs::copy(
        corpus().join("../good/minimal.toml"),
        content.join("nested/good.toml"),
    )
    .unwrap();
    // A link from deep inside back to the top: walked once, reported once.
    std::os::unix::fs::symlink(&content, content.join("nested/loop")).unwrap();
    if !mkfifo(&content.join("fifo.toml")) || !mkfifo(&config.path().join("config.toml")) {
        println!("skipped: no mkfifo");
        return;
    }
    let r = run(&["check"], None, config.path(), data.path());
    assert_sane("check", &r);
    assert_eq!(r.code, Some(1), "{}", r.out);
    assert!(r.out.contains("symlink loop"), "{}", r.out);
    assert!(
        r.out.contains("not a regular file (a named pipe)"),
        "{}",
        r.out
    );
    assert!(r.out.contains("content/fifo.toml"), "{}", r.out);
    // The good file beside them still loads.
    let r = run(
        &["list", "--format", "json"],
        None,
        config.path(),
        data.path(),
    );
    assert!(r.out.contains("fixture-question"), "{}", r.out);
    // A FIFO config.toml is refused unopened: stats names it and goes on.
    let r = run(&["stats"], None, config.path(), data.path());
    assert_sane("stats", &r);
    assert_eq!(r.code, Some(0), "{}", r.out);
    assert!(
        r.out.contains("not a regular file (a named pipe)"),
        "{}",
        r.out
    );
    // And config.toml pointing at /dev/zero.
    std::fs::remove_file(config.path().join("config.toml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", config.path().join("config.toml")).unwrap();
    let r = run(&["stats"], None, config.path(), data.path());
    assert_sane("stats", &r);
    assert!(r.out.contains("not a regular file (a device)"), "{}", r.out);
}

#[cfg(unix)]
#[test]
fn exports_replace_files_not_links_or_devices() {
    let config = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    seeded_store(config.path(), data.path());
    let out = tempfile::tempdir().unwrap();
    let real = out.path().join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = out.path().join("link.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let r = run(
        &["export", link.to_str().unwrap()],
        None,
        config.path(),
        data.path(),
    );
    assert_eq!(r.code, Some(0), "{}", r.out);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("deleted-pod-returns")
    );
    if Path::new("/dev/full").exists() {
        let r = run(&["export", "/dev/full"], None, config.path(), data.path());
        assert_eq!(r.code, Some(1), "{}", r.out);
        assert!(r.out.contains("No space left on device"), "{}", r.out);
        use std::os::unix::fs::FileTypeExt;
        assert!(
            std::fs::metadata("/dev/full")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}

#[test]
fn a_sim_line_over_a_mebibyte_is_refused_and_the_next_one_runs() {
    let config = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let mut input = format!("kubectl get pods {}\n", "x".repeat(2 * 1024 * 1024)).into_bytes();
    input.extend_from_slice(b"kubectl get deploy web\n");
    let r = run(
        &["sim", "spec-status"],
        Some(&input),
        config.path(),
        data.path(),
    );
    assert_sane("sim", &r);
    assert_eq!(r.code, Some(1));
    assert!(
        r.out
            .contains("stdin line 1 is longer than 1048576 bytes; skipped"),
        "{}",
        r.out
    );
    assert!(r.out.contains("web    3/3"), "{}", r.out);
}

#[test]
fn a_content_folder_that_does_not_exist_is_an_error() {
    let config = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let r = run(
        &["--content", "/nonexistent/kubedrill", "list"],
        None,
        config.path(),
        data.path(),
    );
    assert_sane("list", &r);
    assert_eq!(r.code, Some(1), "{}", r.out);
    assert!(r.out.contains("/nonexistent/kubedrill"), "{}", r.out);
}

/// A demo left playing for days keeps its memory: the chart's history is bounded (it grew
/// by 2 MB a simulated day, and the chart filtered all of it every frame).
#[test]
fn a_demo_left_playing_for_days_keeps_a_bounded_history() {
    use kubedrill::sim::session::{HISTORY_SECONDS, Session};
    let mut s = Session::new("self-healing", 1).unwrap();
    for _ in 0..2 {
        s.run_line("tick 86400");
    }
    let h = &s.replicas_history;
    assert!(h.len() < 2 * HISTORY_SECONDS, "{} samples kept", h.len());
    assert!(h.len() >= HISTORY_SECONDS);
    // The newest second is there, and the seconds kept run without a gap.
    assert_eq!(h.last().unwrap().0, s.cluster.now());
    assert!(h.windows(2).all(|w| w[1].0 == w[0].0 + 1));
}

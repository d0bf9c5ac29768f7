//! Generates realistic decks for benchmarks: every field filled, at the sizes the shipped
//! questions have, split into topic files of at most 100 questions.
//!
//! Included as a module by the benchmarks and tests; also a program of its own, with no
//! dependencies, that benches/startup.py builds with `rustc` (offline) to write decks:
//!
//!     deckgen kubedrill DIR BYTES   the smallest deck of doubling size >= BYTES
//!     deckgen hashcards DIR BYTES   the same words as hashcards Markdown (Q:/A: cards)

#![allow(dead_code)]

const WORDS: &[&str] = &[
    "the",
    "controller",
    "reconciles",
    "desired",
    "state",
    "against",
    "observed",
    "status",
    "while",
    "informers",
    "cache",
    "objects",
    "and",
    "a",
    "work",
    "queue",
    "deduplicates",
    "keys",
    "so",
    "each",
    "sync",
    "reads",
    "current",
    "spec",
    "from",
    "replicas",
    "pods",
    "generation",
    "bumps",
    "when",
    "changes",
    "observedGeneration",
    "records",
    "what",
    "it",
    "acted",
    "on",
    "server-side",
    "apply",
    "tracks",
    "field",
    "managers",
    "conflicts",
];

struct Words(u64);

impl Words {
    fn take(&mut self, n: usize) -> String {
        let mut out = String::with_capacity(n * 8);
        for i in 0..n {
            // xorshift: deterministic and dependency-free
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            if i > 0 {
                out.push(if i % 14 == 0 { '\n' } else { ' ' });
            }
            out.push_str(WORDS[(self.0 % WORDS.len() as u64) as usize]);
        }
        out
    }
}

fn question(w: &mut Words, topic: usize, n: usize) -> String {
    let levels = ["junior", "middle", "senior", "principal"];
    let importance = ["must-know", "should-know", "nice-to-know"];
    let mut q = format!(
        "[[question]]\nid = \"q-{topic}-{n}\"\nprompt = \"{}?\"\nlevel = \"{}\"\nimportance = \"{}\"\nfrequency = {}\nfrequency_source = \"a generated benchmark deck\"\n",
        w.take(30).replace('\n', " "),
        levels[n % 4],
        importance[n % 3],
        n % 101
    );
    let kps: Vec<String> = (0..5)
        .map(|_| format!("\"{}\"", w.take(5).replace('\n', " ")))
        .collect();
    q += &format!(
        "keypoints = [{}]\nanalogy = \"{}\"\n\n",
        kps.join(", "),
        w.take(30).replace('\n', " ")
    );
    q += &format!(
        "[question.basics]\nseconds = 20\ntext = '''\n{}'''\n\n",
        w.take(40)
    );
    q += &format!(
        "[question.solid]\nseconds = 50\ntext = '''\n{}'''\n\n",
        w.take(130)
    );
    q += &format!(
        "[question.deeper]\njunior = '''\n{}'''\nmiddle = '''\n{}'''\nsenior = '''\n{}'''\nprincipal = '''\n{}'''\n\n",
        w.take(50),
        w.take(50),
        w.take(50),
        w.take(50)
    );
    q += &format!(
        "[question.explainer]\ntext = '''\n## Heading\n\n{}\n\n- {}\n'''\n\n",
        w.take(480),
        w.take(20)
    );
    q += "[[question.code]]\nlang = \"bash\"\ncaption = \"Compare spec and status\"\nrunnable = true\ntext = '''\nkubectl get deploy web -o jsonpath='{.spec.replicas}'\nkubectl get deploy web -o wide\nkubectl describe deploy web\n'''\n\n";
    for _ in 0..2 {
        q += &format!(
            "[[question.followup]]\nq = \"{}?\"\na = '''\n{}'''\n\n",
            w.take(15).replace('\n', " "),
            w.take(50)
        );
    }
    for _ in 0..4 {
        q += &format!(
            "[[question.pitfall]]\nclaim = \"{}\"\nwhy = '''\n{}'''\n\n",
            w.take(15).replace('\n', " "),
            w.take(30)
        );
    }
    q += "[question.demo]\nscenario = \"spec-status\"\nsetup = [\"kubectl scale deploy web --replicas=5\"]\n\n";
    q += "[[question.demo.challenge]]\ntitle = \"Make the controller fall behind\"\nhint = \"Pause the deployment controller, then scale.\"\ngoal = \"deploy.status.observedGeneration < deploy.metadata.generation\"\n\n";
    q += "[[question.demo.challenge]]\ntitle = \"Watch it revert a forged status\"\nhint = \"Patch status through the subresource.\"\ngoal = \"events(\\\"ScalingReplicaSet\\\") >= 1 and pods(\\\"ready\\\") == deploy.spec.replicas\"\n\n";
    q
}

/// `questions` questions as (file name, TOML text) pairs.
pub fn deck(questions: usize) -> Vec<(String, String)> {
    let mut w = Words(0x9e37_79b9_7f4a_7c15);
    let mut files = Vec::new();
    let mut made = 0;
    let mut topic = 0;
    while made < questions {
        let n = (questions - made).min(100);
        let mut text = format!(
            "[topic]\nid = \"topic-{topic}\"\ntitle = \"Topic {topic}\"\npart_of = \"Kubernetes\"\nsummary = \"{}\"\nroadmaps = [\"bench\"]\n\n",
            w.take(40).replace('\n', " ")
        );
        for i in 0..n {
            text += &question(&mut w, topic, i);
        }
        files.push((format!("topic-{topic}.toml"), text));
        made += n;
        topic += 1;
    }
    files
}

/// The question count `startup.py` and the tmux measurement use: doubling from 200 until
/// the deck holds at least `bytes`.
pub fn questions_for(bytes: usize) -> usize {
    let mut n = 200;
    while deck(n).iter().map(|(_, t)| t.len()).sum::<usize>() < bytes {
        n *= 2;
    }
    n
}

/// A question's worth of hashcards cards, as (words asked, words answered): the prompt
/// with its tiers, four pitfalls, the explainer and six follow-ups.
const CARDS: [(usize, usize); 13] = [
    (30, 40),
    (12, 130),
    (10, 50),
    (10, 50),
    (10, 50),
    (10, 50),
    (8, 500),
    (15, 40),
    (15, 40),
    (15, 40),
    (15, 40),
    (15, 40),
    (15, 40),
];

/// A hashcards collection of about `bytes`: Markdown files of question and answer cards
/// made of the same words, 100 questions' worth each, as `deck` splits its topics.
pub fn hashcards(bytes: usize) -> Vec<(String, String)> {
    let mut w = Words(0x9e37_79b9_7f4a_7c15);
    let mut files: Vec<(String, String)> = Vec::new();
    let mut total = 0;
    let mut n = 0;
    while total < bytes {
        if n % 100 == 0 {
            files.push((format!("topic-{}.md", files.len()), String::new()));
        }
        let mut text = String::new();
        for (i, (q, a)) in CARDS.iter().enumerate() {
            let q = w.take(*q).replace('\n', " ");
            let a = w.take(*a);
            text += &if i == 6 {
                format!("Q: Explain {q}.\nA: {a}\n\n")
            } else {
                format!("Q: {q}?\nA: {a}\n\n")
            };
        }
        total += text.len();
        if let Some((_, file)) = files.last_mut() {
            file.push_str(&text);
        }
        n += 1;
    }
    files
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: deckgen kubedrill|hashcards DIR BYTES";
    let (Some(format), Some(dir), Some(bytes)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(bytes) = bytes.parse::<usize>() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let files = match format.as_str() {
        "kubedrill" => deck(questions_for(bytes)),
        "hashcards" => hashcards(bytes),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let dir = std::path::Path::new(dir);
    let mut written = 0;
    for (name, text) in &files {
        if let Err(e) =
            std::fs::create_dir_all(dir).and_then(|_| std::fs::write(dir.join(name), text))
        {
            eprintln!("deckgen: {}: {e}", dir.join(name).display());
            std::process::exit(1);
        }
        written += text.len();
    }
    println!("{} files, {written} bytes", files.len());
}

//! Splits a command line into words the way a POSIX shell does, so lines pasted from a real
//! terminal (quotes, backslashes) reach the simulated kubectl with the same argv.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShellError {
    #[error("unterminated single quote")]
    UnterminatedSingleQuote,
    #[error("unterminated double quote")]
    UnterminatedDoubleQuote,
    #[error("trailing backslash")]
    TrailingBackslash,
}

/// Splits `line` into words. No expansion is done: `$x` and globs stay literal.
pub fn split(line: &str) -> Result<Vec<String>, ShellError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A word exists once any character or quote pair was seen, so `''` yields an empty word.
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            // As in sh, `#` at the start of a word comments out the rest of the line.
            '#' if !in_word => break,
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err(ShellError::UnterminatedSingleQuote),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            // Inside double quotes only these are escapable; newline is a
                            // line continuation.
                            Some(e @ ('"' | '\\' | '$' | '`')) => word.push(e),
                            Some('\n') => {}
                            Some(other) => {
                                word.push('\\');
                                word.push(other);
                            }
                            None => return Err(ShellError::UnterminatedDoubleQuote),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err(ShellError::UnterminatedDoubleQuote),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(ch) => {
                    in_word = true;
                    word.push(ch);
                }
                None => return Err(ShellError::TrailingBackslash),
            },
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split(line).expect("valid line")
    }

    #[test]
    fn plain_words_and_whitespace() {
        assert_eq!(words("  kubectl   get\tpods "), ["kubectl", "get", "pods"]);
        assert!(words("").is_empty());
        assert!(words("   ").is_empty());
    }

    #[test]
    fn jsonpath_in_single_quotes_keeps_backslash_n() {
        let w = words(r#"kubectl get deploy web -o jsonpath='{.spec.replicas}{"\n"}'"#);
        assert_eq!(w[4], "-o");
        assert_eq!(w[5], r#"jsonpath={.spec.replicas}{"\n"}"#);
        assert_eq!(w.len(), 6);
    }

    #[test]
    fn jsonpath_in_double_quotes() {
        let w = words(r#"kubectl get po -o "jsonpath={.items[*].metadata.name}{\"\n\"}""#);
        assert_eq!(w[4], r#"jsonpath={.items[*].metadata.name}{"\n"}"#);
        let w = words(r#"-o jsonpath="{range .items[*]}{.metadata.name}{'\t'}{end}""#);
        assert_eq!(
            w[1],
            r"jsonpath={range .items[*]}{.metadata.name}{'\t'}{end}"
        );
    }

    #[test]
    fn quotes_join_adjacent_pieces() {
        assert_eq!(words(r#"a'b c'"d e"f"#), ["ab cd ef"]);
        assert_eq!(words("x '' y"), ["x", "", "y"]);
        assert_eq!(words(r#""""#), [""]);
    }

    #[test]
    fn backslashes() {
        assert_eq!(words(r"a\ b c"), ["a b", "c"]);
        assert_eq!(words(r"\'x\'"), ["'x'"]);
        assert_eq!(words(r#""a\"b\\c\$d\`e\nf""#), [r#"a"b\c$d`e\nf"#]);
        assert_eq!(words(r"'a\b'"), [r"a\b"]);
        assert_eq!(words("a\\\nb"), ["ab"]);
    }

    #[test]
    fn comments_start_only_at_a_word() {
        assert_eq!(
            words("kubectl get pods # all of them"),
            ["kubectl", "get", "pods"]
        );
        assert_eq!(words("# just a comment"), Vec::<String>::new());
        assert_eq!(words("a#b '#c' \\#d"), ["a#b", "#c", "#d"]);
    }

    #[test]
    fn no_expansion() {
        assert_eq!(words("echo $HOME *"), ["echo", "$HOME", "*"]);
    }

    #[test]
    fn errors() {
        assert_eq!(split("echo 'abc"), Err(ShellError::UnterminatedSingleQuote));
        assert_eq!(
            split("echo \"abc"),
            Err(ShellError::UnterminatedDoubleQuote)
        );
        assert_eq!(
            split("echo \"a\\"),
            Err(ShellError::UnterminatedDoubleQuote)
        );
        assert_eq!(split("echo \\"), Err(ShellError::TrailingBackslash));
        assert_eq!(
            ShellError::UnterminatedSingleQuote.to_string(),
            "unterminated single quote"
        );
    }
}

//! The command line before clap reads it: an expression may begin with `-` (`layout eval
//! '-4:1'`, a negative stride or offset), which clap would take for an option. No option of
//! `layout` begins with `-` and a character other than a letter or `-`, so such an argument
//! is an expression: it is moved after a `--`, where clap takes it as the positional
//! argument it is. The value of an option that takes one (`-o FILE`, `--let NAME=N`) is left
//! where it is, and so is everything after a `--` the user wrote.

use std::ffi::OsString;

/// `args` (the program name first) with every argument of the subcommand that is an
/// expression beginning with `-` moved after a `--`, in order; `args` itself when there is
/// none. `cli` is the command clap parses with (for the options that take a value).
pub fn hyphen_expressions_last(args: Vec<OsString>, cli: &clap::Command) -> Vec<OsString> {
    let Some(at) = args.iter().skip(1).position(|a| !a.to_string_lossy().starts_with('-')).map(|k| k + 1) else {
        return args;
    };
    let Some(sub) = cli.find_subcommand(&args[at]) else { return args };
    let takes_value: Vec<String> = sub
        .get_arguments()
        .filter(|a| !a.is_positional() && a.get_action().takes_values())
        .flat_map(|a| {
            let long = a.get_long().map(|l| format!("--{l}"));
            let short = a.get_short().map(|s| format!("-{s}"));
            long.into_iter().chain(short)
        })
        .collect();
    let (mut kept, mut moved, mut after) = (args[..=at].to_vec(), Vec::new(), Vec::new());
    let mut rest = args[at + 1..].iter();
    while let Some(a) = rest.next() {
        let text = a.to_str().unwrap_or("");
        if text == "--" {
            after.extend(rest.by_ref().cloned());
        } else if takes_value.iter().any(|o| o == text) {
            kept.push(a.clone());
            kept.extend(rest.next().cloned());
        } else if is_hyphen_expression(text) {
            moved.push(a.clone());
        } else {
            kept.push(a.clone());
        }
    }
    if moved.is_empty() {
        return args;
    }
    kept.push("--".into());
    kept.extend(moved);
    kept.extend(after);
    kept
}

/// `-` followed by anything but a letter or another `-`: `-4:1`, `-3`, `-(2,3):(1,2)`.
fn is_hyphen_expression(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next() == Some('-') && chars.next().is_some_and(|c| !c.is_ascii_alphabetic() && c != '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli() -> clap::Command {
        clap::Command::new("layout")
            .subcommand(
                clap::Command::new("eval")
                    .arg(clap::Arg::new("expr"))
                    .arg(clap::Arg::new("let").long("let").action(clap::ArgAction::Append))
                    .arg(clap::Arg::new("batch").long("batch").action(clap::ArgAction::SetTrue)),
            )
            .subcommand(clap::Command::new("svg").arg(clap::Arg::new("expr")).arg(clap::Arg::new("output").short('o')))
    }

    fn rewritten(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(OsString::from).collect();
        hyphen_expressions_last(args, &cli()).into_iter().map(|a| a.into_string().unwrap()).collect()
    }

    #[test]
    fn an_expression_with_a_leading_minus_goes_after_dashes() {
        assert_eq!(rewritten(&["layout", "eval", "-4:1"]), ["layout", "eval", "--", "-4:1"]);
        assert_eq!(
            rewritten(&["layout", "eval", "-4:1", "--let", "M=4"]),
            ["layout", "eval", "--let", "M=4", "--", "-4:1"]
        );
        assert_eq!(
            rewritten(&["layout", "svg", "-o", "-1.svg", "-(2,2)"]),
            ["layout", "svg", "-o", "-1.svg", "--", "-(2,2)"]
        );
    }

    #[test]
    fn options_and_dashes_are_left_alone() {
        for args in [
            &["layout", "eval", "--batch"][..],
            &["layout", "eval", "--", "-4:1"],
            &["layout", "eval", "-h"],
            &["layout", "--help"],
            &["layout", "frobnicate", "-4:1"],
            &["layout", "eval", "--let", "-4"],
        ] {
            assert_eq!(rewritten(args), args, "{args:?}");
        }
    }
}

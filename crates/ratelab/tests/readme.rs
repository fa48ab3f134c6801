//! The README is for a newcomer: it opens with the two commands (serve, and test, which is
//! what `.ci/run` runs) and stays short; design, measurements and history live in docs/.

const README: &str = include_str!("../../../README.md");
const CI: &str = include_str!("../../../.ci/run");

#[test]
fn the_readme_opens_with_the_two_commands_and_is_short() {
    let lines = README.lines().count();
    assert!(
        lines <= 300,
        "README.md is {lines} lines; move detail to docs/"
    );
    let code: Vec<&str> = README
        .split("```sh\n")
        .nth(1)
        .expect("a first sh block")
        .split("```")
        .next()
        .unwrap_or("")
        .lines()
        .collect();
    assert!(code[0].starts_with("./scripts/serve.sh"), "{code:?}");
    assert!(code[1].starts_with("./scripts/test.sh"), "{code:?}");
    assert!(
        CI.contains("./scripts/test.sh"),
        ".ci/run runs the README's test command"
    );
    let first_section = README.find("\n## ").unwrap_or(README.len());
    assert!(README[..first_section].contains("./scripts/test.sh"));
}

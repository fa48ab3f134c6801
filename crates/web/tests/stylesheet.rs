//! The stylesheet is one file that several changes touch; a lost brace silently turns
//! every rule after it into part of a media query (a merge did exactly that once). This
//! checks the braces balance, no rule opens inside another rule, and no merge marker is
//! left.

#[test]
fn every_block_closes_and_no_rule_sits_inside_another() {
    let css = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../style/main.css"))
        .expect("style/main.css");
    let mut open: Vec<(usize, String)> = Vec::new();
    for (n, line) in css.lines().enumerate() {
        let line = line.trim();
        assert!(
            !["<<<<<<<", "=======", ">>>>>>>"]
                .iter()
                .any(|m| line.starts_with(m)),
            "line {}: a merge marker",
            n + 1
        );
        if line.ends_with('{') {
            if let Some((at, outer)) = open.last() {
                assert!(
                    outer.starts_with('@') || line.starts_with('@'),
                    "line {}: '{line}' opens inside '{outer}' (line {at}): a closing brace is missing",
                    n + 1
                );
            }
            open.push((n + 1, line.to_string()));
        }
        if line.starts_with('}') {
            assert!(
                open.pop().is_some(),
                "line {}: a brace closes nothing",
                n + 1
            );
        }
    }
    assert!(open.is_empty(), "never closed: {open:?}");
}

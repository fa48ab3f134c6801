//! "Change the numbers" as the page layer writes it: a field for every entry of
//! [`PARAMS`], grouped as the core groups them, with its label, unit, help and range. The
//! form is one string set once ([`crate::shared::markup`]); the UI then writes only what an edit
//! changes (a field's value, its message, the changed marks, the summary's count) and
//! reads edits by the fields' `data-param`.

use crate::shared::markup::escape;
use crate::shared::params::{ParamGroup, ParamSpec, PARAMS};
use sim::Scenario;

/// The reset button's `data-testid`.
pub const RESET_TESTID: &str = "params-reset";

/// The form as it opens, unfolded when `open`, with `caption` saying what an edit does.
/// The fields' values are left to the UI, which writes them from its texts.
pub fn form_markup(open: bool, caption: &str) -> String {
    let group = |g: ParamGroup, title: &str| {
        let fields: String = PARAMS
            .iter()
            .filter(|p| p.group() == g)
            .map(field_markup)
            .collect();
        format!(
            "<fieldset class=\"rll-params-group\"><legend>{title}</legend><div class=\"rll-params-grid\">{fields}</div></fieldset>"
        )
    };
    format!(
        concat!(
            "<details class=\"rll-details rll-params\" data-testid=\"params\"{open}>",
            "<summary>Change the numbers<span data-params-changed>{changed}</span></summary>",
            "<p class=\"rll-caption\">{caption}</p>{provider}{client}",
            "<ul class=\"rll-field-help rll-error\" role=\"alert\" data-params-problems hidden></ul>",
            "<button type=\"button\" data-testid=\"{reset}\">Reset to the article's values</button>",
            "</details>"
        ),
        open = if open { " open" } else { "" },
        changed = changed_text(0),
        caption = escape(caption),
        provider = group(ParamGroup::Provider, "The provider"),
        client = group(ParamGroup::Client, "The client"),
        reset = RESET_TESTID,
    )
}

/// One field: its label, the text input (`data-param`), its unit, and its help line
/// (`data-param-help`), as it reads before any edit.
fn field_markup(p: &ParamSpec) -> String {
    let id = format!("rll-param-{}", p.key);
    format!(
        concat!(
            "<div class=\"rll-param\" data-param-field=\"{key}\"><label for=\"{id}\">{label}</label>",
            "<div class=\"rll-param-input\"><input id=\"{id}\" type=\"text\" data-param=\"{key}\" ",
            "autocomplete=\"off\" spellcheck=\"false\" title=\"{title}\" aria-describedby=\"{id}-help\" aria-invalid=\"false\">",
            "<span class=\"rll-unit\">{unit}</span></div>",
            "<span id=\"{id}-help\" class=\"rll-field-help\" data-param-help=\"{key}\">{help}</span></div>"
        ),
        key = p.key,
        id = id,
        label = escape(p.label),
        title = escape(&p.help()),
        unit = escape(p.unit),
        help = escape(&field_help(p, None)),
    )
}

/// What a field's help line says: why its text cannot be used, or its range and default.
pub fn field_help(p: &ParamSpec, error: Option<&str>) -> String {
    match error {
        Some(e) => e.to_string(),
        None => format!("{} · default {}", p.range_text(), p.default_text()),
    }
}

/// The summary's tail: how many numbers differ from the article's.
pub fn changed_text(changed: usize) -> String {
    match changed {
        0 => " (the article's values)".to_string(),
        n => format!(" ({n} changed)"),
    }
}

/// How many of `scenario`'s numbers differ from the article's.
pub fn changed_count(scenario: &Scenario) -> usize {
    PARAMS.iter().filter(|p| !p.is_default(scenario)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_has_one_field_with_its_help() {
        let m = form_markup(false, "Edits <apply> later");
        for p in &PARAMS {
            assert_eq!(
                m.matches(&format!("data-param=\"{}\"", p.key)).count(),
                1,
                "{}",
                p.key
            );
            assert!(
                m.contains(&format!("data-param-help=\"{}\"", p.key)),
                "{}",
                p.key
            );
            assert!(m.contains(&escape(&field_help(p, None))), "{}", p.key);
        }
        assert!(m.contains("Edits &lt;apply&gt; later"));
        assert!(!m.contains(" open>"));
        assert!(form_markup(true, "").contains("data-testid=\"params\" open>"));
    }

    #[test]
    fn the_summary_counts_what_differs() {
        let mut s = Scenario::default();
        assert_eq!(changed_count(&s), 0);
        assert_eq!(changed_text(0), " (the article's values)");
        s.customers += 1;
        assert_eq!(changed_count(&s), 1);
        assert_eq!(changed_text(2), " (2 changed)");
    }

    #[test]
    fn a_field_says_why_it_is_refused_or_what_it_takes() {
        let p = &PARAMS[0];
        assert_eq!(field_help(p, Some("no")), "no");
        assert!(field_help(p, None).ends_with(&format!("default {}", p.default_text())));
    }
}

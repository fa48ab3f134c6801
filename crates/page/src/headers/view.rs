//! The headers page's live widgets ([`Live`]): the headers our bucket sends, the
//! reader's opening words, the reader's examples and fields, and what it made of the
//! block. Each is drawn once; afterwards only what the reader changes is written, so
//! the field being typed in keeps its focus and its caret.

use super::faults::responses_markup;
use super::intro::{
    bucket_intro_markup, reader_intro_markup, BLOCK_LABEL, EXAMPLES_LABEL, NOW_LABEL,
};
use super::reader::{result_markup, BlockReading, EXAMPLES};
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};

/// The headers our bucket sends: the words, then the two raw responses. Nothing in it
/// changes.
#[derive(Clone, Copy, Debug)]
pub struct BucketHeaders;

impl Live for BucketHeaders {
    type State = ();

    fn shape(&self, _: &()) -> u64 {
        0
    }

    fn draw(&self, _: &(), _: &mut Fill) -> Markup {
        html! {
            p { (bucket_intro_markup()) }
            div.rll-responses data-testid="response-headers" { (responses_markup()) }
        }
    }
}

/// The reader's opening words. Nothing in them changes.
#[derive(Clone, Copy, Debug)]
pub struct ReaderIntro;

impl Live for ReaderIntro {
    type State = ();

    fn shape(&self, _: &()) -> u64 {
        0
    }

    fn draw(&self, _: &(), _: &mut Fill) -> Markup {
        html! { p { (reader_intro_markup()) } }
    }
}

/// The button of the `i`-th of [`EXAMPLES`] (none past the last).
pub const fn example_slot(i: usize) -> Slot {
    match i {
        0 => slot!("reader-example-0"),
        1 => slot!("reader-example-1"),
        2 => slot!("reader-example-2"),
        3 => slot!("reader-example-3"),
        4 => slot!("reader-example-4"),
        5 => slot!("reader-example-5"),
        6 => slot!("reader-example-6"),
        _ => slot!("reader-example-7"),
    }
}
/// The pasted block.
pub const BLOCK: Slot = slot!("reader-block");
/// "Now", in epoch seconds.
pub const NOW: Slot = slot!("reader-now");
/// "Now" as a date, or why it is not a time.
pub const NOW_DATE: Slot = slot!("reader-now-date");

/// What the reader's fields show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldsState {
    /// The example last loaded, unless the block was edited since.
    pub chosen: Option<&'static str>,
    /// The block.
    pub block: String,
    /// "Now" as typed.
    pub now: String,
    /// "Now" as a date, or why it is not a time.
    pub now_date: Result<String, String>,
}

/// The reader's examples, its block and its "now" ([`Live`]): which example is pressed,
/// the fields' values (left alone while they match what the reader typed) and the date
/// under "now" are written.
#[derive(Clone, Copy, Debug)]
pub struct ReaderFields;

impl Live for ReaderFields {
    type State = FieldsState;

    fn shape(&self, _: &FieldsState) -> u64 {
        0
    }

    fn draw(&self, s: &FieldsState, fill: &mut Fill) -> Markup {
        let (date, wrong) = match &s.now_date {
            Ok(date) => (date.clone(), false),
            Err(why) => (why.clone(), true),
        };
        html! {
            div.rll-examples role="group" aria-label=(EXAMPLES_LABEL) {
                @for (i, e) in EXAMPLES.iter().enumerate() {
                    @let slot = example_slot(i);
                    button type="button" data-example=(e.id) data-slot=(slot)
                        aria-pressed=(fill.attr(slot, "aria-pressed", if s.chosen == Some(e.id) { "true" } else { "false" })) {
                        strong { (e.label) }
                        small { (e.source) }
                    }
                }
            }
            div.rll-controls {
                div.rll-field.rll-grow {
                    label.rll-field-label for="rll-reader-block" { (BLOCK_LABEL) }
                    textarea id="rll-reader-block" rows="8" spellcheck="false" autocomplete="off" data-testid="reader-block"
                        data-slot=(BLOCK) { (fill.value(BLOCK, s.block.clone())) }
                }
                div.rll-field {
                    label.rll-field-label for="rll-reader-now" { (NOW_LABEL) }
                    input id="rll-reader-now" .rll-now type="text" inputmode="numeric" spellcheck="false" autocomplete="off"
                        data-testid="reader-now" data-slot=(NOW) value=(fill.value(NOW, s.now.clone()));
                    span.rll-field-help.rll-error[fill.class(NOW_DATE, "rll-error", wrong)] data-testid="reader-now-date"
                        data-slot=(NOW_DATE) { (fill.text(NOW_DATE, date)) }
                }
            }
        }
    }
}

/// Why the block cannot be read.
pub const READER_ERROR: Slot = slot!("reader-error");
/// What the reader made of the block.
pub const READER_RESULT: Slot = slot!("reader-result");

/// What the reader made of the block ([`Live`]): the wait, its source, each ignored
/// header with its reason and the naive reading with what it costs; or the sentence
/// saying why the block cannot be read. Its shape is which of the two it is; the
/// reading is a [`Fill::markup`] hole, made again whole (its lists change length).
#[derive(Clone, Copy, Debug)]
pub struct ReaderOutcome;

impl Live for ReaderOutcome {
    type State = Result<BlockReading, String>;

    fn shape(&self, s: &Self::State) -> u64 {
        u64::from(s.is_err())
    }

    fn draw(&self, s: &Self::State, fill: &mut Fill) -> Markup {
        let reading = match s {
            Ok((pairs, r)) => result_markup(pairs, r),
            Err(_) => html! {},
        };
        html! {
            @if let Err(why) = s {
                p.rll-harm-text role="alert" data-testid="reader-error" data-slot=(READER_ERROR) {
                    (fill.text(READER_ERROR, why.clone()))
                }
            }
            div data-slot=(READER_RESULT) { (fill.markup(READER_RESULT, reading)) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::headers::reader::read_block;
    use crate::shared::live::{check_drawn, Write};

    fn fields(chosen: Option<&'static str>, now: &str) -> FieldsState {
        FieldsState {
            chosen,
            block: (EXAMPLES[0].block)(1_000),
            now: now.into(),
            now_date: Ok(sim::headers::http_date(1_000)),
        }
    }

    #[test]
    fn the_fields_are_drawn_where_they_are_filled_and_a_new_now_writes_only_itself() {
        let a = fields(Some(EXAMPLES[0].id), "1000");
        check_drawn(&ReaderFields, &a).unwrap();
        let wrong = FieldsState {
            now_date: Err("'x' is not a time".into()),
            chosen: None,
            ..a.clone()
        };
        check_drawn(&ReaderFields, &wrong).unwrap();
        let html = ReaderFields.markup(&wrong).into_string();
        assert!(html.contains(r#"class="rll-field-help rll-error" data-testid="reader-now-date""#));
        assert!(!html.contains(r#"aria-pressed="true""#));
        let html = ReaderFields.markup(&a).into_string();
        assert!(
            html.contains(r#"<span class="rll-field-help" data-testid="reader-now-date""#),
            "{html}"
        );
        assert_eq!(html.matches(r#"aria-pressed="true""#).count(), 1);
        // Typing in "now" changes its value and nothing else.
        let (mut x, mut y) = (Fill::default(), Fill::default());
        ReaderFields.draw(&a, &mut x);
        ReaderFields.draw(&fields(Some(EXAMPLES[0].id), "100"), &mut y);
        let changed: Vec<_> = y.changed_since(&x).map(|p| p.1.clone()).collect();
        assert_eq!(changed, vec![Write::Value("100".into())]);
    }

    #[test]
    fn every_example_has_a_slot_of_its_own() {
        let names: std::collections::BTreeSet<_> = (0..EXAMPLES.len())
            .map(|i| example_slot(i).name())
            .collect();
        assert_eq!(names.len(), EXAMPLES.len());
    }

    #[test]
    fn the_outcome_is_the_reading_or_why_there_is_none() {
        let ok = read_block("Retry-After: 5", 1_000).map_err(|e| e.to_string());
        check_drawn(&ReaderOutcome, &ok).unwrap();
        let html = ReaderOutcome.markup(&ok).into_string();
        assert!(html.contains(r#"data-testid="reader-result""#));
        assert!(!html.contains("reader-error"));
        let bad = read_block("no colon", 1_000).map_err(|e| e.to_string());
        check_drawn(&ReaderOutcome, &bad).unwrap();
        assert_ne!(ReaderOutcome.shape(&ok), ReaderOutcome.shape(&bad));
        let html = ReaderOutcome.markup(&bad).into_string();
        assert!(
            html.starts_with(r#"<p class="rll-harm-text" role="alert" data-testid="reader-error""#),
            "{html}"
        );
        check_drawn(&BucketHeaders, &()).unwrap();
        assert!(BucketHeaders
            .markup(&())
            .into_string()
            .contains(r#"<div class="rll-responses" data-testid="response-headers"><pre"#));
        assert!(ReaderIntro
            .markup(&())
            .into_string()
            .starts_with("<p>Servers you did not write"));
    }
}

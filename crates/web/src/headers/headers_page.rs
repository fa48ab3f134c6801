//! The headers page: what our token bucket tells its callers, and a reader for any
//! header a client may receive.

use crate::headers::header_reader::HeaderReader;
use crate::headers::headers_view::HeadersView;
use crate::shared::frame::Frame;
use crate::shared::live;
use leptos::prelude::*;
use page::headers::intro::{BUCKET_TITLE, READER_TITLE};
use page::headers::view::ReaderIntro;
use page::{Query, Section, View};

/// The page.
#[component]
pub fn HeadersPage(
    /// What the link asks for.
    query: Query<()>,
) -> impl IntoView {
    let scenario = query.base.scenario.clone();
    view! {
        <Frame
            section=Section::Headers
            problems=query.base.problems.clone()
            scenario=Signal::stored(scenario)
            view=Signal::stored(View::Run)
            run_state=Signal::stored("idle")
            shown=Signal::stored(query.clone())
            words=page::site::words::HEADERS_WORDS
        >
            <section class="rll-see">
                <h2>{BUCKET_TITLE}</h2>
                <HeadersView/>
            </section>
            <section class="rll-see">
                <h2>{READER_TITLE}</h2>
                {live::view(ReaderIntro, || ())}
                <HeaderReader/>
            </section>
        </Frame>
    }
}

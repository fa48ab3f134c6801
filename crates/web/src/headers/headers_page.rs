//! The headers page: what our token bucket tells its callers, and a reader for any
//! header a client may receive.

use crate::headers::header_reader::HeaderReader;
use crate::headers::headers_view::HeadersView;
use crate::shared::frame::Frame;
use leptos::prelude::*;
use page::{PageQuery, Section, View};

/// The page.
#[component]
pub fn HeadersPage(
    /// What the link asks for.
    query: PageQuery,
) -> impl IntoView {
    let scenario = query.seeded_scenario();
    view! {
        <Frame
            section=Section::Headers
            problems=query.problems.clone()
            scenario=Signal::stored(scenario)
            view=Signal::stored(View::Run)
            run_state=Signal::stored("idle")
            shown=Signal::stored(query.clone())
        >
            <section class="rll-see">
                <h2>"The headers our bucket sends"</h2>
                <p>
                    "Every response carries the limit, in both shapes the IETF drafts have used, so a client can slow down "
                    "before it hits the wall. Only a refusal adds " <code>"Retry-After"</code> ", in whole seconds, rounded up."
                </p>
                <HeadersView/>
            </section>
            <section class="rll-see">
                <h2>"Read the headers you get"</h2>
                <p>
                    "Servers you did not write send " <code>"Retry-After"</code> " as seconds or as a date in three forms, "
                    "three generations of the RateLimit draft, and vendor headers with similar names and different meanings. "
                    "Paste a response's headers, or pick one of the shapes below: the reader shows the wait it obeys and why it "
                    "set every other header aside, beside what " <code>"Number(value) × 1000"</code> " does with the same block."
                </p>
                <HeaderReader/>
            </section>
        </Frame>
    }
}

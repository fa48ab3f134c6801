//! What a shared link to a run says first, on a phone: how the run ends, in one sentence
//! over a small timeline of the whole run, before the reader scrolls to watch it play.

use crate::shared::canvas::{use_canvas, Surface};
use crate::shared::erase::watch;
use crate::shared::later::painted;
use crate::shared::timeline::{draw, Layout, Palette, TimelineData};
use leptos::html::Canvas;
use leptos::prelude::*;
use page::run::stage::{verdict, Tone, STAGE_LINK, VERDICT_LABELS};
use sim::{Scenario, Simulation};

/// The verdict on `scenario`, computed at once (a thousand customers take about a
/// millisecond), with a link down to the stage where it plays.
#[component]
pub fn VerdictCard(
    /// The run the link describes.
    scenario: Scenario,
) -> impl IntoView {
    card(scenario)
}

fn card(scenario: Scenario) -> Option<impl IntoView> {
    let mut sim = Simulation::new(&scenario).ok()?;
    sim.run_to_end();
    let v = verdict(
        &sim.snapshot().stats,
        scenario.provider.valid_customers(scenario.customers),
        true,
    );
    let recorded = sim.record().is_some();
    let sim = StoredValue::new(sim);
    let canvas = NodeRef::<Canvas>::new();
    let surface = use_canvas(canvas, Palette::read);
    // Drawn once the page has painted: the sentence and the stage's buttons first (on a
    // throttled phone the drawing took about 30 ms of the first frame), the picture a frame
    // later, in a canvas already given the drawing's height.
    let after_paint = painted(false);
    watch(move || {
        let Some((el, Surface { palette, width })) = surface.get() else {
            return;
        };
        if !after_paint.get() {
            return;
        }
        sim.with_value(|sim| {
            draw(
                &el,
                &palette,
                width,
                &TimelineData::of(sim, sim.now_us()),
                Layout::COMPACT,
            );
        });
    });
    // The drawing's height from the start, so nothing moves when it is drawn.
    let height = format!("height: {}px", Layout::COMPACT.height().round() as u32);
    let harm = v.tone == Tone::Harm;
    Some(view! {
        <section class="rll-verdict" class:rll-verdict-harm=harm aria-label=VERDICT_LABELS.0 data-testid="verdict">
            <p class="rll-verdict-text" data-tone=if harm { "harm" } else { "good" }>{v.text}</p>
            {recorded.then(|| view! {
                <canvas node_ref=canvas style=height role="img" aria-label=VERDICT_LABELS.1></canvas>
            })}
            <a class="rll-link" href=STAGE_LINK.0>{STAGE_LINK.1}</a>
        </section>
    })
}

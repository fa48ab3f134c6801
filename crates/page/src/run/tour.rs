//! The guided walk: the article's six strategies in order, on the run page's own stage.
//! Each step is a setup sentence, a question with three choices to predict, the run, and
//! the reveal with its moment marked on the stage. Every number in its words comes from
//! the run it is about: the scenario's customers and that run's stats. The choices too:
//! the right one is the run's, the others come from [`choices`]' stated rule. The card is
//! a live widget ([`Card`]), each part that changes named by its slot.

use super::query::{RunQuery, Walk};
use crate::query::read::Query;
use crate::shared::format::count;
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::shared::words::Words;
use crate::slot;
use maud::{html, Markup};
use sim::moments::{harm_moments, Harm, HarmMoment};
use sim::provider::{Status, Work};
use sim::record::{Admission, RequestRecord};
use sim::{Scenario, Simulation, StatField, Stats, StrategyName};

/// Steps in the walk: one per strategy of the article, in its order.
pub const STEPS: usize = StrategyName::ARTICLE.len();

/// The strategy step `step` (from 0) is about.
pub fn strategy(step: usize) -> StrategyName {
    StrategyName::ARTICLE[step.min(STEPS - 1)]
}

/// True if the run page opens the walk: the URL asks for it (`tour=1`). The bare
/// address opens on the opening story ([`crate::run::opening`]), whose button starts it.
pub fn opens_walk(q: &RunQuery) -> bool {
    q.own.1.tour
}

/// The link that starts the walk at its first step: the walk's own file
/// ([`crate::query::page::WALK_FILE`]), whose module holds it.
pub fn walk_href() -> String {
    Query {
        base: crate::Base::default(),
        own: Walk {
            tour: true,
            step: 0,
        },
    }
    .href()
}

/// Which step a walk key moves to from `step`: → the next, ← the previous (no Shift:
/// Shift + arrows step the stage's harms). `None` for other keys and at the ends.
pub fn step_for_key(step: usize, key: &str, shift: bool) -> Option<usize> {
    match (key, shift) {
        ("ArrowRight", false) => Some(step + 1).filter(|&s| s < STEPS),
        ("ArrowLeft", false) => step.checked_sub(1),
        _ => None,
    }
}

/// The moment a reveal marks on the stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// The first harmful moment of this kind.
    Harm(Harm),
    /// The first 500 answer.
    FirstServerError,
    /// The first second attempt sent.
    FirstRetry,
    /// The first answer replayed from the idempotency store.
    FirstReplay,
}

/// What a step asks, and how its choices and moment are found.
struct Ask {
    question: &'static str,
    field: StatField,
    /// No choice above the customers count (the answer counts customers or charges).
    bounded: bool,
    /// Where the right choice sits among the three, when the rule allows.
    place: usize,
    mark: Mark,
}

fn ask(strategy: StrategyName) -> Ask {
    use StatField::*;
    let (question, field, place, mark) = match strategy {
        StrategyName::Naive => (
            "How many customers get charged?",
            CustomersCharged,
            0,
            Mark::Harm(Harm::Storm),
        ),
        StrategyName::Paced => (
            "How many customers does it give up on?",
            GaveUp,
            1,
            Mark::FirstServerError,
        ),
        StrategyName::Retry => (
            "How many customers get charged now?",
            CustomersCharged,
            2,
            Mark::FirstRetry,
        ),
        StrategyName::TimeoutNoKey => (
            "How many extra charges does it make?",
            Duplicates,
            1,
            Mark::Harm(Harm::DoubleCharge),
        ),
        StrategyName::Keyed => (
            "How many extra charges now?",
            Duplicates,
            0,
            Mark::FirstReplay,
        ),
        StrategyName::Pool
        | StrategyName::Headers
        | StrategyName::Budget
        | StrategyName::Breaker
        | StrategyName::Adaptive => (
            "How many 409s does it get: a retry meeting its first attempt still running?",
            InProgressConflicts,
            2,
            Mark::Harm(Harm::Conflict),
        ),
    };
    Ask {
        question,
        field,
        bounded: field != InProgressConflicts,
        place,
        mark,
    }
}

/// The setup sentence of the step about `strategy`, for `scenario`'s customers.
pub fn setup(strategy: StrategyName, scenario: &Scenario) -> String {
    match strategy {
        StrategyName::Naive => format!(
            "The naive client sends all {} charges at once and never tries again.",
            count(scenario.customers.into())
        ),
        StrategyName::Paced => {
            "Paced: no faster than the limit allows, but still one try per customer.".into()
        }
        StrategyName::Retry => "Retry: the same pace, and a failed attempt is tried again after a wait that doubles each time; a declined card is not.".into(),
        StrategyName::TimeoutNoKey => "Timeout: the client stops waiting for a slow answer and sends the charge again, with no idempotency key.".into(),
        StrategyName::Keyed => "Keyed: the same timeouts and retries, each attempt carrying its charge's idempotency key.".into(),
        StrategyName::Pool => "Worker pool: the keyed client with a few workers, each taking the next customer when free, so a retry no longer waits behind the whole queue.".into(),
        StrategyName::Headers => "Headers: the pool, and every worker waits as long as a 429 or 503 says to.".into(),
        StrategyName::Budget => "Budget: the headers client, and retries spend from a shared budget; an empty one means no retry.".into(),
        StrategyName::Breaker => "Breaker: the budget client, and a circuit breaker stops sending while most attempts fail.".into(),
        StrategyName::Adaptive => "Adaptive: the breaker client with as many workers as the provider takes, found by adding one and cutting a tenth.".into(),
    }
}

/// The question of the step about `strategy`.
pub fn question(strategy: StrategyName) -> &'static str {
    ask(strategy).question
}

/// The right answer of the step about `strategy`: the run's own counter.
pub fn answer(strategy: StrategyName, stats: &Stats) -> u64 {
    stats.get(ask(strategy).field)
}

/// The three choices (fewer if the rule yields fewer distinct numbers), ascending.
///
/// The rule: take the ladder 0, the answer ÷ 10, the answer, the answer × 10 and, for a
/// count of customers or charges, half the customers and the customers (nothing above
/// the larger of the customers and the answer); drop repeats; sort; take three neighbours
/// holding the answer at place `place` (0 first), or the nearest place the ladder allows.
pub fn choices(answer: u64, customers: Option<u64>, place: usize) -> Vec<u64> {
    let mut rungs = vec![0, answer / 10, answer, answer.saturating_mul(10)];
    if let Some(c) = customers {
        rungs.extend([c / 2, c]);
        let top = c.max(answer);
        rungs.retain(|&v| v <= top);
    }
    // Sorted and without repeats as each rung goes in: six at most, and a `u64` sort
    // would cost the walk's module a quicksort of its own (3 KB raw).
    let mut ladder: Vec<u64> = Vec::with_capacity(rungs.len());
    for v in rungs {
        if let Err(at) = ladder.binary_search(&v) {
            ladder.insert(at, v);
        }
    }
    let at = ladder.iter().position(|&v| v == answer).unwrap_or(0);
    let n = ladder.len().min(3);
    let lo = (at + 1).saturating_sub(n);
    let hi = at.min(ladder.len() - n);
    let start = at.saturating_sub(place).clamp(lo, hi);
    ladder[start..start + n].to_vec()
}

/// The choices of the step about `strategy`, for a run of `scenario` with `stats`.
pub fn step_choices(strategy: StrategyName, scenario: &Scenario, stats: &Stats) -> Vec<u64> {
    let a = ask(strategy);
    let customers = a.bounded.then_some(u64::from(scenario.customers));
    choices(stats.get(a.field), customers, a.place)
}

/// The reveal of the step about `strategy`, after a run with `stats`: whether `picked`
/// (the reader's choice, if any) was right, the answer, and what it came from.
pub fn reveal(strategy: StrategyName, stats: &Stats, picked: Option<u64>) -> String {
    let right = answer(strategy, stats);
    let verdict = match picked {
        Some(p) if p == right => "Right. ".to_string(),
        Some(p) => format!("Not {}. ", count(p)),
        None => String::new(),
    };
    let n = |v: u64| count(v);
    let why = match strategy {
        StrategyName::Naive => format!(
            "{} customers charged. The rest were refused at once: {} 429s and {} 503s, and the client gave up on each.",
            n(stats.customers_charged),
            n(stats.rate_limited),
            n(stats.overloaded)
        ),
        StrategyName::Paced => format!(
            "{} customers given up on: a 500 ({} in all) ends the only try.",
            n(stats.gave_up),
            n(stats.server_errors)
        ),
        StrategyName::Retry => format!(
            "{} customers charged, in {} requests: every failed try was sent again, and the {} declined cards were left alone.",
            n(stats.customers_charged),
            n(stats.requests),
            n(stats.declined)
        ),
        StrategyName::TimeoutNoKey => format!(
            "{} extra charges: a slow first attempt still went through after the client sent the next one.",
            n(stats.duplicates)
        ),
        StrategyName::Keyed => format!(
            "{} extra charges: the provider answered {} retries from its store instead of charging again.",
            n(stats.duplicates),
            n(stats.replayed)
        ),
        StrategyName::Pool
        | StrategyName::Headers
        | StrategyName::Budget
        | StrategyName::Breaker
        | StrategyName::Adaptive => format!(
            "{} 409s, and {} extra charges: the key turns a retry that races its first attempt into a refusal, not a second charge.",
            n(stats.in_progress_conflicts),
            n(stats.duplicates)
        ),
    };
    format!("{verdict}{why}")
}

/// The stats of a run of `scenario`, run ahead without a record so the choices can be
/// offered before the reader watches it (about a millisecond for a thousand customers).
pub fn foresee(scenario: &Scenario) -> Result<Stats, String> {
    let mut sim = Simulation::new(&Scenario {
        record: false,
        ..scenario.clone()
    })
    .map_err(|e| e.sentence())?;
    sim.run_to_end();
    Ok(sim.snapshot().stats)
}

/// The moment a reveal marks: when, whose, and the harm at that instant if it is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    /// When it happened.
    pub at_us: u64,
    /// The customer it happened to: their story is opened.
    pub customer: u32,
    /// The harmful moment, for the timeline's callout.
    pub harm: Option<HarmMoment>,
}

/// The moment the step about `strategy` marks in its finished run's record, if the run
/// has one: the first storm, 500, retry, double charge, replay or 409.
pub fn moment(strategy: StrategyName, record: &[RequestRecord], customers: u32) -> Option<Moment> {
    let plain = |r: &RequestRecord, at_us: u64| Moment {
        at_us,
        customer: r.customer,
        harm: None,
    };
    match ask(strategy).mark {
        Mark::Harm(kind) => harm_moments(record, customers)
            .into_iter()
            .find(|m| m.harm == kind)
            .map(|m| Moment {
                at_us: m.at_us,
                customer: m.customer,
                harm: Some(m),
            }),
        Mark::FirstServerError => record
            .iter()
            .find(|r| r.status == Some(Status::ServerError))
            .map(|r| plain(r, r.done_at_us)),
        Mark::FirstRetry => record
            .iter()
            .find(|r| r.attempt == 2)
            .map(|r| plain(r, r.sent_at_us)),
        Mark::FirstReplay => record
            .iter()
            .find(|r| {
                matches!(
                    r.admission,
                    Admission::Admitted {
                        work: Work::Replay(_),
                        ..
                    }
                )
            })
            .map(|r| plain(r, r.done_at_us)),
    }
}

/// The words under a reveal, saying where its moment is.
pub const MARKED: &str =
    "The first time it happened is marked on the timeline, and that customer's story is open below.";

/// The words of the link to the next step, or the end.
pub fn next_label(step: usize) -> String {
    match step + 1 {
        s if s < STEPS => format!(
            "Next: {} →",
            crate::shared::titles::strategy_label(strategy(s))
        ),
        _ => "Finish the walk".into(),
    }
}

/// The card's label for screen readers.
pub const CARD_LABEL: &str = "Guided walk";

/// The card itself: which step it shows (`data-step`, from 1), and what the UI focuses
/// when the walk moves.
pub const CARD: Slot = slot!("tour-card");
/// The step's setup sentence.
pub const SETUP: Slot = slot!("tour-setup");
/// The step's question.
pub const QUESTION: Slot = slot!("tour-question");
/// The choices' place: the step's choices, poured again only when their numbers change.
pub const CHOICES: Slot = slot!("tour-choices");
/// A choice, its number in [`CHOICE_VALUE`].
pub const CHOICE: Slot = slot!("tour-choice");
/// The attribute of a choice that holds its number.
pub const CHOICE_VALUE: &str = "data-value";
/// The reveal, hidden until the step's run is done.
pub const REVEAL: Slot = slot!("tour-reveal");
/// The reveal's words: whether the pick was right, and why.
pub const REVEAL_WORDS: Slot = slot!("tour-reveal-words");
/// What the card asks of the reader while the run is not done.
pub const HINT: Slot = slot!("tour-hint");

/// A button that moves through the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// To the step before.
    Back,
    /// To the next step, or out of the walk after the last.
    Next,
    /// Out of the walk.
    Leave,
}

impl Go {
    /// Every button, in the card's order.
    pub const ALL: [Go; 3] = [Go::Back, Go::Next, Go::Leave];

    /// Its button.
    pub const fn slot(self) -> Slot {
        match self {
            Go::Back => slot!("tour-back"),
            Go::Next => slot!("tour-next"),
            Go::Leave => slot!("tour-leave"),
        }
    }
}

/// What the card shows: the step, the numbers the next run uses, the step's choices
/// (once its run is foreseen), the reader's pick, and the step's run's final counters
/// once it is done.
#[derive(Clone, Debug, PartialEq)]
pub struct CardState {
    /// The step, from 0.
    pub step: usize,
    /// The numbers the step's run uses.
    pub draft: Scenario,
    /// The step's choices, once its run is foreseen.
    pub choices: Option<Vec<u64>>,
    /// The reader's prediction.
    pub picked: Option<u64>,
    /// The step's run's final counters, once it is done.
    pub done: Option<Stats>,
}

/// The walk's card ([`Live`]): its title, the setup, the question, the choices, the
/// reveal (hidden until the step's run is done), the hint and the buttons that move
/// through the walk ([`Go`]). Its nodes stay for the whole walk, so a focused choice or
/// button keeps its focus; the choices are poured again only when their numbers change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card;

impl Live for Card {
    type State = CardState;

    fn shape(&self, _: &CardState) -> u64 {
        0
    }

    fn draw(&self, c: &CardState, fill: &mut Fill) -> Markup {
        let s = strategy(c.step);
        let right = c.done.as_ref().map(|stats| (answer(s, stats), stats));
        let values = c.choices.as_deref().unwrap_or_default();
        // The numbers, one per digit group of a wrapping sum: a list of its own each.
        let key = values.iter().fold(values.len() as u64, |k, v| {
            k.wrapping_mul(1_000_003).wrapping_add(*v)
        });
        let choices = html! {
            @for v in values {
                @let pressed = if c.picked == Some(*v) { "true" } else { "false" };
                @let is_right = right.is_some_and(|(a, _)| a == *v);
                button.rll-tour-right[fill.class(CHOICE, "rll-tour-right", is_right)] type="button" data-slot=(CHOICE)
                    data-testid="tour-choice" data-value=(v) aria-pressed=(fill.attr(CHOICE, "aria-pressed", pressed)) {
                    (count(*v))
                }
            }
        };
        html! {
            div.rll-tour data-testid="tour" data-slot=(CARD) data-step=[fill.data(CARD, "data-step", Some((c.step + 1).to_string()))]
                tabindex="-1" role="region" aria-label=(CARD_LABEL) {
                p { span.rll-tour-title { (CARD_LABEL) " · " } span data-slot=(SETUP) data-testid="tour-setup" { (fill.text(SETUP, setup(s, &c.draft))) } }
                div.rll-tour-ask {
                    p { strong data-slot=(QUESTION) { (fill.text(QUESTION, question(s).into())) } }
                    div.rll-tour-choices role="group" aria-label="Your prediction" data-slot=(CHOICES) { (fill.keyed(CHOICES, key, choices)) }
                }
                p data-slot=(REVEAL) data-testid="tour-reveal" aria-live="polite" hidden[fill.flag(REVEAL, "hidden", right.is_none())]
                    data-answer=[fill.data(REVEAL, "data-answer", right.map(|(a, _)| a.to_string()))] {
                    strong data-slot=(REVEAL_WORDS) {
                        (fill.text(REVEAL_WORDS, right.map(|(_, stats)| reveal(s, stats, c.picked)).unwrap_or_default()))
                    }
                    " " (MARKED)
                }
                p.rll-tour-hint data-slot=(HINT) { (fill.text(HINT, hint(right.is_some(), c.picked.is_some()).into())) }
                div.rll-tour-nav {
                    button.rll-quiet type="button" data-slot=(Go::Back.slot()) data-testid="tour-back"
                        hidden[fill.flag(Go::Back.slot(), "hidden", c.step == 0)] { "← Back" }
                    button type="button" data-slot=(Go::Next.slot()) data-testid="tour-next" { (fill.text(Go::Next.slot(), next_label(c.step))) }
                    button.rll-quiet type="button" data-slot=(Go::Leave.slot()) data-testid="tour-leave" { "Leave the walk" }
                    span.rll-tour-keys { "With the focus in this card, ← and → move through the walk." }
                }
            }
        }
    }
}

/// What the card asks of the reader while the step's run is not done: to pick, or to
/// watch the run they started.
pub fn hint(done: bool, picked: bool) -> &'static str {
    match (done, picked) {
        (true, _) => "",
        (false, true) => "Watch it run: Pause, above, stops it where it is.",
        (false, false) => "Pick one, and the run starts.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::live::Write;

    /// Every whole number written in `text` ("1,017" is one number).
    fn numbers(text: &str) -> Vec<u64> {
        text.split(|c: char| !(c.is_ascii_digit() || c == ','))
            .map(|w| w.trim_matches(','))
            .filter(|w| !w.is_empty())
            .map(|w| w.replace(',', "").parse().unwrap())
            .collect()
    }

    fn run(strategy: StrategyName, seed: u64) -> (Scenario, Stats, Simulation) {
        let sc = Scenario::article(strategy, seed);
        let mut sim = Simulation::new(&sc).unwrap();
        sim.run_to_end();
        (sc, sim.snapshot().stats, sim)
    }

    #[test]
    fn the_walk_starts_in_its_own_file_at_its_first_step() {
        let href = walk_href();
        let query = href.strip_prefix("walk.html?").expect(&href);
        let q = crate::site::keys::read::<(super::super::query::Story, Walk)>(
            &crate::query::codec::pairs_of(query),
        );
        assert!(opens_walk(&q) && q.walk().step == 0 && q.base.problems.is_empty());
    }

    #[test]
    fn every_number_in_every_step_is_the_runs_own() {
        for seed in [1, 7] {
            for (step, s) in StrategyName::ARTICLE.into_iter().enumerate() {
                let (sc, stats, _) = run(s, seed);
                assert_eq!(strategy(step), s);
                let mut own: Vec<u64> = StatField::ALL.iter().map(|&f| stats.get(f)).collect();
                own.push(sc.customers.into());
                let all_choices = step_choices(s, &sc, &stats);
                // Status codes are names, not figures.
                let ok = |n: u64, extra: Option<u64>| {
                    own.contains(&n) || [409, 429, 500, 503].contains(&n) || extra == Some(n)
                };
                let words = [
                    setup(s, &sc),
                    question(s).to_string(),
                    MARKED.into(),
                    next_label(step),
                ];
                for w in &words {
                    for n in numbers(w) {
                        assert!(
                            ok(n, None),
                            "seed {seed}, {s}: {n} in '{w}' is not the run's"
                        );
                    }
                }
                for &c in &all_choices {
                    assert!(
                        own.contains(&c) || c == sc.customers as u64 / 2 || c == 0 || {
                            let a = answer(s, &stats);
                            c == a / 10 || c == a * 10
                        },
                        "seed {seed}, {s}: choice {c}"
                    );
                }
                for picked in [None, Some(all_choices[0]), Some(answer(s, &stats))] {
                    let w = reveal(s, &stats, picked);
                    for n in numbers(&w) {
                        assert!(
                            ok(n, picked),
                            "seed {seed}, {s}: {n} in '{w}' is not the run's"
                        );
                    }
                }
                // The reveal starts its reason with the answer.
                let right = answer(s, &stats);
                let r = reveal(s, &stats, Some(right));
                assert!(r.starts_with(&format!("Right. {} ", count(right))), "{r}");
                assert!(all_choices.contains(&right), "{s}: {all_choices:?}");
            }
        }
    }

    #[test]
    fn the_answer_is_the_stat_the_cli_prints() {
        let (_, stats, _) = run(StrategyName::TimeoutNoKey, 1);
        assert_eq!(answer(StrategyName::TimeoutNoKey, &stats), stats.duplicates);
        let (_, stats, _) = run(StrategyName::Naive, 1);
        assert_eq!(answer(StrategyName::Naive, &stats), stats.customers_charged);
        let (_, stats, _) = run(StrategyName::Pool, 1);
        assert_eq!(
            answer(StrategyName::Pool, &stats),
            stats.in_progress_conflicts
        );
    }

    #[test]
    fn the_foreseen_run_counts_what_the_recorded_run_counts() {
        for s in StrategyName::ALL {
            let (sc, stats, _) = run(s, 3);
            assert_eq!(foresee(&sc).unwrap(), stats, "{s}");
        }
    }

    #[test]
    fn choices_follow_the_stated_rule() {
        // Ladder 0, 1, 10, 100, 500, 1000; the answer first.
        assert_eq!(choices(10, Some(1000), 0), vec![10, 100, 500]);
        assert_eq!(choices(10, Some(1000), 1), vec![1, 10, 100]);
        assert_eq!(choices(10, Some(1000), 2), vec![0, 1, 10]);
        // Nothing above the customers; 0 has half the customers and the customers.
        assert_eq!(choices(990, Some(1000), 2), vec![99, 500, 990]);
        assert_eq!(choices(0, Some(1000), 0), vec![0, 500, 1000]);
        assert_eq!(choices(0, Some(1000), 2), vec![0, 500, 1000]);
        // Unbounded: 47 has 0, 4, 47, 470.
        assert_eq!(choices(47, None, 2), vec![0, 4, 47]);
        // Too few distinct numbers: fewer choices, never a repeat.
        assert_eq!(choices(0, Some(1), 0), vec![0, 1]);
        assert_eq!(choices(0, None, 1), vec![0]);
        // An answer above the customers keeps its place in the ladder.
        assert_eq!(choices(30, Some(20), 1), vec![10, 20, 30]);
        for a in [0, 1, 5, 9, 10, 11, 99, 500, 1000] {
            for place in 0..3 {
                let c = choices(a, Some(1000), place);
                assert!(
                    c.contains(&a) && c.windows(2).all(|w| w[0] < w[1]),
                    "{a} {place}: {c:?}"
                );
            }
        }
    }

    #[test]
    fn each_step_marks_a_moment_of_its_run() {
        for s in StrategyName::ALL {
            let (sc, _, sim) = run(s, 1);
            let m = moment(s, sim.record().unwrap(), sc.customers);
            let m = m.unwrap_or_else(|| panic!("{s}: no moment"));
            assert!(m.customer >= 1 && m.customer <= sc.customers);
            assert!(m.at_us <= sim.now_us());
            let harm = matches!(ask(s).mark, Mark::Harm(_));
            assert_eq!(m.harm.is_some(), harm, "{s}");
        }
    }

    #[test]
    fn walk_keys_and_the_link_that_opens_it() {
        assert_eq!(step_for_key(0, "ArrowRight", false), Some(1));
        assert_eq!(step_for_key(5, "ArrowRight", false), None);
        assert_eq!(step_for_key(3, "ArrowLeft", false), Some(2));
        assert_eq!(step_for_key(0, "ArrowLeft", false), None);
        assert_eq!(step_for_key(2, "ArrowRight", true), None);
        assert_eq!(step_for_key(2, " ", false), None);
        assert!(!opens_walk(&RunQuery::default()));
        let mut tour = RunQuery::default();
        tour.own.1.tour = true;
        assert!(opens_walk(&tour));
    }

    #[test]
    fn the_last_step_finishes() {
        assert_eq!(next_label(0), "Next: Paced →");
        assert_eq!(next_label(STEPS - 1), "Finish the walk");
    }

    /// The card at step 2 (from 0), before a pick.
    fn card_state() -> CardState {
        CardState {
            step: 2,
            draft: Scenario::article(strategy(2), 1),
            choices: Some(vec![12, 1_017, 700]),
            picked: None,
            done: None,
        }
    }

    #[test]
    fn the_card_holds_every_part_the_walk_writes_and_its_words() {
        let card = Card.markup(&card_state()).into_string();
        for part in [
            "tour",
            "tour-setup",
            "tour-reveal",
            "tour-back",
            "tour-next",
            "tour-leave",
        ] {
            assert_eq!(
                card.matches(&format!("data-testid=\"{part}\"")).count(),
                1,
                "{part}"
            );
        }
        let slots = [CARD, SETUP, QUESTION, CHOICES, REVEAL, REVEAL_WORDS, HINT]
            .into_iter()
            .chain(Go::ALL.map(Go::slot));
        let mut names = std::collections::BTreeSet::new();
        for slot in slots {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(card.matches(&attr).count(), 1, "{slot:?}");
            assert!(names.insert(slot.name()), "{slot:?} named twice");
        }
        assert!(card.contains(MARKED));
        assert!(card.contains("data-step=\"3\""), "{card}");
        assert_eq!(card.matches("data-testid=\"tour-choice\"").count(), 3);
        assert_eq!(
            card.matches(&format!("data-slot=\"{}\"", CHOICE.name()))
                .count(),
            3
        );
        assert!(
            card.contains("data-value=\"1017\" aria-pressed=\"false\">1,017<"),
            "{card}"
        );
        assert_eq!(hint(true, true), "");
        assert_ne!(hint(false, true), hint(false, false));
    }

    #[test]
    fn the_card_draws_what_it_fills_and_a_pick_leaves_the_choices_in_place() {
        let (sc, stats, _) = run(strategy(2), 1);
        let before = CardState {
            draft: sc,
            ..card_state()
        };
        let picked = CardState {
            picked: Some(1_017),
            ..before.clone()
        };
        let done = CardState {
            done: Some(stats),
            ..picked.clone()
        };
        let none = CardState {
            choices: None,
            step: 0,
            ..before.clone()
        };
        for st in [&before, &picked, &done, &none] {
            crate::shared::live::check_drawn(&Card, st).unwrap();
        }
        let fill = |s: &CardState| {
            let mut fill = Fill::default();
            Card.draw(s, &mut fill);
            fill
        };
        let changed = |a: &CardState, b: &CardState| -> Vec<(Slot, Write)> {
            fill(b)
                .changed_since(&fill(a))
                .map(|(hole, write)| (hole.slot, write.clone()))
                .collect()
        };
        // A pick presses its choice and changes the hint; the choices stay poured.
        assert_eq!(
            changed(&before, &picked),
            [
                (CHOICE, Write::Attr("aria-pressed", "true")),
                (HINT, Write::Text(hint(false, true).into()))
            ]
        );
        // The run's end shows the reveal and marks the right choice.
        let shown = changed(&picked, &done);
        assert!(
            shown.contains(&(REVEAL, Write::Flag("hidden", false))),
            "{shown:?}"
        );
        assert!(shown.iter().all(|(s, _)| *s != CHOICES), "{shown:?}");
        // New numbers pour them again.
        let other = CardState {
            choices: Some(vec![12, 1_018, 700]),
            ..before.clone()
        };
        assert!(changed(&before, &other).iter().any(|(s, _)| *s == CHOICES));
    }
}

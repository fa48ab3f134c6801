//! The client view's page: the contract, the controls and the editor, the run's status,
//! and what the run shows once it is done.

use super::client_results::ClientResults;
use super::client_run::{ClientRun, Phase};
use super::code_editor::Editor;
use crate::shared::bind;
use crate::shared::dom::value_of;
use crate::shared::erase::{handler, watch};
use crate::shared::explore_page::ExplorePage;
use crate::shared::fetch::fetch_text;
use crate::shared::live;
use crate::shared::page_query;
use leptos::html::Div;
use leptos::prelude::*;
use page::client::code::{decode_code, starter_href};
use page::client::fields::{check_code, link_query, read_fields, sandbox_query};
use page::client::query::ClientQuery;
use page::client::view::{
    ClientControls, Contract, ControlsState, Problems, CANCEL, CLIENT_TITLE, CODE_LABEL, CUSTOMERS,
    INCIDENT, RUN, SEED, START,
};
use page::site::words::CLIENT_WORDS;
use page::View;
use sim::StrategyName;

/// The view.
#[component]
pub fn ClientPage(
    /// What the link asks for.
    query: ClientQuery,
) -> impl IntoView {
    let base = StoredValue::new(query.base.scenario.clone());
    let mut query = query;
    // Code that came with the link is shown, and never run until the reader runs it.
    let linked = match query.own.0.as_deref().map(decode_code) {
        Some(Ok(code)) => Some(code),
        Some(Err(why)) => {
            query.base.problems.push(why);
            None
        }
        None => None,
    };
    let start = query.base.strategy().unwrap_or(StrategyName::Keyed);
    let shown = RwSignal::new(query.clone());
    let scenario = RwSignal::new(base.get_value());
    let run = ClientRun::new();
    let root = NodeRef::<Div>::new();
    let editor = Editor::new(root);
    let was_linked = linked.is_some();
    // Why the fields cannot be used, if they cannot: said when Run is pressed.
    let fields_error = RwSignal::new(None::<String>);
    // The lab's own client last put in the editor, to tell whether the reader changed it.
    let starter = StoredValue::new(None::<String>);
    let load = move |strategy: StrategyName| {
        leptos::task::spawn_local(async move {
            let text = fetch_text(starter_href(strategy)).await;
            match text {
                Ok(text) => {
                    editor.set_text(&text);
                    starter.set_value(Some(text));
                }
                Err(why) => run.refuse(why),
            }
        });
    };
    if !was_linked {
        load(start);
    }
    let go = move || {
        if matches!(
            run.phase().get_untracked(),
            Phase::Running | Phase::Checking
        ) {
            return;
        }
        let Some(el) = root.get_untracked() else {
            return;
        };
        let field = |slot| {
            bind::find(&el, slot)
                .and_then(|f| value_of(&f))
                .unwrap_or_default()
        };
        let said = |why: Option<String>| fields_error.set(why);
        let code = editor.text();
        let fields = base.with_value(|base| {
            read_fields(base, &field(SEED), &field(CUSTOMERS), &field(INCIDENT))
        });
        let scenario_now = match (fields, check_code(&code)) {
            (Ok(s), Ok(())) => s,
            (fields, code) => {
                let mut why = fields.err().unwrap_or_default();
                why.extend(code.err());
                said(Some(why.join(" ")));
                return;
            }
        };
        said(None);
        editor.clear_errors();
        let strategy = field(START).parse().unwrap_or(start);
        let q = link_query(&scenario_now, strategy, &code);
        page_query::replace(&q.to_query());
        shown.set(q);
        scenario.set(scenario_now.clone());
        run.start(code, scenario_now.clone(), sandbox_query(&scenario_now));
    };

    editor.upgrade(CODE_LABEL, go);

    // The controls are the page layer's live widget: the status line, the bar, Run and
    // Cancel, the fields' error and the note on linked code are written there.
    let controls = base.with_value(|base| ClientControls {
        scenario: base.clone(),
        start,
        code: linked.clone().unwrap_or_default(),
    });
    let controls = live::view(controls, move || {
        let phase = run.phase().get();
        ControlsState {
            status: run.status().get(),
            progress: run.progress().get(),
            busy: matches!(phase, Phase::Running | Phase::Checking),
            linked: was_linked && phase == Phase::Idle,
            fields_error: fields_error.get(),
        }
    });
    // A failure with a place in the code is marked there.
    watch(move || {
        if let Some(at) = run.failed_at().get() {
            let message = run
                .problems()
                .with(|p| p.first().cloned())
                .unwrap_or_default();
            editor.show_error(at, &message);
        }
    });

    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, RUN).is_some() {
            go();
        } else if bind::hit(&ev, CANCEL).is_some() {
            run.cancel();
        }
    };
    let on_change = move |ev: web_sys::Event| {
        let Some(select) = bind::hit(&ev, START) else {
            return;
        };
        let Ok(strategy) = value_of(&select)
            .unwrap_or_default()
            .parse::<StrategyName>()
        else {
            return;
        };
        // The reader's own changes are not thrown away without asking.
        let changed = starter.with_value(|s| s.as_deref() != Some(editor.text().as_str()))
            && !editor.text().trim().is_empty();
        let sure = !changed
            || window()
                .confirm_with_message(&format!(
                    "Replace the code in the editor with the lab's {strategy} client?"
                ))
                .unwrap_or(false);
        if sure {
            load(strategy);
        }
    };
    // Ctrl+Enter in the text area (the editor takes it itself, and says so by preventing
    // its default).
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) && !ev.default_prevented() {
            ev.prevent_default();
            go();
        }
    };
    let problems = live::view(Problems, move || run.problems().get());
    view! {
        <ExplorePage
            problems=query.base.problems.clone()
            view=View::Client
            title=CLIENT_TITLE
            shown=shown.into()
            scenario=scenario.into()
            run_state=Signal::derive(move || run.phase().get().as_str())
            beside=()
            words=CLIENT_WORDS
        >
            {live::view(Contract, || ())}
            <div class="rll-client" node_ref=root data-testid="client-view"
                on:click=handler(on_click) on:change=handler(on_change) on:keydown=handler(on_key)>{controls}</div>
            {problems}
            <ClientResults run/>
        </ExplorePage>
    }
}

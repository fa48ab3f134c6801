// The code editor of the "your own client" view (issue 48): CodeMirror 6, cut down to what
// a reader writing one client needs, behind a small API the view's module calls. It is
// bundled on its own by scripts/editor.mjs into dist/editor/editor.js, which only that view
// imports, so no other page's first load pays for it (docs/sizes-and-speeds.md, "The editor").
//
//   const editor = createEditor(parent, { doc, label, onChange, describedBy });
//   editor.getValue(); editor.setValue(text); editor.focus();
//   editor.showError({ line, column, message }); editor.clearErrors(); editor.destroy();
//
// Under the page's Content-Security-Policy: CodeMirror and Lezer use no eval or new Function
// (scripts/editor.mjs fails the build if the bundle names either), and its styles are
// mounted at run time as a constructed stylesheet or a <style> element, which
// `style-src 'self' 'unsafe-inline'` allows; the lint marks' icons are data: images, which
// `img-src 'self' data:` allows.
import { EditorState, Transaction } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { HighlightStyle, LanguageSupport, bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { javascriptLanguage } from '@codemirror/lang-javascript';
import { forEachDiagnostic, lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { tags as t } from '@lezer/highlight';

// The language alone, not `javascript()`: that one adds @codemirror/autocomplete's snippets
// and completion sources (13 KB raw, 2.8 KB gzip), of no use without the autocompletion
// extension, which the issue does not ask for.
const language = new LanguageSupport(javascriptLanguage);

// Colours are the page's custom properties (style/main.css, on `.rll`), so the editor
// follows its light and dark schemes (prefers-color-scheme) with no theme of its own to
// switch; the fallbacks are the light scheme's, for an editor put outside `.rll`.
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
const theme = EditorView.theme({
  '&': {
    color: 'var(--rll-text, #1c2230)',
    backgroundColor: 'var(--rll-surface, #fff)',
    border: '1px solid var(--rll-border, #dfe2e6)',
    borderRadius: '10px',
    // rem, not px: a projector's zoom and a reader's font size both enlarge it.
    fontSize: '0.9rem',
  },
  // The page's own focus ring, once, on the editor's frame: not also on the content element
  // inside it, which the page's `.rll :focus-visible` rule would ring a second time.
  '&.cm-focused': { outline: '3px solid var(--rll-focus, #f0a500)', outlineOffset: '2px' },
  '.cm-content:focus-visible': { outline: 'none' },
  '.cm-scroller': { fontFamily: MONO, lineHeight: '1.5', minHeight: '12em', maxHeight: '70vh', borderRadius: '10px' },
  '.cm-content': { caretColor: 'var(--rll-text, #1c2230)', padding: '8px 0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--rll-text, #1c2230)' },
  '.cm-gutters': {
    backgroundColor: 'var(--rll-surface-2, #f0f1ee)',
    color: 'var(--rll-muted, #586173)',
    borderRight: '1px solid var(--rll-border, #dfe2e6)',
    borderRadius: '10px 0 0 10px',
  },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--rll-accent-soft, #e6eefc)', outline: '1px solid var(--rll-accent, #2459c4)' },
  '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: 'var(--rll-harm-soft, #fff0e8)' },
  // The diagnostic: a plain underline in the page's harm colour (thick enough to see on a
  // projector), and the message's tooltip in the page's colours.
  '.cm-lintRange-error': { backgroundImage: 'none', textDecoration: 'underline wavy var(--rll-harm, #b93a0f) 2px', textUnderlineOffset: '3px' },
  '.cm-tooltip': { backgroundColor: 'var(--rll-surface, #fff)', color: 'var(--rll-text, #1c2230)', border: '1px solid var(--rll-border, #dfe2e6)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--rll-harm, #b93a0f)' },
});

// Token colours from the page's palette: against the editor's surface each has a contrast of
// at least 4.9:1 in the light scheme and 6.2:1 in the dark (WCAG AA asks 4.5:1).
const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.operatorKeyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword], color: 'var(--rll-accent, #2459c4)' },
  { tag: [t.string, t.special(t.string), t.regexp], color: 'var(--rll-good, #17804f)' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--rll-mark-declined, #6f4ad8)' },
  { tag: [t.comment, t.lineComment, t.blockComment], color: 'var(--rll-muted, #586173)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: 'var(--rll-mark-key-reused, #0d7480)' },
  { tag: t.invalid, color: 'var(--rll-harm, #b93a0f)' },
]);

/**
 * Creates an editor in `parent` holding `doc`. `label` is the accessible name of its text
 * (the content element's aria-label); `describedBy`, the id of an element that tells how to
 * leave it (Escape then Tab); `onChange(text)` is called after each change the reader makes
 * (typing, pasting, undo), not after setValue; `onRun()` when the reader presses Ctrl+Enter
 * (Cmd+Enter on macOS).
 */
export function createEditor(parent, { doc = '', label, onChange, onRun, describedBy } = {}) {
  if (!label) throw new Error('createEditor: a label is required (the editor\'s accessible name)');
  const attributes = { 'aria-label': label };
  if (describedBy) attributes['aria-describedby'] = describedBy;

  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        indentOnInput(),
        bracketMatching(),
        language,
        syntaxHighlighting(highlight),
        lintGutter(),
        EditorView.lineWrapping, // no sideways scrolling on a 375 px phone
        EditorState.tabSize.of(2),
        // Tab indents, as a code editor's users expect; it does not trap keyboard users:
        // CodeMirror lets Tab move focus out for 2 s after Escape, and Ctrl-M (Shift-Alt-M on
        // macOS, from defaultKeymap) switches Tab to moving focus until pressed again. Say so
        // beside the editor (`describedBy`).
        // Ctrl+Enter (Cmd+Enter on macOS) runs the code (`onRun`), where defaultKeymap would
        // insert a blank line.
        keymap.of([{ key: 'Mod-Enter', run: () => (onRun ? (onRun(), true) : false) }, indentWithTab, ...defaultKeymap, ...historyKeymap, ...lintKeymap]),
        EditorView.contentAttributes.of(attributes),
        theme,
        EditorView.updateListener.of((update) => {
          // Only the reader's changes (each carries a user event: input, delete, undo, …).
          if (onChange && update.docChanged && update.transactions.some((tr) => tr.annotation(Transaction.userEvent) !== undefined)) {
            onChange(update.state.doc.toString());
          }
        }),
      ],
    }),
  });

  return {
    getValue: () => view.state.doc.toString(),
    // One change the reader can undo, and the errors go: they were about the old text.
    setValue(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }, setDiagnostics(view.state, []));
    },
    focus: () => view.focus(),
    /** An error at `line` (1-based) and `column` (1-based, as ErrorEvent.colno and stack
     * traces count; missing: the whole line): underlined, marked in the gutter with the
     * message as its tooltip, the line scrolled into view and the message announced to
     * screen readers. Lines and columns past the text are clamped to it. */
    showError({ line, column, message }) {
      const { doc } = view.state;
      const at = doc.line(Math.min(Math.max(1, Math.trunc(line) || 1), doc.lines));
      let from = at.from;
      let to = at.to;
      if (column) {
        from = Math.min(at.from + Math.max(0, Math.trunc(column) - 1), at.to);
        // The word that starts there, or its one character: a mark that can be seen.
        const word = /^[\w$]+/.exec(doc.sliceString(from, at.to));
        to = Math.min(from + (word ? word[0].length : 1), at.to);
      }
      // Beside the errors already shown, where the reader's edits since have moved them.
      const errors = [];
      forEachDiagnostic(view.state, (d, dFrom, dTo) => errors.push({ ...d, from: dFrom, to: dTo }));
      errors.push({ from, to, severity: 'error', message: String(message) });
      view.dispatch(setDiagnostics(view.state, errors), {
        effects: [
          EditorView.scrollIntoView(from, { y: 'center' }),
          EditorView.announce.of(`Line ${at.number}: ${message}`),
        ],
      });
    },
    clearErrors() {
      view.dispatch(setDiagnostics(view.state, []));
    },
    destroy: () => view.destroy(),
    /** The CodeMirror view, for tests and for what this API does not cover. */
    view,
  };
}


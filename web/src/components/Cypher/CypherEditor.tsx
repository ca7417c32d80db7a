import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { cypher } from '@codemirror/legacy-modes/mode/cypher';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, keymap, placeholder, type DecorationSet } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';

export interface CypherEditorProps {
  value: string;
  onChange(value: string): void;
  onRun(): void;
  /** The offset an error points at, underlined in the text. */
  errorAt?: number;
}

const setError = StateEffect.define<number | null>();
const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (!e.is(setError)) continue;
      if (e.value === null) return Decoration.none;
      const doc = tr.state.doc;
      const from = Math.min(e.value, Math.max(doc.length - 1, 0));
      const to = Math.min(doc.length, from + Math.max(1, doc.lineAt(from).to - from));
      return to > from ? Decoration.set([Decoration.mark({ class: 'cm-query-error' }).range(from, to)]) : Decoration.none;
    }
    return tr.docChanged ? Decoration.none : deco.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

const highlight = HighlightStyle.define([
  { tag: tags.keyword, class: 'tok-keyword' },
  { tag: [tags.string, tags.special(tags.string)], class: 'tok-string' },
  { tag: tags.number, class: 'tok-number' },
  { tag: [tags.variableName, tags.propertyName], class: 'tok-variable' },
  { tag: [tags.comment], class: 'tok-comment' },
  { tag: [tags.operator, tags.punctuation], class: 'tok-operator' },
  { tag: tags.atom, class: 'tok-atom' },
]);

/**
 * The Cypher editor (CodeMirror 6 with its Cypher mode): highlighting, history, Ctrl/Cmd+Enter runs. Its text area is
 * a textbox named "Cypher query"; an error's position is underlined.
 */
export default function CypherEditor({ value, onChange, onRun, errorAt }: CypherEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const cb = useRef({ onChange, onRun });
  cb.current = { onChange, onRun };

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          keymap.of([{ key: 'Mod-Enter', run: () => (cb.current.onRun(), true) }, ...defaultKeymap, ...historyKeymap]),
          StreamLanguage.define(cypher),
          syntaxHighlighting(highlight),
          EditorView.lineWrapping,
          placeholder('MATCH (n:User) RETURN n LIMIT 10'),
          EditorView.contentAttributes.of({ 'aria-label': 'Cypher query' }),
          errorField,
          // CodeMirror's own <style> element carries the page's CSP nonce (src/http/ui/static-app.ts).
          EditorView.cspNonce.of(document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.nonce ?? ''),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) cb.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // The editor is made once; outside changes of `value` are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: setError.of(errorAt ?? null) });
  }, [errorAt]);

  return <div ref={host} className="cypher-editor" />;
}

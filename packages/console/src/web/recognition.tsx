/**
 * Recognition results: each recognised part with its pages, form, confidence and values beside the page
 * image, the value in focus (or under the pointer) highlighted where it was read; each value's confidence
 * marked, those below the review threshold flagged and listed first; validation.
 */
import { useState } from 'preact/hooks';
import { call, enc } from './api';
import { needsChecking, reviewThreshold } from './confidence';
import { ConfidenceMark, MemoryMark, NeedsChecking } from './confidence-mark';
import type { Doc, RecoData, TagValue } from './model';
import { PageView, usePageLayout } from './page-view';
import { ErrorBox, Section, useAction } from './ui';
import { valueBox } from './value-box';
import { type FieldMark, ValuesEditor } from './values-editor';

const pages = (r: RecoData) =>
  r.pageIdxStart === r.pageIdxEnd
    ? `page ${r.pageIdxStart + 1}`
    : `pages ${r.pageIdxStart + 1}–${r.pageIdxEnd + 1}`;

function RecoPart({
  doc,
  reco,
  index,
  onValidated,
}: {
  doc: Doc;
  reco: RecoData;
  index: number;
  onValidated: (text: string) => void;
}) {
  const [values, setValues] = useState<Record<string, TagValue>>(reco.valuesByTags);
  const [pageIdx, setPageIdx] = useState(reco.pageIdxStart);
  // The offer to copy is ticked when a value here differs from the document's own field.
  const [copy, setCopy] = useState(() =>
    Object.entries(reco.valuesByTags).some(
      ([tag, v]) => JSON.stringify(v) !== JSON.stringify(doc.valuesByTags[tag]),
    ),
  );
  const [focused, setFocused] = useState<string>();
  const layout = usePageLayout(doc._id, reco.fileId, pageIdx);
  const [run, state] = useAction();
  const idPrefix = `reco-${reco._id}`;
  /** The tag of the field an event happened in (its input's id is `<idPrefix>-<tag>`). */
  const tagOf = (e: Event) => {
    const input = (e.target as HTMLElement).closest('.field')?.querySelector('input, textarea');
    return input?.id.startsWith(`${idPrefix}-`) ? input.id.slice(idPrefix.length + 1) : undefined;
  };
  const focus = (tag: string | undefined) => {
    if (!tag) return;
    setFocused(tag);
    const onPage = reco.fieldsByTags?.[tag]?.pageIdx;
    if (onPage !== undefined && onPage >= reco.pageIdxStart && onPage <= reco.pageIdxEnd) setPageIdx(onPage);
  };
  // The value as recognised is looked for on the page (an edited one may not be there).
  const recognised = focused === undefined ? undefined : reco.valuesByTags[focused];
  const box =
    focused !== undefined && typeof recognised === 'string'
      ? valueBox(recognised, reco.fieldsByTags?.[focused], layout)
      : undefined;
  // Marks describe the values as read, against the threshold recognition judged the part by; only a
  // part still to validate flags and lists those below it.
  const threshold = reviewThreshold(reco.autoValidateAt);
  const fields = reco.fieldsByTags;
  const toCheck = reco.validated ? [] : needsChecking(values, fields, threshold.at);
  const marks: Record<string, FieldMark> = {};
  if (fields)
    for (const tag of Object.keys(values))
      marks[tag] = {
        mark: (
          <>
            <ConfidenceMark confidence={fields[tag]?.confidence} threshold={threshold} />
            {fields[tag]?.source === 'memory' ? (
              <>
                {' '}
                <MemoryMark />
              </>
            ) : null}
          </>
        ),
        flagged: toCheck.includes(tag),
      };
  const focusField = (tag: string) => {
    const field = document.getElementById(`${idPrefix}-${tag}`);
    // A table's id is its fieldset's: its first cell takes the focus.
    (field instanceof HTMLInputElement ? field : field?.querySelector('input'))?.focus();
  };
  const confidence = reco.recoResult?.recoFormConfidence;
  const headingId = `reco-heading-${reco._id}`;
  const validate = (e: Event) => {
    e.preventDefault();
    run(async () => {
      await call('PUT', `/api/v2/docForm/${enc(doc._id)}/recoData/${reco._id}`, {
        valuesByTags: values,
        copyToFields: copy,
      });
      onValidated(`Part ${index + 1} (${reco.recoForm.name}) validated.`);
    });
  };
  return (
    <article class="reco" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Part {index + 1}: {reco.recoForm.name} <span class="muted">({reco.recoForm.id})</span>{' '}
        {reco.validated ? (
          <span class="badge badge-ok">validated</span>
        ) : (
          <span class="badge">not validated</span>
        )}
      </h3>
      <dl class="facts">
        <dt>Pages</dt>
        <dd>{pages(reco)}</dd>
        <dt>Form</dt>
        <dd>
          {reco.recoForm.name} ({reco.recoForm.id})
        </dd>
        <dt>Confidence</dt>
        <dd>
          {confidence === undefined ? (
            '—'
          ) : (
            <>
              <meter
                min={0}
                max={100}
                low={50}
                high={80}
                optimum={100}
                value={confidence}
                aria-label="Confidence"
              />{' '}
              {confidence.toFixed(1)} %
            </>
          )}
        </dd>
      </dl>
      <div class="reco-review">
        <div>
          <PageView docId={doc._id} fileId={reco.fileId} pageIdx={pageIdx} highlight={box} />
          {reco.pageIdxEnd > reco.pageIdxStart ? (
            <div class="reco-pages">
              <button
                type="button"
                class="secondary"
                disabled={pageIdx <= reco.pageIdxStart}
                onClick={() => setPageIdx(pageIdx - 1)}
              >
                Previous page
              </button>
              <button
                type="button"
                class="secondary"
                disabled={pageIdx >= reco.pageIdxEnd}
                onClick={() => setPageIdx(pageIdx + 1)}
              >
                Next page
              </button>
            </div>
          ) : null}
        </div>
        {/* biome-ignore lint/a11y/useKeyWithMouseEvents: keyboard users get the same through onFocusIn ('focus' does not bubble from the inputs) */}
        <form
          onSubmit={validate}
          aria-label={`Validate part ${index + 1}`}
          onFocusIn={(e) => focus(tagOf(e))}
          onMouseOver={(e) => focus(tagOf(e))}
        >
          {fields && !reco.validated ? (
            <NeedsChecking
              tags={toCheck}
              total={Object.keys(values).length}
              threshold={threshold}
              focusField={focusField}
            />
          ) : null}
          <ValuesEditor values={values} onChange={setValues} idPrefix={idPrefix} marks={marks} />
          {doc.actions?.validateRecoData ? (
            <label class="check">
              <input
                type="checkbox"
                checked={copy}
                onChange={(e) => setCopy((e.target as HTMLInputElement).checked)}
              />{' '}
              Also copy these values into the document's fields
            </label>
          ) : null}
          {doc.actions?.validateRecoData ? (
            <div class="actions">
              <button type="submit" disabled={state.busy}>
                {reco.validated ? 'Validate again' : 'Validate'}
              </button>
            </div>
          ) : null}
          <ErrorBox error={state.error} />
        </form>
      </div>
    </article>
  );
}

export function RecognitionSection({ doc, onValidated }: { doc: Doc; onValidated: (text: string) => void }) {
  const parts = doc.recoData ?? [];
  return (
    <Section title="Recognition" id="recognition">
      {doc.recoStatus === 'pending' ? (
        <p role="status">Recognition is running; its values appear here by themselves when it ends.</p>
      ) : null}
      {doc.recoStatus === 'failed' ? (
        <p class="field-error">An attachment could not be read (see the history).</p>
      ) : null}
      {parts.length === 0 && doc.recoStatus === 'done' ? <p class="empty">No recognised parts.</p> : null}
      {parts.map((reco, i) => (
        <RecoPart
          key={`${reco._id}:${reco.validated}`}
          doc={doc}
          reco={reco}
          index={i}
          onValidated={onValidated}
        />
      ))}
    </Section>
  );
}

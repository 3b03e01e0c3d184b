/** Recognition results: each recognised part with its pages, form, confidence and values; validation. */
import { useState } from 'preact/hooks';
import { call, enc } from './api';
import type { Doc, RecoData, TagValue } from './model';
import { ErrorBox, Section, useAction } from './ui';
import { ValuesEditor } from './values-editor';

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
  const [run, state] = useAction();
  const confidence = reco.recoResult?.recoFormConfidence;
  const headingId = `reco-${reco._id}`;
  const validate = (e: Event) => {
    e.preventDefault();
    run(async () => {
      await call('PUT', `/api/v2/docForm/${enc(doc._id)}/recoData/${reco._id}`, { valuesByTags: values });
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
      <form onSubmit={validate} aria-label={`Validate part ${index + 1}`}>
        <ValuesEditor values={values} onChange={setValues} idPrefix={`reco-${reco._id}`} />
        {doc.actions?.validateRecoData ? (
          <div class="actions">
            <button type="submit" disabled={state.busy}>
              {reco.validated ? 'Validate again' : 'Validate'}
            </button>
          </div>
        ) : null}
        <ErrorBox error={state.error} />
      </form>
    </article>
  );
}

export function RecognitionSection({ doc, onValidated }: { doc: Doc; onValidated: (text: string) => void }) {
  const parts = doc.recoData ?? [];
  return (
    <Section title="Recognition" id="recognition">
      {doc.recoStatus === 'pending' ? (
        <p role="status">Recognition is still running; refresh in a moment.</p>
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

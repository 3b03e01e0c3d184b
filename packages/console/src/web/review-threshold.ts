/**
 * The threshold the recognition review marks values against: the form's `recognition.validation
 * .autoValidateAt`, read from the admin API by whoever may read forms (`administer`); anyone else, and a
 * form that sets none, gets DEFAULT_REVIEW_THRESHOLD — the document API does not show a form's rules.
 */
import { useEffect, useState } from 'preact/hooks';
import { enc, get } from './api';
import { DEFAULT_REVIEW_THRESHOLD, type ReviewThreshold } from './confidence';
import type { Me, StoredForm } from './model';

const DEFAULT: ReviewThreshold = { at: DEFAULT_REVIEW_THRESHOLD, from: 'default' };

async function loadThreshold(formName: string): Promise<ReviewThreshold> {
  const me = await get<Me>('/api/v2/me');
  if (!me.capabilities.administer) return DEFAULT;
  const form = await get<StoredForm>(`/api/admin/v1/forms/${enc(formName)}`);
  const at = form.recognition?.validation?.autoValidateAt;
  return at === undefined ? DEFAULT : { at, from: 'form' };
}

/** The review threshold for documents of `formName`; undefined while it is being read. */
export function useReviewThreshold(formName: string): ReviewThreshold | undefined {
  const [threshold, setThreshold] = useState<ReviewThreshold>();
  useEffect(() => {
    let current = true;
    setThreshold(undefined);
    loadThreshold(formName).then(
      (t) => current && setThreshold(t),
      // A form no longer there, or the server not answering now: the marks still show, by the default.
      () => current && setThreshold(DEFAULT),
    );
    return () => {
      current = false;
    };
  }, [formName]);
  return threshold;
}

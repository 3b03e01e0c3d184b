import assert from 'node:assert/strict';
import { it } from 'node:test';
import { FormDefinition } from './forms';
import { SAMPLE_FORMS } from './sample-forms';

it('every sample form passes the checks of a form definition (RE2 patterns included)', () => {
  for (const form of SAMPLE_FORMS) assert.deepEqual(FormDefinition.parse(form), form, form.name);
});

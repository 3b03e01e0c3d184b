import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { formStream } from '@docflow/contracts';
import { commandMetadata, executeCommand } from '@docflow/kit/eventsourcing';
import { ProblemError } from '@docflow/kit/http';
import { decideDefineForm, formAggregate } from '../../forms/form';
import { FORM } from '../test-fixtures';
import { loadCreateForm } from './load-form';
import { context, tempStore } from './test-givens';

describe('create step: load the form (SQLite event store)', () => {
  const { store, close } = tempStore();
  after(close);

  it('a form never defined: 404 naming it', async () => {
    await assert.rejects(
      loadCreateForm(store, 'nosuchform'),
      (err: unknown) =>
        err instanceof ProblemError && err.status === 404 && err.detail === 'no form nosuchform',
    );
  });

  it('a defined form: its definition', async () => {
    const { principal, ids } = context();
    await executeCommand(
      store,
      formStream(FORM.name),
      formAggregate,
      (s) => decideDefineForm(FORM, s),
      commandMetadata(principal, ids),
    );
    assert.deepEqual(await loadCreateForm(store, FORM.name), FORM);
  });
});

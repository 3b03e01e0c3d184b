/**
 * The document page's comment thread in Chromium (issue 36): a reader adds a comment holding markup,
 * and it shows as written — text, never rendered HTML — with the commenter's name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chromiumSkipReason } from '../support/chromium';
import { consoleSuite } from '../support/console-suite';
import { createDoc } from '../support/documents';

const skip = chromiumSkipReason();
if (skip) console.log(`# console comments test skipped: ${skip}`);
const TEXT = 'See <b>page 2</b> and **the total**';

describe('console comments in Chromium', { skip, timeout: 300_000 }, () => {
  const suite = consoleSuite();

  it('a comment with markup shows as written, as text', async () => {
    const created = await createDoc(suite.target.baseUrl, suite.target.adminKey, 'memo', {
      docForm: { valuesByTags: { subject: 'Comment me' } },
    });
    assert.equal(created.status, 201, created.text);
    const page = await suite.signedIn();
    await page.goto(`${suite.target.baseUrl}/console#/doc/${created.body._id}`);
    const comments = page.getByRole('region', { name: 'Comments' });
    await comments.getByText('No comments yet.').waitFor();
    await comments.getByLabel('Add a comment').fill(TEXT);
    await comments.getByRole('button', { name: 'Comment' }).click();
    const shown = comments.locator('.comment-text');
    await shown.waitFor();
    assert.equal(await shown.textContent(), TEXT);
    assert.equal(await comments.locator('.comment-text b').count(), 0, 'no element made of the text');
    assert.equal(await comments.getByLabel('Add a comment').inputValue(), '');
    await suite.shot(page, 'comments-1-thread');
    await page.context().close();
  });
});

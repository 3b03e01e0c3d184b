import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hexIdFromWebId, newHexId, newUsrId, webIdFromHexId } from './ids';

describe('id codecs', () => {
  it('a new _id is 24 lowercase hex and sorts by creation second', () => {
    const a = newHexId(Date.UTC(2026, 0, 1));
    const b = newHexId(Date.UTC(2026, 0, 2));
    assert.match(a, /^[0-9a-f]{24}$/);
    assert.ok(a < b);
  });
  it('_id_web is 16 URL-safe characters and decodes back to the _id', () => {
    for (let i = 0; i < 200; i++) {
      const id = newHexId();
      const web = webIdFromHexId(id);
      assert.match(web, /^[A-Za-z0-9_-]{16}$/);
      assert.equal(hexIdFromWebId(web), id);
    }
  });
  it('strings that are no web id decode to nothing (a path word like "view" never matches)', () => {
    for (const s of [
      'view',
      'inbox',
      '',
      'a'.repeat(15),
      'a'.repeat(17),
      'aaaaaaaaaaaaaaa+',
      '65a1f0c2b3d4e5f601234567',
    ])
      assert.equal(hexIdFromWebId(s), undefined, s);
  });
  it('usr- ids have the 8-4-4-4-12 lowercase hex shape', () => {
    assert.match(newUsrId(), /^usr-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

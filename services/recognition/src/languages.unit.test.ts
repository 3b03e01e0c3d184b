import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ProblemError } from '@docflow/kit/http';
import { INSTALLED_LANGUAGES, langPathFor, resolveIdpLangs } from './languages';

describe('resolveIdpLangs', () => {
  const accepted: Array<[idpLangs: string | undefined, languages: string[]]> = [
    [undefined, ['eng']],
    ['', ['eng']],
    ['eng', ['eng']],
    ['eng+eng', ['eng']],
  ];
  for (const [idpLangs, languages] of accepted)
    it(`accepts ${JSON.stringify(idpLangs)}`, () => assert.deepEqual(resolveIdpLangs(idpLangs), languages));

  const rejected: Array<[idpLangs: string, named: string]> = [
    ['eng+deu', 'deu'],
    ['fra', 'fra'],
    ['deu+fra', 'deu, fra'],
    ['ENG', 'ENG'],
  ];
  for (const [idpLangs, named] of rejected)
    it(`rejects ${idpLangs} with a 400 problem listing the installed languages`, () => {
      assert.throws(
        () => resolveIdpLangs(idpLangs),
        (err: unknown) => {
          assert.ok(err instanceof ProblemError);
          assert.equal(err.status, 400);
          assert.equal(err.detail, `OCR language(s) not installed: ${named}; installed: eng`);
          assert.equal(err.toProblem().errors?.[0]?.pointer, 'query.idpLangs');
          return true;
        },
      );
    });
});

describe('langPathFor', () => {
  it('points at the packaged int-quantised data of every installed language, on disk', () => {
    assert.deepEqual(INSTALLED_LANGUAGES, ['eng']);
    const folder = langPathFor(['eng']);
    assert.match(folder, /@tesseract\.js-data[/\\]eng[/\\]4\.0\.0_best_int$/);
    assert.ok(existsSync(join(folder, 'eng.traineddata.gz')));
  });
});

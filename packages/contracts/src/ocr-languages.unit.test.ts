import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CreateDocQuery } from './documents';
import { ocrLanguagesNotInstalled } from './ocr-languages';

const cases: Array<[idpLangs: string, notInstalled: string | undefined]> = [
  ['eng', undefined],
  ['eng+eng', undefined],
  ['deu', 'OCR language(s) not installed: deu; installed: eng'],
  ['eng+deu+fra+deu', 'OCR language(s) not installed: deu, fra; installed: eng'],
];
for (const [idpLangs, notInstalled] of cases) {
  it(`idpLangs=${idpLangs}: ${notInstalled ?? 'installed'}`, () => {
    assert.equal(ocrLanguagesNotInstalled(idpLangs), notInstalled);
    const parsed = CreateDocQuery.safeParse({ idpLangs });
    assert.equal(parsed.success, notInstalled === undefined);
    if (!parsed.success)
      assert.deepEqual(
        parsed.error.issues.map((i) => [i.path, i.message]),
        [[['idpLangs'], notInstalled]],
      );
  });
}

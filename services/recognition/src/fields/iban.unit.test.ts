import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findIbans, ibanChecksumValid } from './iban';

describe('ibanChecksumValid: ISO 13616 mod 97', () => {
  const valid = [
    'DE89 3704 0044 0532 0130 00',
    'GB82 WEST 1234 5698 7654 32',
    'FR14 2004 1010 0505 0001 3M02 606',
    'NL91 ABNA 0417 1643 00',
    'ES91 2100 0418 4502 0005 1332',
    'BE68 5390 0754 7034',
    'CH93 0076 2011 6238 5295 7',
    'AT61 1904 3002 3457 3201',
  ];
  for (const iban of valid) it(`${iban} is valid`, () => assert.equal(ibanChecksumValid(iban), true));
  const invalid: Array<[string, string]> = [
    ['DE89 3704 0044 0532 0130 01', 'one digit misread'],
    ['DE89 3704 0044 0532 0130', 'too short for DE'],
    ['XX89 3704 0044 0532 0130 00', 'no such country'],
  ];
  for (const [iban, why] of invalid)
    it(`${iban} is not (${why})`, () => assert.equal(ibanChecksumValid(iban), false));
});

describe('findIbans', () => {
  it('reads a grouped IBAN in a line, without spaces', () => {
    const text = 'IBAN: DE89 3704 0044 0532 0130 00 BIC: COBADEFFXXX';
    const [m] = findIbans(text);
    assert.equal(m!.value, 'DE89370400440532013000');
    assert.equal(m!.quality, 1);
    assert.equal(text.slice(m!.start, m!.end), 'DE89 3704 0044 0532 0130 00');
  });
  it('reads one written as one word, in lower case', () =>
    assert.equal(findIbans('nl91abna0417164300')[0]?.value, 'NL91ABNA0417164300'));
  it('a failed checksum is found at a low quality', () => {
    const [m] = findIbans('IBAN DE89 3704 0044 0532 0130 01');
    assert.equal(m!.value, 'DE89370400440532013001');
    assert.ok(m!.quality < 1);
  });
  it('a VAT id is no IBAN', () => assert.deepEqual(findIbans('USt-IdNr. DE123456789'), []));
});

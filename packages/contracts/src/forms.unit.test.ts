import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormDefinition, RecordedFormDefinition } from './forms';

const withField = (pattern: string) => ({
  name: 'inv',
  title: 'Invoice',
  formsystype: 2,
  tags: { invoiceNo: 'string' },
  recognition: {
    forms: [{ id: 'inv', name: 'Invoice', match: ['invoice'], fields: { invoiceNo: pattern } }],
  },
});

function refusal(pattern: string) {
  const result = FormDefinition.safeParse(withField(pattern));
  assert.equal(result.success, false, `${pattern} was accepted`);
  assert.equal(result.error.issues.length, 1);
  return result.error.issues[0]!;
}

describe('FormDefinition: field patterns run on the RE2 engine', () => {
  const refused: Array<[name: string, pattern: string, reason: RegExp]> = [
    ['a backreference', '(a)\\1', /invalid escape sequence: `\\1`/],
    ['a lookbehind', '(?<=x)y', /invalid named capture/],
    ['a lookahead', 'x(?=y)', /unsupported Perl syntax: `\(\?=`/],
    ['a possessive quantifier', 'a++', /invalid nested repetition operator/],
    ['a JavaScript escape RE2 writes otherwise', '\\u00e9', /invalid escape sequence: `\\u`/],
    ['a program too large to run in bounded time', '(.*a){1000}', /compiles to 5002 instructions/],
    ['an unclosed group', '(unclosed', /missing closing \)/],
  ];
  for (const [name, pattern, reason] of refused)
    it(`refuses ${name}, naming the field`, () => {
      const issue = refusal(pattern);
      assert.deepEqual(issue.path, ['recognition', 'forms', 0, 'fields', 'invoiceNo']);
      assert.match(issue.message, /^not supported by the RE2 engine: /);
      assert.match(issue.message, reason);
    });

  const accepted = [
    'Invoice\\s+(?:No|Number)\\.?:?\\s+(\\w[\\w-]*)',
    '(a+)+$',
    '(?<name>\\p{L}+)',
    '\\x{e9}t\\x{e9}',
    '(.*a){20}',
  ];
  for (const pattern of accepted)
    it(`accepts ${pattern}`, () => assert.equal(FormDefinition.safeParse(withField(pattern)).success, true));

  it('a recorded definition is read as it was stored, whatever the engine refuses now', () => {
    assert.equal(RecordedFormDefinition.safeParse(withField('(?<=x)y')).success, true);
  });
});

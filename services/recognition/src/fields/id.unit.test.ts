import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findIds } from './id';
import { findParty, hasLegalForm } from './party';
import { findText } from './text';

describe('findIds: the first token with a digit', () => {
  const cases: Array<[text: string, id: string | undefined]> = [
    [': INV-2026-001', 'INV-2026-001'],
    ['No. 4711', '4711'],
    ['#4711', '4711'],
    ['Nr. 2024/17 vom 03.08.2024', '2024/17'],
    ['N° FA-00123.', 'FA-00123'],
    ['993548900', '993548900'],
    ['nummer: R 123', '123'],
    ['none here', undefined],
  ];
  for (const [text, id] of cases) it(`${text} → ${id}`, () => assert.equal(findIds(text)[0]?.value, id));

  it('a whole date is an unsure id', () => assert.ok(findIds('03.08.2024')[0]!.quality < 0.5));
  it('a code in parentheses is an unsure id', () => assert.ok(findIds('(389) 31.10.2018')[0]!.quality < 1));
});

describe('findText and findParty', () => {
  it('text: the rest of the line without the separator', () =>
    assert.equal(findText(': Office chairs ')[0]?.value, 'Office chairs'));
  const parties: Array<[text: string, name: string | undefined]> = [
    ['ACME GmbH, Hauptstrasse 1, 10115 Berlin', 'ACME GmbH'],
    [': Dupont SARL', 'Dupont SARL'],
    ['Jansen B.V. Amsterdam', 'Jansen B.V.'],
    ['Widgets Ltd', 'Widgets Ltd'],
    ['Bäckerei Müller, Marktplatz 3', 'Bäckerei Müller'],
    [': 123', undefined],
    ['Name: Lieferant GmbH', 'Lieferant GmbH'],
    ['Nummer: 549910', undefined],
  ];
  for (const [text, name] of parties)
    it(`party: ${text} → ${name}`, () => assert.equal(findParty(text)[0]?.value, name));

  it('a legal form makes a party surer', () => {
    assert.equal(hasLegalForm('Construcciones García S.L.'), true);
    assert.equal(hasLegalForm('Total amount'), false);
    assert.ok(findParty('Widgets Ltd')[0]!.quality > findParty('Bäckerei Müller')[0]!.quality);
  });
});

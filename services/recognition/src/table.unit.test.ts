import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TableColumn } from '@docflow/contracts';
import { layoutFromText } from './layout-from-text';
import { textLines } from './layout-text';
import { findTable } from './table';

const COLUMNS: TableColumn[] = [
  {
    name: 'description',
    type: 'text',
    labels: ['Description', 'Beschreibung', 'Omschrijving', 'Désignation'],
  },
  { name: 'quantity', type: 'quantity', labels: ['Qty', 'Quantity', 'Menge', 'Aantal', 'Qté'] },
  { name: 'unitPrice', type: 'amount', labels: ['Unit price', 'Einzelpreis', 'Prix unitaire', 'Prijs'] },
  { name: 'amount', type: 'amount', labels: ['Amount', 'Betrag', 'Bedrag', 'Montant'] },
];
const STOPS = ['Subtotal', 'Total', 'Zwischensumme', 'Gesamtbetrag', 'Totaal'];

const table = (text: string) => findTable([textLines(layoutFromText(text, 0))], COLUMNS, STOPS);

describe('findTable: line items by column alignment', () => {
  it('columns laid out with spaces: cells by the header they stand under', () => {
    const t = table(
      [
        'INVOICE 42',
        'Description          Qty   Unit price     Amount',
        'Office chair           2       120.00     240.00',
        'Desk lamp              1        35.50      35.50',
        'Subtotal                                  275.50',
      ].join('\n'),
    );
    assert.deepEqual(t?.rows, [
      ['Office chair', '2', '120.00', '240.00'],
      ['Desk lamp', '1', '35.50', '35.50'],
    ]);
    assert.equal(t!.amountSum, 275.5);
    assert.equal(t!.candidate.label, 'Description Qty Unit price Amount');
  });

  it('German, amounts with a decimal comma, a description over two lines', () => {
    const t = table(
      [
        'Beschreibung            Menge   Einzelpreis      Betrag',
        'Beratung                    3      1.000,00    3.000,00',
        '  (März 2024)',
        'Reisekosten                 1        250,00      250,00',
        'Zwischensumme                                  3.250,00',
      ].join('\n'),
    );
    assert.deepEqual(t?.rows, [
      ['Beratung (März 2024)', '3', '1000.00', '3000.00'],
      ['Reisekosten', '1', '250.00', '250.00'],
    ]);
  });

  it('text joined with single spaces: the trailing numbers fill the number columns', () => {
    const t = table('Omschrijving Aantal Prijs Bedrag\nKoffie bonen 2 kg 2 12,50 25,00\nTotaal 25,00');
    assert.deepEqual(t?.rows, [['Koffie bonen 2 kg', '2', '12.50', '25.00']]);
  });

  it('no header with two column labels: no table', () => {
    assert.equal(table('Amount due 12.00\nThank you'), undefined);
  });
});

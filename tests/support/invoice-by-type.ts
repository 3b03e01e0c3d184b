/**
 * An invoice form whose recognition reads four values by type (number, subtotal, tax, total), and the
 * lines of such an invoice, shared by the tests of issue 34's thresholds and validation.
 */

/** The recognition section's `validation`, as the admin API takes it. */
export interface Validation {
  autoValidateAt?: number;
  validators: string[];
}

/** The form `name`, with `validation` in its recognition section if given. */
export const invoiceByTypeForm = (name: string, title: string, validation?: Validation) => ({
  name,
  title,
  formsystype: 9,
  tags: { invoiceNo: 'string', subtotal: 'string', tax: 'string', total: 'string' },
  recognition: {
    forms: [
      {
        id: 'inv',
        name: 'Invoice',
        match: ['invoice'],
        fields: {
          invoiceNo: { type: 'id', labels: ['Invoice No.'] },
          subtotal: { type: 'amount', labels: ['Subtotal'] },
          tax: { type: 'amount', labels: ['Tax'] },
          total: { type: 'amount', labels: ['Total'] },
        },
      },
    ],
    ...(validation === undefined ? {} : { validation }),
  },
});

/**
 * The lines of invoice INV-2026-007 with tax 19.00 and total 99.00: with the default subtotal the sum
 * disagrees, so recognition's cross-check lowers the three amounts' confidence; with 80.00 it adds up.
 */
export const invoiceLines = (subtotal = '100.00') => [
  { text: 'INVOICE', size: 28 },
  { text: 'Invoice No. INV-2026-007' },
  { text: `Subtotal: ${subtotal}` },
  { text: 'Tax: 19.00' },
  { text: 'Total: 99.00' },
];

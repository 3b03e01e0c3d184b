/**
 * The baseline of the accuracy benchmark: one generic invoice form as a careful new user writes it with
 * today's pattern fields (issue 34) — keywords and one regular expression per field, written once from
 * general knowledge of invoices in English, German, French and Dutch wording, with no look at the
 * development set. Kept as it is: it is the "before" the typed extractor is measured against.
 */
import type { FormDefinition } from '@docflow/contracts';

const NUMERIC_DATE = '(\\d{1,2}[./-]\\d{1,2}[./-]\\d{2,4}|\\d{4}-\\d{2}-\\d{2})';
const AMOUNT = '(\\d{1,3}(?:[.,\\s]?\\d{3})*[.,]\\d{2})';

export const PATTERN_INVOICE_FORM: FormDefinition = {
  name: 'invoice-patterns',
  title: 'Incoming invoice (pattern fields)',
  formsystype: 2,
  tags: {
    invoiceNo: 'string',
    invoiceDate: 'string',
    dueDate: 'string',
    total: 'string',
    currency: 'string',
    supplier: 'string',
    vatId: 'string',
    iban: 'string',
  },
  recognition: {
    forms: [
      {
        id: 'inv',
        name: 'Invoice',
        match: ['invoice', 'rechnung', 'facture', 'factuur', 'total', 'summe', 'totaal'],
        fields: {
          invoiceNo:
            '(?:invoice|rechnungs?|facture|factuur)\\s*(?:no\\.?|number|nr\\.?|nummer|n°|#|num[ée]ro)?\\s*[:.]?\\s*([A-Z0-9][\\w/.-]*\\d[\\w/.-]*)',
          invoiceDate: `(?:invoice date|rechnungsdatum|date de facture|factuurdatum|datum|date)\\s*[:.]?\\s*${NUMERIC_DATE}`,
          dueDate: `(?:due date|payment due|fällig(?:keitsdatum| am)?|zahlbar bis|date d'échéance|échéance|vervaldatum)\\s*[:.]?\\s*${NUMERIC_DATE}`,
          total: `(?:grand total|total amount|amount due|gesamtbetrag|rechnungsbetrag|endbetrag|bruttobetrag|total ttc|montant ttc|te betalen|totaal|summe|total)\\s*(?:eur|€)?\\s*[:.]?\\s*(?:eur|€|\\$|rm)?\\s*${AMOUNT}`,
          currency: '(\\bEUR\\b|\\bUSD\\b|\\bGBP\\b|\\bCHF\\b|€|£|\\$)',
          supplier:
            "([A-Z][\\w&.,' -]{1,60}?\\s(?:GmbH|AG|KG|SARL|SAS|SA|Ltd\\.?|Inc\\.?|LLC|B\\.V\\.|N\\.V\\.|BV|NV|Sdn\\.? Bhd\\.?))\\b",
          vatId:
            '\\b(DE ?\\d{9}|ATU\\d{8}|FR ?[0-9A-Z]{2} ?\\d{9}|NL ?\\d{9}B\\d{2}|GB ?\\d{9}|BE ?0?\\d{9})\\b',
          iban: 'IBAN\\s*[:.]?\\s*([A-Z]{2}\\d{2}(?:\\s?[A-Z0-9]{4}){2,7}(?:\\s?[A-Z0-9]{1,3})?)',
        },
      },
    ],
  },
};

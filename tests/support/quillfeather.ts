/**
 * A fictional supplier's invoice for the correction memory's tests (issue 34): Quillfeather prints its
 * invoice number under a label the prebuilt `invoice` form does not know (`Vorgang`) and its due date
 * under another (`Valuta`, written `17.08.2026`), in a row of header fields, so the generic extraction
 * reads neither until a validator's correction teaches where they stand.
 */
import { placedTextPdf } from '@docflow/recognition';

export const QUILLFEATHER = 'Quillfeather Instruments GmbH';

/** Quillfeather's invoice `no`, due on `due` (as printed, e.g. `17.08.2026`): a one-page text PDF. */
export const quillfeatherInvoice = (no: string, due: string) =>
  placedTextPdf([
    [
      { text: QUILLFEATHER, x: 72, y: 60, size: 16 },
      { text: 'Federweg 7, 28195 Bremen', x: 72, y: 78 },
      { text: 'RECHNUNG', x: 72, y: 130, size: 20 },
      { text: 'Datum', x: 72, y: 170 },
      { text: '03.08.2026', x: 72, y: 184 },
      { text: 'Kundennummer', x: 230, y: 170 },
      { text: '4711', x: 230, y: 184 },
      { text: 'Vorgang', x: 380, y: 170 },
      { text: no, x: 380, y: 184 },
      { text: 'Valuta', x: 470, y: 170 },
      { text: due, x: 470, y: 184 },
      { text: 'Feder, Messing, 12 Stk.', x: 72, y: 240 },
      { text: '1.234,50', x: 450, y: 240 },
      { text: 'Gesamtbetrag', x: 72, y: 300 },
      { text: '1.234,50 EUR', x: 450, y: 300 },
    ],
  ]);

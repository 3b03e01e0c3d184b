/**
 * Step 6 of a create (pure): the command and its decision on the new document, held to the store's
 * append bound (413) before any file is claimed for it.
 */
import type { DocumentEvent } from '@docflow/contracts';
import { requireAppendable } from '../append-bound';
import { type CreateDocument, decideCreate } from '../businessLogic';
import { initialDoc } from '../docForm';

/** @example decideNewDocument(command); // throws what the create refuses: 400, 409, 413 */
export function decideNewDocument(command: CreateDocument): DocumentEvent[] {
  const events = decideCreate(command, initialDoc);
  requireAppendable(events);
  return events;
}

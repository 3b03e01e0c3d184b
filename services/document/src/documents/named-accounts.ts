/** The accounts a document names, for `embed=names`: its author, and each task's assignee and answerers. */
import type { DocState } from './docForm';

export function namedAccounts(doc: DocState): string[] {
  const tasks = Object.values(doc.workflow.tasks);
  return [
    ...new Set([
      doc.author,
      ...tasks.flatMap((t) => [t.assignee, t.answeredBy, t.onBehalfOf].filter((id): id is string => !!id)),
    ]),
  ];
}

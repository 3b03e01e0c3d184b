/**
 * The accounts a document names, for `embed=names`: its author, each task's assignee and answerers,
 * the people its tasks were handed to, and who commented.
 */
import type { DocState } from './docForm';

export function namedAccounts(doc: DocState): string[] {
  const tasks = Object.values(doc.workflow.tasks);
  return [
    ...new Set([
      doc.author,
      ...tasks.flatMap((t) =>
        [t.assignee, t.answeredBy, t.onBehalfOf, t.reassignedTo].filter((id): id is string => !!id),
      ),
      ...doc.comments.map((c) => c.author),
    ]),
  ];
}

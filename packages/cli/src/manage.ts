/**
 * `docflow manage <document> <move>`: a move of a document's workflow (POST docResponse): start a
 * phase, suspend, resume, cancel, restart, file it, block or delete it. A move is named in words
 * (`start-approval`) or by its taskstatus (100).
 */
import { MANAGEMENT_TASK_STATUS } from '@docflow/contracts/codes';
import { Argument, Command, InvalidArgumentError } from 'commander';
import { DOCUMENT_FIELDS } from './columns';
import { show } from './output';
import { clientOf } from './server';

type Move = (typeof MANAGEMENT_TASK_STATUS)[keyof typeof MANAGEMENT_TASK_STATUS];

/** `startApproval` → `start-approval`. */
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const MOVES = new Map<string, Move>(
  Object.entries(MANAGEMENT_TASK_STATUS).flatMap(([name, code]) => [
    [kebab(name), code],
    [String(code), code],
  ]),
);
const MOVE_LIST = Object.entries(MANAGEMENT_TASK_STATUS)
  .map(([name, code]) => `${kebab(name)} (${code})`)
  .join(', ');

function moveOf(text: string): Move {
  const move = MOVES.get(text);
  if (move === undefined) throw new InvalidArgumentError(`one of ${MOVE_LIST}`);
  return move;
}

export function manageCommand(): Command {
  return new Command('manage')
    .description(
      'move a document\u2019s workflow (initiator, or svcAdminDocRW; delete: svcAdminDocRWD); the document as it is then',
    )
    .argument('<document>', 'document id')
    .addArgument(new Argument('<move>', MOVE_LIST).argParser(moveOf))
    .option('--comment <text>', 'a comment recorded with the move')
    .action(async (id: string, taskstatus: Move, options: { comment?: string }, command: Command) => {
      const { data } = await clientOf(command).api.POST('/api/v2/docForm/{id}/docResponse', {
        params: { path: { id } },
        body: { docResponse: { taskstatus, ...(options.comment ? { content: options.comment } : {}) } },
      });
      show(command, data, { fields: DOCUMENT_FIELDS });
    });
}

/**
 * `docflow approve|decline|sign|done <document>`: answers the caller's open task on a document (PUT
 * docResponse/{respId}, the task found with `embed=docResponse`), with a comment and, for approve and
 * sign, corrected field values (approve then answers 3, approved with edits).
 */

import type { components } from '@docflow/client';
import { RESPONSE_TASK_STATUS } from '@docflow/contracts/codes';
import { Command } from 'commander';
import { DOCUMENT_FIELDS } from './columns';
import { CliError, EXIT } from './exit-codes';
import { show } from './output';
import { csv } from './parse';
import { clientOf } from './server';
import { valuesOf } from './values';

type AnswerRequest = components['schemas']['AnswerRequest'];

const ANSWERS = [
  { name: 'approve', taskstatus: RESPONSE_TASK_STATUS.approve, edits: true, what: 'approve' },
  { name: 'decline', taskstatus: RESPONSE_TASK_STATUS.decline, edits: false, what: 'decline' },
  { name: 'sign', taskstatus: RESPONSE_TASK_STATUS.sign, edits: true, what: 'sign' },
  { name: 'done', taskstatus: RESPONSE_TASK_STATUS.executionDone, edits: false, what: 'report as executed' },
] as const;

export function taskCommands(): Command[] {
  return ANSWERS.map(({ name, taskstatus, edits, what }) => {
    const command = new Command(name)
      .description(
        `${what} a document: answer your open task on it (taskstatus ${taskstatus}); the document as it is then`,
      )
      .argument('<document>', 'document id')
      .option('--comment <text>', 'the comment recorded with the answer', '');
    if (edits)
      command
        .option('--values <json|@file>', 'corrected field values by tag, as JSON or @file.json')
        .option('--tags <tags>', 'the corrected comma-separated document tags', csv);
    return command.action(async (id: string, options, cmd: Command) => {
      const { api } = clientOf(cmd);
      const { data: doc } = await api.GET('/api/v2/docForm/{id}', {
        params: { path: { id }, query: { embed: 'docResponse' } },
      });
      const task = (doc as { docResponse?: { respId?: string } | null } | undefined)?.docResponse;
      if (!task?.respId) throw new CliError(EXIT.refused, `you have no open task on document ${id}`);
      const corrected = {
        ...(options.values ? { valuesByTags: valuesOf(options.values) } : {}),
        ...(options.tags ? { _tags: options.tags } : {}),
      };
      const withEdits = Object.keys(corrected).length > 0;
      const body: AnswerRequest = {
        docResponse: {
          taskstatus:
            withEdits && taskstatus === RESPONSE_TASK_STATUS.approve
              ? RESPONSE_TASK_STATUS.approveWithEdits
              : taskstatus,
          content: options.comment,
        },
        ...(withEdits ? { docForm: corrected } : {}),
      };
      const { data } = await api.PUT('/api/v2/docForm/{id}/docResponse/{respId}', {
        params: { path: { id, respId: task.respId } },
        body,
      });
      show(cmd, data, { fields: DOCUMENT_FIELDS });
    });
  });
}

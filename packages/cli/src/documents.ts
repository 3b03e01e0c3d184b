/** `docflow documents …`: create a document with files, read it, its history, export it as a bundle. */
import { createReadStream, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { UploadFile } from '@docflow/client';
import { Command } from 'commander';
import { DOCUMENT_FIELDS } from './columns';
import { CliError, EXIT } from './exit-codes';
import { exportBundle } from './export-bundle';
import { show } from './output';
import { csv, integer } from './parse';
import { clientOf, print } from './server';
import { fromStartDir } from './start-dir';
import { valuesOf } from './values';

/** Content types by file extension (those recognition reads, and text); any other file goes as application/octet-stream. */
const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.txt': 'text/plain',
};

/** A file to upload, streamed from disk when the request body is sent. */
function uploadOf(path: string): UploadFile {
  const full = fromStartDir(path);
  if (!statSync(full, { throwIfNoEntry: false })?.isFile())
    throw new CliError(EXIT.usage, `no such file ${full}`);
  const type = TYPES[extname(full).toLowerCase()];
  return { name: basename(full), content: createReadStream(full), ...(type ? { type } : {}) };
}

export function documentsCommand(): Command {
  const documents = new Command('documents').description('documents');

  documents
    .command('create')
    .description('create a document from a form, with files (streamed, never read whole)')
    .argument('<form>', 'form name')
    .option('--values <json|@file>', 'field values by tag, as JSON or @file.json', '{}')
    .option('--tags <tags>', 'comma-separated document tags', csv)
    .option('--file <paths...>', 'attachments')
    .option('--start', 'start the workflow right away (taskstatus 100); when it cannot start, why on stderr')
    .option('--idempotency-key <key>', 'a retry with the same key and body creates nothing twice')
    .action(async (form: string, options, command: Command) => {
      const valuesByTags = valuesOf(options.values);
      const files = ((options.file as string[] | undefined) ?? []).map(uploadOf);
      const client = clientOf(command);
      let notApplied = '';
      client.api.use({
        onResponse({ response }) {
          notApplied = response.headers.get('x-error') ?? '';
          return undefined;
        },
      });
      const created = await client.createDocument(form, {
        docForm: { valuesByTags, _tags: options.tags ?? [] },
        ...(options.start ? { docResponse: { taskstatus: 100 } } : {}),
        files,
        ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      });
      print(created);
      // Created all the same (exit 0: a retry would create it twice); X-Error says why --start was not.
      if (notApplied)
        process.stderr.write(`docflow: created, but the workflow was not started: ${notApplied}\n`);
    });

  documents
    .command('get')
    .description('show a document')
    .argument('<id>', 'document id')
    .option('--rev <n>', 'the document as it was at this revision', integer(1, 2147483646))
    .action(async (id: string, options: { rev?: number }, command: Command) => {
      const { data } = await clientOf(command).api.GET('/api/v2/docForm/{id}', {
        params: { path: { id }, query: options.rev ? { rev: options.rev } : {} },
      });
      show(command, data, { fields: DOCUMENT_FIELDS });
    });

  documents
    .command('history')
    .description('the revisions of a document: who, on whose behalf, when, what changed, hashes')
    .argument('<id>', 'document id')
    .action(async (id: string, _options, command: Command) => {
      const { data } = await clientOf(command).api.GET('/api/v2/docForm/{id}/history', {
        params: { path: { id } },
      });
      print(data);
    });

  documents
    .command('export')
    .description('save a document as a tar bundle (manifest and attachments), showing progress on stderr')
    .argument('<id>', 'document id')
    .requiredOption('--out <file>', 'where to write the bundle')
    .action(async (id: string, options: { out: string }, command: Command) => {
      print(await exportBundle(clientOf(command), id, fromStartDir(options.out)));
    });

  return documents;
}

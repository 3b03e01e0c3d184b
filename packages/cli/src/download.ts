/**
 * `docflow download <document> <file>`: saves an attachment, named by its id or its file name, to a
 * file (default: its own name in the directory the command was started in), with progress on a terminal.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { components } from '@docflow/client';
import { Command } from 'commander';
import { CliError, EXIT } from './exit-codes';
import { saveStream } from './save-stream';
import { clientOf, print } from './server';
import { fromStartDir } from './start-dir';

type FileEntry = components['schemas']['FileEntry'];

export function downloadCommand(): Command {
  return new Command('download')
    .description('save an attachment of a document to a file (progress on stderr when it is a terminal)')
    .argument('<document>', 'document id')
    .argument('<file>', "the attachment's id or file name")
    .option('--out <path>', "where to write it (default: the attachment's name, here)")
    .option('--force', 'replace a file that exists already')
    .action(
      async (id: string, file: string, options: { out?: string; force?: boolean }, command: Command) => {
        const { api } = clientOf(command);
        const { data: doc } = await api.GET('/api/v2/docForm/{id}', {
          params: { path: { id } },
        });
        // Without `fields` the answer is the whole document, with its every attachment.
        const files = (doc as { filesList?: FileEntry[] } | undefined)?.filesList ?? [];
        const attachment = files.find((f) => f.id === file) ?? files.find((f) => f.fileName === file);
        if (!attachment)
          throw new CliError(
            EXIT.notFound,
            `document ${id} has no attachment ${file} (it has: ${files.map((f) => f.fileName).join(', ') || 'none'})`,
          );
        // The name is the uploader's: only its last part is used, so it never leaves this directory.
        const out = fromStartDir(options.out ?? basename(attachment.fileName));
        if (existsSync(out) && !options.force)
          throw new CliError(EXIT.usage, `${out} exists already (--force replaces it)`);
        const { response } = await api.GET('/api/v2/docForm/{id}/file/{fileId}', {
          params: { path: { id, fileId: attachment.id } },
          parseAs: 'stream',
        });
        const bytes = await saveStream(response, out, 'download');
        print({ id, file: attachment.id, fileName: attachment.fileName, out, bytes });
      },
    );
}

/** `docflow forms …`: a form definition from the server to a file, and back. */
import { writeFileSync } from 'node:fs';
import type { components } from '@docflow/client';
import { Command } from 'commander';
import { FORM_COLUMNS } from './columns';
import { show } from './output';
import { clientOf, jsonArgument, print } from './server';
import { fromStartDir } from './start-dir';

type StoredForm = components['schemas']['FormDefinition'] & { _meta?: unknown };

export function formsCommand(): Command {
  const forms = new Command('forms').description('forms: list them; read and define them (svcAdminSysRW)');

  forms
    .command('list')
    .description(
      'the forms you may create documents of: name, title, fields (every form); with --definitions, ' +
        'each whole definition (svcAdminSysRW)',
    )
    .option('--definitions', 'whole definitions, workflow and recognition included (svcAdminSysRW)')
    .action(async (options: { definitions?: boolean }, command: Command) => {
      const { api } = clientOf(command);
      const { data } = options.definitions
        ? await api.GET('/api/admin/v1/forms')
        : await api.GET('/api/v2/forms');
      show(command, data, { columns: FORM_COLUMNS });
    });

  forms
    .command('get')
    .description('show a form definition, or save it to a file (svcAdminSysRW)')
    .argument('<name>', 'form name')
    .option('--out <file>', 'write the JSON to this file instead of stdout')
    .action(async (name: string, options: { out?: string }, command: Command) => {
      const { data } = await clientOf(command).api.GET('/api/admin/v1/forms/{formName}', {
        params: { path: { formName: name } },
      });
      if (!options.out) {
        show(command, data);
        return;
      }
      writeFileSync(fromStartDir(options.out), `${JSON.stringify(data, null, 2)}\n`);
    });

  forms
    .command('put')
    .description('create or replace a form from a JSON file (one saved by `forms get` puts back as it is)')
    .argument('<name>', 'form name')
    .argument('<file>', 'the form definition (JSON)')
    .action(async (name: string, file: string, _options, command: Command) => {
      // `_meta` is the server's bookkeeping of a saved form, not part of the definition.
      const { _meta, ...definition } = jsonArgument(file, `@${file}`) as StoredForm;
      const { data } = await clientOf(command).api.PUT('/api/admin/v1/forms/{formName}', {
        params: { path: { formName: name } },
        body: definition,
      });
      print(data);
    });

  return forms;
}

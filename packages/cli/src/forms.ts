/** `docflow forms …`: a form definition from the server to a file, and back. */
import { writeFileSync } from 'node:fs';
import type { components } from '@docflow/client';
import { Command } from 'commander';
import { clientOf, jsonArgument, print } from './server';
import { fromStartDir } from './start-dir';

export function formsCommand(): Command {
  const forms = new Command('forms').description('form definitions (svcAdminSysRW)');

  forms
    .command('get')
    .description('show a form definition, or save it to a file')
    .argument('<name>', 'form name')
    .option('--out <file>', 'write the JSON to this file instead of stdout')
    .action(async (name: string, options: { out?: string }, command: Command) => {
      const { data } = await clientOf(command).api.GET('/api/admin/v1/forms/{formName}', {
        params: { path: { formName: name } },
      });
      if (!options.out) return print(data);
      writeFileSync(fromStartDir(options.out), `${JSON.stringify(data, null, 2)}\n`);
    });

  forms
    .command('put')
    .description('create or replace a form from a JSON file')
    .argument('<name>', 'form name')
    .argument('<file>', 'the form definition (JSON)')
    .action(async (name: string, file: string, _options, command: Command) => {
      const { data } = await clientOf(command).api.PUT('/api/admin/v1/forms/{formName}', {
        params: { path: { formName: name } },
        body: jsonArgument(file, `@${file}`) as components['schemas']['FormDefinition'],
      });
      print(data);
    });

  return forms;
}

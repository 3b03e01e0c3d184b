/** `docflow accounts …`: read, create, activate or deactivate accounts and set their roles. */
import type { components } from '@docflow/client';
import { Command, Option } from 'commander';
import { ACCOUNT_COLUMNS } from './columns';
import { show } from './output';
import { collectPages } from './pages';
import { csv, integer } from './parse';
import { accountIdOf } from './people';
import { clientOf, print } from './server';

export function accountsCommand(): Command {
  const accounts = new Command('accounts').description(
    'accounts of people and service accounts (svcAdminSysRW)',
  );

  accounts
    .command('list')
    .description('list accounts, oldest first: {total, first, items} (total: svc-total-count)')
    .addOption(
      new Option('--kind <kind>', 'only persons or only service accounts').choices(['person', 'service']),
    )
    .addOption(
      new Option('--active <bool>', 'only active or only deactivated accounts').choices(['true', 'false']),
    )
    .option('--name <prefix>', 'only people a word of whose name starts so (newest first)')
    .option('--first <n>', 'skip this many accounts', integer(0, 2147483646), 0)
    .option('--page-size <n>', 'accounts per request', integer(1, 100), 10)
    .option('--all', 'every page from --first on, not one')
    .action(async (options, command: Command) => {
      const { api } = clientOf(command);
      const filters = {
        pageSize: options.pageSize,
        ...(options.kind ? { kind: options.kind } : {}),
        ...(options.active ? { active: options.active } : {}),
        ...(options.name ? { name: options.name } : {}),
      };
      const listed = await collectPages(options.first, options.all === true, async (first) => {
        const { data, response } = await api.GET('/api/admin/v1/accounts', {
          params: { query: { ...filters, first } },
        });
        return { items: data ?? [], total: Number(response.headers.get('svc-total-count') ?? 0) };
      });
      show(command, listed, { columns: ACCOUNT_COLUMNS });
    });

  accounts
    .command('get')
    .description('show an account')
    .argument('<account>', 'usr- id or e-mail')
    .action(async (ref: string, _options, command: Command) => {
      const client = clientOf(command);
      const { data } = await client.api.GET('/api/admin/v1/accounts/{id}', {
        params: { path: { id: await accountIdOf(client, ref) } },
      });
      show(command, data);
    });

  accounts
    .command('create')
    .description("create an account; a service account's API key is printed in the answer, this once only")
    .addOption(
      new Option('--kind <kind>', 'person or service').choices(['person', 'service']).makeOptionMandatory(),
    )
    .requiredOption('--email <email>', 'e-mail address')
    .requiredOption('--first <name>', 'first name')
    .requiredOption('--last <name>', 'last name')
    .option('--roles <roles>', 'comma-separated roles, e.g. svcAdminDocsRW,svcAuditR', csv, [])
    .option('--inactive', 'create it deactivated')
    .action(async (options, command: Command) => {
      const { data } = await clientOf(command).api.POST('/api/admin/v1/accounts', {
        body: {
          kind: options.kind,
          email: options.email,
          name_first: options.first,
          name_last: options.last,
          roles: options.roles,
          active: !options.inactive,
        },
      });
      print(data);
    });

  for (const [name, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const)
    accounts
      .command(name)
      .description(`${name} an account (its API key and sign-in ${active ? 'work again' : 'stop working'})`)
      .argument('<account>', 'usr- id or e-mail')
      .action(async (ref: string, _options, command: Command) => {
        const client = clientOf(command);
        const { data } = await client.api.PATCH('/api/admin/v1/accounts/{id}', {
          params: { path: { id: await accountIdOf(client, ref) } },
          body: { active },
        });
        print(data);
      });

  accounts
    .command('roles')
    .description("replace an account's roles")
    .argument('<account>', 'usr- id or e-mail')
    .argument('[roles...]', 'the roles it is to have (none: no role at all)')
    .action(async (ref: string, roles: string[], _options, command: Command) => {
      const client = clientOf(command);
      const { data } = await client.api.PATCH('/api/admin/v1/accounts/{id}', {
        params: { path: { id: await accountIdOf(client, ref) } },
        body: { roles: roles as components['schemas']['AccountPatch']['roles'] },
      });
      print(data);
    });

  return accounts;
}

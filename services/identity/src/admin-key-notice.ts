/** The one secret docflow ever prints: a generated admin key, on the console, never in the log stream. */
export function printGeneratedAdminKey(key: string): void {
  process.stdout.write(
    [
      '',
      '================================================================',
      ' docflow: first start without DOCFLOW_ADMIN_KEY.',
      ' The bootstrap service account "admin" (every role) has this key.',
      ' It is shown only now; only its hash is kept:',
      '',
      `   ${key}`,
      '',
      ' Use it as:  Authorization: Bearer <key>',
      '================================================================',
      '',
    ].join('\n'),
  );
}

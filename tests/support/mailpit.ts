/**
 * The real SMTP catcher infra/local starts (Mailpit: MAILPIT_SMTP for the services, MAILPIT_API to
 * read what arrived). Each suite uses addresses of its own, so runs can share one Mailpit.
 */
import assert from 'node:assert/strict';

export interface CaughtMail {
  ID: string;
  MessageID: string;
  Subject: string;
  To: { Name: string; Address: string }[];
}

/** Why the e-mail suites cannot run, or undefined when they can (or must, and then fail loudly). */
export function mailpitSkipReason(): string | undefined {
  if ((process.env.MAILPIT_SMTP && process.env.MAILPIT_API) || process.env.DOCFLOW_ENGINES_REQUIRED === '1')
    return undefined;
  return 'no MAILPIT_SMTP / MAILPIT_API: run `bash infra/local/up.sh mailpit` and load .infra/env (or `pnpm test`, which does) to run the e-mail suite';
}

export interface Mailpit {
  smtpUrl: string;
  messagesTo(address: string): Promise<CaughtMail[]>;
  /** The plain-text body of message `id` (CaughtMail.ID). */
  textOf(id: string): Promise<string>;
}

export function mailpit(): Mailpit {
  const smtpUrl = process.env.MAILPIT_SMTP;
  const apiUrl = process.env.MAILPIT_API;
  assert.ok(
    smtpUrl && apiUrl,
    'MAILPIT_SMTP and MAILPIT_API are set (infra/local/up.sh writes them to .infra/env)',
  );
  return {
    smtpUrl,
    async messagesTo(address) {
      const query = encodeURIComponent(`to:"${address}"`);
      const res = await fetch(`${apiUrl}/api/v1/search?query=${query}&limit=200`);
      assert.equal(res.status, 200, await res.clone().text());
      const { messages } = (await res.json()) as { messages: CaughtMail[] };
      // The search matches words: keep the exact address only.
      return messages.filter((m) => m.To.some((t) => t.Address.toLowerCase() === address.toLowerCase()));
    },
    async textOf(id) {
      const res = await fetch(`${apiUrl}/api/v1/message/${encodeURIComponent(id)}`);
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { Text: string }).Text;
    },
  };
}

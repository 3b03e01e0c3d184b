/** The commands that talk to a docflow server: its address and key from flags or the environment. */
import { readFileSync } from 'node:fs';
import { createDocflowClient, type DocflowClient } from '@docflow/client';
import { type Command, Option } from 'commander';
import { CliError, EXIT } from './exit-codes';
import { fromStartDir } from './start-dir';

interface ServerOptions {
  url?: string;
  key?: string;
  runAs?: string;
}

/** The options every server command reads (declared once, on the program). */
export function addServerOptions(program: Command): Command {
  return program
    .addOption(new Option('--url <url>', 'base URL of the docflow API').env('DOCFLOW_URL'))
    .addOption(new Option('--key <key>', 'API key of a service account').env('DOCFLOW_KEY'))
    .addOption(
      new Option('--run-as <user>', 'act on behalf of this user (usr- id or e-mail)').env('DOCFLOW_RUN_AS'),
    );
}

/** The client for the server the command's options name. */
export function clientOf(command: Command): DocflowClient {
  const { url, key, runAs } = command.optsWithGlobals<ServerOptions>();
  if (!url) throw new CliError(EXIT.usage, 'no server: give --url or DOCFLOW_URL');
  if (!key) throw new CliError(EXIT.usage, 'no API key: give --key or DOCFLOW_KEY');
  return createDocflowClient({ baseUrl: baseUrlOf(url), apiKey: key, ...(runAs ? { runAs } : {}) });
}

/**
 * The server's base URL, without trailing slashes: an http:// or https:// URL, else a usage error. A
 * scheme is not guessed (`127.0.0.1:8080` is not taken for http://): the key goes where the user said.
 */
function baseUrlOf(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:')
    throw new CliError(
      EXIT.usage,
      `--url (DOCFLOW_URL) must be an http:// or https:// URL, e.g. http://127.0.0.1:8080; got ${JSON.stringify(url)}`,
    );
  return url.replace(/\/+$/, '');
}

/** Writes an answer to stdout as JSON. */
export function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** JSON given inline or, as `@path`, from a file. */
export function jsonArgument(what: string, text: string): unknown {
  const source = text.startsWith('@') ? readText(text.slice(1)) : text;
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new CliError(EXIT.usage, `${what} is not JSON: ${(error as Error).message}`);
  }
}

/** A file named on the command line, as text. */
export function readText(path: string): string {
  try {
    return readFileSync(fromStartDir(path), 'utf8');
  } catch (error) {
    throw new CliError(EXIT.usage, `cannot read ${fromStartDir(path)}: ${(error as Error).message}`);
  }
}

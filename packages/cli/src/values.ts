/** Field values given on the command line: a JSON object of tags and values, inline or @file. */
import type { components } from '@docflow/client';
import { CliError, EXIT } from './exit-codes';
import { jsonArgument } from './server';

export function valuesOf(text: string): components['schemas']['ValuesByTags'] {
  const values = jsonArgument('--values', text);
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    throw new CliError(EXIT.usage, '--values must be a JSON object of field tags and values');
  return values as components['schemas']['ValuesByTags'];
}

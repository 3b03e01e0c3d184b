/** Request parsing for services' internal routes: the same zod schemas, the same problem answers. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { problems, validationProblem } from './problem';

const JSON_TYPE = /^application\/([a-z.+-]+\+)?json(\s*;.*)?$/i;

/** Body as JSON validated by `schema`: 415 when not JSON, 400 when malformed or invalid. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  if (!JSON_TYPE.test(c.req.header('content-type') ?? ''))
    throw problems.unsupportedMediaType('the body must be application/json');
  const text = decodeUtf8(await c.req.arrayBuffer());
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw problems.badRequest('the body is not valid JSON');
  }
  return parseWith('body', schema, body);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text, or 400: a lenient decoder would turn invalid UTF-8 into U+FFFD without a word. */
export function decodeUtf8(bytes: ArrayBuffer | Uint8Array, what = 'the body'): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw problems.badRequest(`${what} is not valid UTF-8`);
  }
}

export function parseWith<S extends z.ZodType>(where: string, schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationProblem(where, parsed.error);
  return parsed.data;
}

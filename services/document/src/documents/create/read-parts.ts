/** Step 3 of a create (pure): the JSON parts validated, `docForm` and the optional `docResponse`. */
import { CreateDocResponse, DocFormCreate } from '@docflow/contracts';
import { parseWith, problems } from '@docflow/kit/http';
import type { z } from 'zod';
import type { ParsedCreate } from '../multipart';

export interface CreateParts {
  docForm: z.infer<typeof DocFormCreate>;
  /** The workflow action asked with the create, if any. */
  action: z.infer<typeof CreateDocResponse> | undefined;
}

/** A JSON part of the multipart body, validated; an absent part stands for `fallback`. */
function parseJsonPart<S extends z.ZodType>(
  name: string,
  text: string | undefined,
  schema: S,
  fallback: unknown,
): z.infer<S> {
  let value: unknown = fallback;
  if (text !== undefined) {
    try {
      value = JSON.parse(text);
    } catch {
      throw problems.badRequest(`the ${name} part is not valid JSON`);
    }
  }
  return parseWith(name, schema, value);
}

/** @example const { docForm, action } = readParts(parts); // 400 on a part that is not valid */
export function readParts(parts: Pick<ParsedCreate<unknown>, 'docForm' | 'docResponse'>): CreateParts {
  const docForm = parseJsonPart('docForm', parts.docForm, DocFormCreate, {});
  const action =
    parts.docResponse === undefined
      ? undefined
      : parseJsonPart('docResponse', parts.docResponse, CreateDocResponse, {});
  return { docForm, action };
}

/** Downloads a document's export bundle to a file (progress on a terminal, no partial file left). */
import type { DocflowClient } from '@docflow/client';
import { saveStream } from './save-stream';

export async function exportBundle(
  client: DocflowClient,
  id: string,
  out: string,
): Promise<{ id: string; out: string; bytes: number }> {
  const { response } = await client.api.GET('/api/v2/docForm/{id}/export', {
    params: { path: { id } },
    parseAs: 'stream',
  });
  return { id, out, bytes: await saveStream(response, out, 'export') };
}

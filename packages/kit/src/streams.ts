import type { Readable } from 'node:stream';

/**
 * A web stream over a Node stream that reads only as fast as it is read: pull-based with no queue,
 * so a slow consumer holds the producer back (Node 20's Readable.toWeb can run ahead of a slow one).
 */
export function toWebStream(source: Readable): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value as Uint8Array);
      },
      cancel(reason) {
        source.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

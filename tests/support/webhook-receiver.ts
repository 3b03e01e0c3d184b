/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that verifies every delivery's
 * Standard Webhooks signature, records it, and can answer 500 or hold a request open on demand.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  webhookId: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, any> };
  /** Whether `Webhook.verify` accepted the signature. */
  verified: boolean;
  /** What the receiver answered: 204, 500, or 0 for a request it held open. */
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  /** Every request, in arrival order, repeats included. */
  received: ReceivedDelivery[];
  /** The secret to verify with (set once the webhook is registered). */
  secret: string;
  /** Answer the next `n` requests with 500. */
  failNext(n: number): void;
  /** Hold the next request open without answering; resolves with it once it arrived. */
  holdNext(): Promise<ReceivedDelivery>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  let failures = 0;
  let hold: ((d: ReceivedDelivery) => void) | undefined;
  const held: ServerResponse[] = [];
  const receiver = {
    url: '',
    received,
    secret: '',
    failNext(n: number) {
      failures = n;
    },
    holdNext() {
      return new Promise<ReceivedDelivery>((resolve) => {
        hold = resolve;
      });
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let verified = false;
    try {
      new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
      verified = true;
    } catch {
      verified = false;
    }
    const delivery: ReceivedDelivery = {
      webhookId: String(req.headers['webhook-id']),
      body,
      payload: JSON.parse(body),
      verified,
      answered: 204,
    };
    received.push(delivery);
    if (hold) {
      const resolve = hold;
      hold = undefined;
      delivery.answered = 0;
      held.push(res);
      resolve(delivery);
      return;
    }
    if (failures > 0) {
      failures--;
      delivery.answered = 500;
      res.writeHead(500).end('not now');
      return;
    }
    res.writeHead(204).end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(400).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/docflow`;
  return receiver;
}

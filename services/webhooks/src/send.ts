/**
 * One delivery attempt: a POST of the payload, signed as Standard Webhooks says, to an address the
 * target guard allows (checked on the very addresses the connection uses, so a name cannot resolve
 * to an allowed address for the check and a private one for the request). Redirects are not followed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { withTimeout } from '@docflow/timing';
import { Webhook } from 'standardwebhooks';
import type { AttemptResult } from './delivery';
import { type AllowList, bareHost, RefusedTarget, refusedLiteral, refusedRange } from './target-guard';

export interface SendOptions {
  allow: AllowList;
  timeoutMs: number;
}

export interface SignedMessage {
  url: string;
  secret: string;
  webhookId: string;
  payload: string;
}

/** The Standard Webhooks headers for `payload`, signed now. */
export function signatureHeaders(secret: string, webhookId: string, payload: string, now = new Date()) {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, now, payload),
  };
}

/** dns.lookup that fails for any address the allow-list does not allow. */
function guardedLookup(allow: AllowList): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, verbatim: true }, (error, address, family) => {
      if (error) return callback(error, address as string, family);
      const addresses: LookupAddress[] = Array.isArray(address)
        ? address
        : [{ address: address as string, family: family ?? 4 }];
      for (const a of addresses) {
        const range = refusedRange(a.address, allow);
        if (range) return callback(new RefusedTarget(hostname, range), '', 4);
      }
      callback(null, address as string, family);
    });
  };
}

export function sendSigned(message: SignedMessage, options: SendOptions): Promise<AttemptResult> {
  const url = new URL(message.url);
  const host = bareHost(url);
  const literal = refusedLiteral(url, options.allow);
  if (literal) return Promise.resolve({ error: new RefusedTarget(host, literal).message });
  const body = Buffer.from(message.payload);
  const request = url.protocol === 'https:' ? https.request : http.request;
  let req: http.ClientRequest | undefined;
  const attempt = new Promise<AttemptResult>((resolve) => {
    req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': 'docflow-webhooks',
          ...signatureHeaders(message.secret, message.webhookId, message.payload),
        },
        // An allowed name skips the address check, as at registration.
        ...(options.allow.hosts.has(host) ? {} : { lookup: guardedLookup(options.allow) }),
        agent: false,
      },
      (res) => {
        // The status is the answer; the body is not read.
        resolve({ status: res.statusCode });
        res.destroy();
      },
    );
    req.on('error', (error) => resolve({ error: error.message.slice(0, 500) }));
    req.end(body);
  });
  return withTimeout(attempt, options.timeoutMs, 'the webhook attempt', () => req?.destroy()).catch(
    (error: Error) => ({ error: error.message }),
  );
}

/**
 * Failed sign-ins are braked per client address and per e-mail (429 with Retry-After). The brake is
 * the gateway's in both modes; requests come from several loopback addresses (127.0.0.x) so the two
 * counts can be told apart.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const PASSWORD = 'Brake-Test-Password-4d1e';
const PER_MINUTE = 3;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/** A sign-in sent from the loopback address `from`. */
function signInFrom(baseUrl: string, from: string, email: string, password: string): Promise<Answer> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/api/auth/v1/login`,
      {
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'] as string,
            body: text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const [embedded] = targets({ env: { DOCFLOW_AUTH_FAILURES_PER_MINUTE: String(PER_MINUTE) } });

describe('failed sign-ins are braked [embedded]', { timeout: 120_000 }, () => {
  let target: Target;

  before(async () => {
    target = await embedded!.start();
    const api = apiClient(target.baseUrl);
    const res = await api('POST', '/api/admin/v1/accounts', {
      key: target.adminKey,
      body: { kind: 'person', email: 'braked@example.com', name_first: 'Bra', name_last: 'Ked' },
    });
    assert.equal(res.status, 201, res.text);
    const pwd = await api('POST', '/api/v2/person', {
      key: target.adminKey,
      body: { _id_sys: res.body._id_sys, pwd: PASSWORD },
    });
    assert.equal(pwd.status, 200, pwd.text);
  });
  after(() => target?.stop());

  it('per address: past its failures an address gets 429 with Retry-After, another address does not', async () => {
    const from = '127.0.0.2';
    for (let i = 0; i < PER_MINUTE; i++) {
      const res = await signInFrom(target.baseUrl, from, `nobody-${i}@example.com`, 'wrong-password');
      assert.equal(res.status, 401, res.body);
    }
    const braked = await signInFrom(target.baseUrl, from, 'nobody-x@example.com', 'wrong-password');
    assert.equal(braked.status, 429, braked.body);
    assert.match(braked.retryAfter ?? '', /^[1-9]\d*$/);
    assert.match(braked.body, /problem|too-many-requests/);
    // Even the right password is refused from that address until the minute is over.
    assert.equal((await signInFrom(target.baseUrl, from, 'braked@example.com', PASSWORD)).status, 429);
    assert.equal((await signInFrom(target.baseUrl, '127.0.0.3', 'braked@example.com', PASSWORD)).status, 200);
  });

  it('per e-mail: past its failures from many addresses, the e-mail gets 429 from any address', async () => {
    for (let i = 0; i < PER_MINUTE; i++) {
      const res = await signInFrom(
        target.baseUrl,
        `127.0.0.${10 + i}`,
        'braked@example.com',
        'wrong-password',
      );
      assert.equal(res.status, 401, res.body);
    }
    const braked = await signInFrom(target.baseUrl, '127.0.0.20', 'braked@example.com', 'wrong-password');
    assert.equal(braked.status, 429, braked.body);
    assert.match(braked.retryAfter ?? '', /^[1-9]\d*$/);
    // The right password from a fresh address: the e-mail is braked (an unknown one would be alike).
    assert.equal(
      (await signInFrom(target.baseUrl, '127.0.0.21', 'braked@example.com', PASSWORD)).status,
      429,
    );
    // Another e-mail from a fresh address is not.
    assert.equal((await signInFrom(target.baseUrl, '127.0.0.22', 'other@example.com', 'wrong')).status, 401);
  });
});

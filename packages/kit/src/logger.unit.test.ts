import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, REDACTED_EMAIL, redactEmails } from './logger';

describe('logs carry no e-mail address', () => {
  it('redacts addresses in messages, fields and errors, keeps ids', () => {
    const lines: string[] = [];
    const log = createLogger('test', 'info', { write: (line: string) => lines.push(line) });
    log.info(
      {
        path: '/api/v2/person/Alice.Archer+x@Example.co.uk',
        user: 'usr-00000000-0000-4000-8000-000000000001',
      },
      'run-as bob@example.com refused',
    );
    log.error({ err: new Error('no account holds carol@mail.example.org') }, 'failed');
    const text = lines.join('');
    assert.equal(lines.length, 2);
    for (const address of ['Alice.Archer+x@Example.co.uk', 'bob@example.com', 'carol@mail.example.org'])
      assert.ok(!text.includes(address), text);
    // The error's address twice: in its message and its stack.
    assert.equal(text.split(REDACTED_EMAIL).length - 1, 4);
    assert.match(text, /usr-00000000-0000-4000-8000-000000000001/);
    for (const line of lines) JSON.parse(line);
  });
  it('leaves a line without an address as it is', () => {
    const line = '{"msg":"request","path":"/api/v2/docForm/abc"}\n';
    assert.equal(redactEmails(line), line);
  });
});

describe('logs carry no secret', () => {
  const logged = (write: (log: ReturnType<typeof createLogger>) => void) => {
    const lines: string[] = [];
    write(createLogger('test', 'info', { write: (line: string) => lines.push(line) }));
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  it('censors secret keys at the top, one level down, in errors and in child bindings', () => {
    const error = Object.assign(new Error('refused'), { token: 'tok-in-error' });
    const [top, nested, failed, child] = logged((log) => {
      log.info({ apiKey: 'key-top', password: 'pw-top', user: 'usr-1' }, 'top');
      log.info({
        account: { keyHash: 'hash-nested', name: 'svc' },
        req: { headers: { authorization: 'Bearer h' } },
      });
      log.error({ err: error }, 'failed');
      log.child({ token: 'tok-binding', requestId: 'r1' }).info({ pwdHash: 'ph' }, 'child');
    });
    const text = JSON.stringify([top, nested, failed, child]);
    for (const secret of [
      'key-top',
      'pw-top',
      'hash-nested',
      'Bearer h',
      'tok-in-error',
      'tok-binding',
      '"ph"',
    ])
      assert.ok(!text.includes(secret), `${secret} in ${text}`);
    assert.deepEqual(top, { ...top, apiKey: '[redacted]', password: '[redacted]', user: 'usr-1' });
    assert.deepEqual(nested!.account, { keyHash: '[redacted]', name: 'svc' });
    assert.deepEqual(nested!.req, { headers: { authorization: '[redacted]' } });
    const err = failed!.err as Record<string, unknown>;
    assert.equal(err.token, '[redacted]');
    assert.equal(err.message, 'refused');
    assert.equal(err.type, 'Error');
    assert.match(String(err.stack), /refused/);
    assert.equal(child!.token, '[redacted]');
    assert.equal(child!.requestId, 'r1');
    assert.equal(child!.pwdHash, '[redacted]');
  });

  it('logs what holds no secret unchanged', () => {
    const fields = { method: 'GET', path: '/api/v2/docForm/abc', status: 200, ms: 1.5, nested: { a: 1 } };
    const [line] = logged((log) => log.info(fields, 'request'));
    assert.deepEqual({ ...line, ...fields }, line);
  });
});

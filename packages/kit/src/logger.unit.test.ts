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

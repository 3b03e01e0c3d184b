import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkResolvedHost,
  parseAllowList,
  RefusedTarget,
  refusedLiteral,
  refusedRange,
} from './target-guard';

describe('webhook target guard', () => {
  const none = parseAllowList([]);

  it('refuses loopback, private, link-local, unique-local, multicast and unspecified addresses', () => {
    const cases: Record<string, string> = {
      '127.0.0.1': 'loopback',
      '10.1.2.3': 'private',
      '172.16.0.1': 'private',
      '192.168.1.1': 'private',
      '169.254.169.254': 'linkLocal',
      '224.0.0.1': 'multicast',
      '0.0.0.0': 'unspecified',
      '::1': 'loopback',
      'fe80::1': 'linkLocal',
      'fd00::1': 'uniqueLocal',
      'ff02::1': 'multicast',
      '::': 'unspecified',
      '::ffff:127.0.0.1': 'loopback',
    };
    for (const [address, range] of Object.entries(cases))
      assert.equal(refusedRange(address, none), range, address);
  });

  it('lets public unicast addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      assert.equal(refusedRange(address, none), undefined, address);
  });

  it('lets through what the allow-list names: an address, a CIDR or a host name', () => {
    const allow = parseAllowList(['127.0.0.1', '10.0.0.0/8', 'hooks.internal']);
    assert.equal(refusedRange('127.0.0.1', allow), undefined);
    assert.equal(refusedRange('127.0.0.2', allow), 'loopback');
    assert.equal(refusedRange('10.200.1.1', allow), undefined);
    assert.equal(refusedLiteral(new URL('http://hooks.internal/x'), allow), undefined);
    assert.equal(refusedLiteral(new URL('http://10.1.1.1:8080/x'), parseAllowList([])), 'private');
    assert.equal(refusedLiteral(new URL('http://[::1]/x'), allow), 'loopback');
    assert.equal(refusedLiteral(new URL('http://example.com/x'), none), undefined);
  });

  it('checks the addresses a name resolves to', async () => {
    await assert.rejects(checkResolvedHost('localhost', none), RefusedTarget);
    await checkResolvedHost('localhost', parseAllowList(['localhost']));
    await assert.rejects(checkResolvedHost('127.0.0.1', none), RefusedTarget);
    await checkResolvedHost('127.0.0.1', parseAllowList(['127.0.0.0/8']));
  });
});

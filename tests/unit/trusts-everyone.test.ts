/** TRUST_PROXY lists that trust every address however written (decision 005), and lists that name proxies. */
import { describe, expect, it } from 'vitest';
import { trustsEveryAddress } from '../../src/server/lib/trusts-everyone';

const check = (list: string) => trustsEveryAddress(list.split(','));

describe('trustsEveryAddress', () => {
  it.each([
    '0.0.0.0/0',
    '0.0.0.0/1,128.0.0.0/1',
    '0.0.0.0/2,64.0.0.0/2,128.0.0.0/1',
    '128.0.0.0/1, 0.0.0.0/1',
    '0.0.0.0/0.0.0.0',
    '1.2.3.4/0',
    '::/0',
    '::ffff:0:0/96',
    '::ffff:0.0.0.0/97,::ffff:128.0.0.0/97',
    '::/1,8000::/1',
    '0.0.0.0/1,::ffff:128.0.0.0/97',
  ])('%s trusts every IPv4 address', (list) => {
    expect(check(list)).toBe('IPv4');
  });

  it.each(['127.0.0.1', '10.0.0.0/8,127.0.0.1', '0.0.0.0/1', 'loopback,linklocal,uniquelocal', '::1', 'fd00::/8'])(
    '%s names proxies',
    (list) => {
      expect(check(list)).toBeNull();
    },
  );
});

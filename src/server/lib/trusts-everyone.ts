/**
 * Whether a TRUST_PROXY list believes X-Forwarded-For from every address, however it is written (decision 005): one
 * 0.0.0.0/0 or ::/0, halves such as 0.0.0.0/1,128.0.0.0/1, masks in dotted form, or IPv6 ranges that hold every
 * IPv4-mapped address. With such a list any client forges its own address and escapes every per-address limit.
 * The entries are those @fastify/proxy-addr takes: an address, address/prefix, address/dotted-mask, or the names
 * loopback, linklocal and uniquelocal (none of which covers everything).
 */
import ipaddr from 'ipaddr.js';

type Interval = [bigint, bigint];

const IPV4_ALL: Interval = [0n, (1n << 32n) - 1n];
const IPV6_ALL: Interval = [0n, (1n << 128n) - 1n];
/** ::ffff:0:0/96, where proxy-addr matches an IPv4 client against an IPv6 range. */
const MAPPED: Interval = [0xffffn << 32n, (0xffffn << 32n) + IPV4_ALL[1]];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function toBigInt(bytes: number[]): bigint {
  return bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

/** The range an entry names, in its own family, or null for a name or an entry this check cannot read. */
function rangeOf(entry: string): { family: 'ipv4' | 'ipv6'; range: Interval } | null {
  if (NAMED.has(entry)) return null;
  const [addressText, maskText] = entry.split('/', 2) as [string, string | undefined];
  if (!ipaddr.isValid(addressText)) return null;
  const address = ipaddr.parse(addressText);
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  let prefix = bits;
  if (maskText !== undefined) {
    if (/^\d+$/.test(maskText)) prefix = Number(maskText);
    else if (ipaddr.isValid(maskText)) prefix = ipaddr.parse(maskText).prefixLengthFromSubnetMask() ?? bits;
    else return null;
  }
  const start = toBigInt(address.toByteArray());
  const size = 1n << BigInt(bits - Math.min(Math.max(prefix, 0), bits));
  const first = start - (start % size);
  return { family: address.kind(), range: [first, first + size - 1n] };
}

/** Whether the union of `ranges` holds every value of `all`. */
function covers(ranges: Interval[], all: Interval): boolean {
  let next = all[0];
  for (const [start, end] of [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (start > next) return false;
    if (end >= next) next = end + 1n;
    if (next > all[1]) return true;
  }
  return next > all[1];
}

/** Which family a TRUST_PROXY list trusts entirely ('IPv4' or 'IPv6'), or null when it names proxies. */
export function trustsEveryAddress(list: string[]): 'IPv4' | 'IPv6' | null {
  const v4: Interval[] = [];
  const v6: Interval[] = [];
  for (const entry of list) {
    const named = rangeOf(entry.trim());
    if (!named) continue;
    if (named.family === 'ipv4') {
      v4.push(named.range);
      continue;
    }
    v6.push(named.range);
    // The part of an IPv6 range over ::ffff:0:0/96 holds IPv4 clients (proxy-addr maps them in).
    const [start, end] = named.range;
    if (start <= MAPPED[1] && end >= MAPPED[0]) {
      const from = start > MAPPED[0] ? start : MAPPED[0];
      const to = end < MAPPED[1] ? end : MAPPED[1];
      v4.push([from - MAPPED[0], to - MAPPED[0]]);
    }
  }
  if (covers(v4, IPV4_ALL)) return 'IPv4';
  if (covers(v6, IPV6_ALL)) return 'IPv6';
  return null;
}

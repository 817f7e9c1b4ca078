// Which IP addresses a webhook may be sent to. A webhook URL is chosen by the customer, so without
// this rule our servers would POST wherever they are told: cloud metadata services, databases and
// admin panels on the private network (server-side request forgery). Only public unicast addresses
// are allowed; loopback and private ones too when the configuration allows local addresses (tests,
// local development). Link-local (169.254.169.254 is the cloud metadata service), multicast,
// unspecified and reserved addresses are never allowed.
import { isIP } from 'node:net';

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'multicast' | 'unspecified' | 'reserved';

/** Whether the sender may connect to this address. Anything that is not an IP address: no. */
export function isAddressAllowed(address: string, allowLocal: boolean): boolean {
  const kind = classifyAddress(address);
  if (kind === 'public') return true;
  return allowLocal && (kind === 'loopback' || kind === 'private');
}

export function classifyAddress(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '');
  const version = isIP(bare);
  if (version === 4) return classifyIPv4(parseIPv4(bare)!);
  if (version === 6) {
    const groups = parseIPv6(bare);
    if (groups) return classifyIPv6(groups);
  }
  return 'reserved';
}

// [first address as a 32-bit number, prefix length, kind]
const IPV4_RANGES: ReadonlyArray<readonly [string, number, Exclude<AddressKind, 'public'>]> = [
  ['0.0.0.0', 8, 'unspecified'], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // future use, and 255.255.255.255 broadcast
];

function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

function classifyIPv4(value: number): AddressKind {
  for (const [first, prefix, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    const start = parseIPv4(first)!;
    if (value >= start && value < start + size) return kind;
  }
  return 'public';
}

/** Eight 16-bit groups, or null. Accepts "::" shortening, a zone (%eth0) and a dotted IPv4 tail. */
function parseIPv6(text: string): number[] | null {
  let s = text.split('%')[0].toLowerCase();
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

function embeddedIPv4(high: number, low: number): number {
  return high * 65536 + low;
}

function classifyIPv6(g: number[]): AddressKind {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d): the socket reaches the IPv4 address, so judge that address.
  if (zeroUpTo(5) && g[5] === 0xffff) return classifyIPv4(embeddedIPv4(g[6], g[7]));
  if (zeroUpTo(6)) return 'reserved'; // IPv4-compatible (deprecated)
  // NAT64 (64:ff9b::/96): a gateway connects to the embedded IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) {
    return classifyIPv4(embeddedIPv4(g[6], g[7]));
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'private'; // local-use NAT64
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return 'reserved'; // discard-only
  if (g[0] === 0x2001 && g[1] < 0x200) return 'reserved'; // IETF protocol assignments, Teredo
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'reserved'; // documentation
  if (g[0] === 0x2002) return classifyIPv4(embeddedIPv4(g[1], g[2])); // 6to4
  if (g[0] === 0x3fff && g[1] < 0x1000) return 'reserved'; // documentation (3fff::/20)
  if (g[0] === 0x5f00) return 'reserved'; // segment routing
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // unique local
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'reserved'; // site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  // Only 2000::/3 is global unicast today.
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

// TRUST_PROXY as the configuration reads it (decision 0079), before Express compiles the list: how
// a client is then keyed by its address is server/client-address.ts.

/** The address ranges Express's named `trust proxy` values stand for (proxy-addr). */
const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

export const PROXY_RANGE_NAMES = Object.keys(NAMED_RANGES);

/** An address range as a span of the IPv6 space: IPv4 lies at ::ffff:0:0/96, where proxy-addr puts it. */
interface Span {
  first: bigint;
  last: bigint;
  /** Which clients it trusts: proxy-addr matches IPv4 ones only against IPv4 and mapped ranges. */
  clients: "IPv4" | "IPv6";
}

const IPV4_SPACE: Span = { first: 0xffff00000000n, last: 0xffffffffffffn, clients: "IPv4" };
const IPV6_SPACE: Span = { first: 0n, last: (1n << 128n) - 1n, clients: "IPv6" };

/**
 * One TRUST_PROXY entry as the spans it trusts: a name (loopback, linklocal, uniquelocal), an
 * address, or a subnet in CIDR notation; null when it is none of these. Node's stricter reading
 * of an address (no octal, no shortened IPv4) decides what is an address; the subnet's prefix is
 * decimal, from 0 to the address's length.
 */
function spansOf(entry: string): Span[] | null {
  const named = NAMED_RANGES[entry];
  if (named) return named.flatMap((range) => spansOf(range)!);
  const [address = "", prefix, ...extra] = entry.split("/");
  const version = isIP(address);
  if (extra.length > 0 || version === 0) return null;
  const bits = version === 4 ? 32 : 128;
  if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) return null;
  const length = prefix === undefined ? bits : Number(prefix);
  if (length > bits) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    // Node reads it, Express's parser would not (a zone name such as `%eth-0`).
    return null;
  }
  let value = 0n;
  for (const byte of parsed.toByteArray()) value = (value << 8n) | BigInt(byte);
  const hostBits = BigInt(bits - length);
  const first = ((value >> hostBits) << hostBits) + (version === 4 ? IPV4_SPACE.first : 0n);
  const mapped = parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() && length >= 96;
  return [
    {
      first,
      last: first + (1n << hostBits) - 1n,
      clients: version === 4 || mapped ? "IPv4" : "IPv6",
    },
  ];
}

/** Whether the spans together hold every address of `space`, however they are split. */
function covers(spans: readonly Span[], space: Span): boolean {
  let next = space.first;
  for (const span of [...spans].sort((a, b) => (a.first < b.first ? -1 : 1))) {
    if (span.first > next) break;
    if (span.last >= next) next = span.last + 1n;
    if (next > space.last) return true;
  }
  return false;
}

export type TrustedProxiesProblem =
  { kind: "malformed"; entry: string } | { kind: "everyone"; family: "IPv4" | "IPv6" };

/**
 * What is wrong with a list of proxy addresses for Express's `trust proxy`, or null. A list whose
 * ranges together hold every IPv4 (or IPv6) address trusts whatever any client writes in
 * X-Forwarded-For: each client would choose the address its limits are counted by.
 */
export function trustedProxiesProblem(entries: readonly string[]): TrustedProxiesProblem | null {
  const spans: Span[] = [];
  for (const entry of entries) {
    const found = spansOf(entry);
    if (!found) return { kind: "malformed", entry };
    spans.push(...found);
  }
  const forIPv4 = spans.filter((span) => span.clients === "IPv4");
  if (covers(forIPv4, IPV4_SPACE)) return { kind: "everyone", family: "IPv4" };
  // An IPv6 client is never one of the IPv4 block (proxy-addr reads a mapped client as IPv4).
  const forIPv6 = [...spans.filter((span) => span.clients === "IPv6"), IPV4_SPACE];
  if (covers(forIPv6, IPV6_SPACE)) return { kind: "everyone", family: "IPv6" };
  return null;
}

import { isIP, SocketAddress } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * What per-address limits count a client by (decision 0079). One IPv4 address is one client; an
 * IPv6 client gets a whole network (a /64 by default: what one household or phone is handed) and
 * picks any address in it, so it is counted by that network, or every address would start afresh.
 * The same address in any of its spellings (IPv4-mapped `::ffff:1.2.3.4`, upper case, leading
 * zeros, `::` or not) gives the same key. A value that is no address at all is kept as it came.
 */
export function clientAddressKey(address: string | undefined, ipv6PrefixLength: number): string {
  const value = withoutPort((address ?? "").trim());
  if (!value) return "unknown";
  const version = isIP(value);
  // Node writes IPv4 one way only (no leading zeros, four parts): it is its own key.
  if (version === 4) return value;
  const parsed = version === 6 ? parseIPv6(value) : null;
  if (!parsed) return value.toLowerCase();
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  const network = canonicalIPv6(withPrefix(parsed.parts, ipv6PrefixLength));
  return ipv6PrefixLength >= 128 ? network : `${network}/${ipv6PrefixLength}`;
}

function parseIPv6(value: string): ipaddr.IPv6 | null {
  try {
    return ipaddr.IPv6.parse(value);
  } catch {
    // A zone name ipaddr.js does not read (`fe80::1%eth-0`): not an address it can key.
    return null;
  }
}

/** Some proxies write the client's port too: `1.2.3.4:5678`, `[2001:db8::1]:443`. */
function withoutPort(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value);
  return ipv4WithPort ? ipv4WithPort[1]! : value;
}

/** The eight 16-bit groups with every bit past the prefix cleared. */
function withPrefix(parts: readonly number[], prefixLength: number): number[] {
  return parts.map((part, index) => {
    const kept = Math.min(16, Math.max(0, prefixLength - index * 16));
    return kept === 0 ? 0 : part & ((0xffff << (16 - kept)) & 0xffff);
  });
}

/** RFC 5952's spelling (lower case, longest zero run as `::`): the system's own, as Node prints it. */
function canonicalIPv6(parts: readonly number[]): string {
  const spelled = parts.map((part) => part.toString(16)).join(":");
  return new SocketAddress({ address: spelled, family: "ipv6" }).address;
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientAddressKey } from "./client-address";

describe("clientAddressKey", () => {
  it("counts every address of one IPv6 /64 as one client, however it is spelled", () => {
    const keys = [
      "2001:db8:1:2::1",
      "2001:db8:1:2::2",
      "2001:DB8:1:2:0:0:0:3",
      "2001:0db8:0001:0002:0000:0000:0000:0004",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "[2001:db8:1:2::5]:443",
      "2001:db8:1:2::6%eth0",
    ].map((address) => clientAddressKey(address, 64));
    expect(new Set(keys)).toEqual(new Set(["2001:db8:1:2::/64"]));
  });

  it("keeps neighbouring networks apart", () => {
    expect(clientAddressKey("2001:db8:1:3::1", 64)).toBe("2001:db8:1:3::/64");
    expect(clientAddressKey("2001:db8:1:2::1", 64)).not.toBe(
      clientAddressKey("2001:db8:1:3::1", 64),
    );
  });

  it("takes the prefix length it is given, bits within a group included", () => {
    expect(clientAddressKey("2001:db8:abcd:12ff::1", 56)).toBe("2001:db8:abcd:1200::/56");
    expect(clientAddressKey("2001:db8:abcd:12ff::1", 48)).toBe("2001:db8:abcd::/48");
    expect(clientAddressKey("2001:DB8::0001", 128)).toBe("2001:db8::1");
  });

  it("counts an IPv4-mapped address as the IPv4 address it carries", () => {
    for (const address of [
      "198.51.100.7",
      "::ffff:198.51.100.7",
      "::FFFF:c633:6407",
      "0:0:0:0:0:ffff:198.51.100.7",
      "198.51.100.7:50123",
    ]) {
      expect(clientAddressKey(address, 64), address).toBe("198.51.100.7");
    }
  });

  it("keeps what is no address as it came, and says when there is nothing", () => {
    expect(clientAddressKey(undefined, 64)).toBe("unknown");
    expect(clientAddressKey(" ", 64)).toBe("unknown");
    expect(clientAddressKey("Proxy-Sin-Direccion", 64)).toBe("proxy-sin-direccion");
  });

  it("gives any two addresses of one /64 the same key, and addresses of two /64s different keys", () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    const prefix = fc.tuple(group, group, group, group);
    fc.assert(
      fc.property(prefix, prefix, prefix, (network, hostA, hostB) => {
        // Within 0:0:0:0/64 lie the IPv4-mapped addresses, counted as IPv4.
        fc.pre(network.some((part) => part !== 0));
        const spell = (parts: number[]) => parts.map((part) => part.toString(16)).join(":");
        const a = clientAddressKey(spell([...network, ...hostA]), 64);
        const b = clientAddressKey(spell([...network, ...hostB]).toUpperCase(), 64);
        expect(a).toBe(b);
        const other = [...network];
        other[3] = (other[3]! + 1) % 0x10000;
        expect(clientAddressKey(spell([...other, ...hostA]), 64)).not.toBe(a);
      }),
    );
  });
});

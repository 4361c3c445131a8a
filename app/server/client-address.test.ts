import express from "express";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientAddressKey, trustedProxiesProblem } from "./client-address";

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

/** A subnet in CIDR notation from its first address as a 128-bit number. */
function ipv6Subnet(first: bigint, length: number): string {
  const groups = Array.from({ length: 8 }, (_, index) =>
    ((first >> BigInt(112 - index * 16)) & 0xffffn).toString(16),
  );
  return `${groups.join(":")}/${length}`;
}

describe("trustedProxiesProblem", () => {
  it.each([
    [["0.0.0.0/0"], "IPv4"],
    [["10.1.2.3/0"], "IPv4"],
    [["0.0.0.0/1", "128.0.0.0/1"], "IPv4"],
    [["128.0.0.0/2", "0.0.0.0/1", "192.0.0.0/3", "224.0.0.0/3"], "IPv4"],
    [["::ffff:0:0/96"], "IPv4"],
    [["::ffff:0.0.0.0/97", "128.0.0.0/1"], "IPv4"],
    [["::/0"], "IPv6"],
    [["::/1", "8000::/1"], "IPv6"],
    [["::/1", "8000::/2", "c000::/2", "loopback"], "IPv6"],
  ])("%j trusts every address", (entries, family) => {
    expect(trustedProxiesProblem(entries)).toEqual({ kind: "everyone", family });
  });

  it("finds every IPv6 client trusted when only the IPv4 block is left out, in 96 pieces", () => {
    // The complement of ::ffff:0:0/96: for each of its first 96 bits, the subnet that differs there.
    const ipv4Block = 0xffffn << 32n;
    const allButIPv4 = Array.from({ length: 96 }, (_, bit) => {
      const flipped = (ipv4Block >> BigInt(127 - bit)) ^ 1n;
      return ipv6Subnet(flipped << BigInt(127 - bit), bit + 1);
    });
    expect(trustedProxiesProblem(allButIPv4)).toEqual({ kind: "everyone", family: "IPv6" });
    expect(trustedProxiesProblem(allButIPv4.slice(1))).toBeNull();
  });

  it.each([
    [["10.0.0.0/8", "loopback"]],
    [["0.0.0.0/1"]],
    [["0.0.0.0/1", "128.0.0.0/2", "192.0.0.0/3", "255.255.255.254/31"]],
    // Express never matches an IPv4 client against an IPv6 subnet that is not a mapped one.
    [["::/1"]],
    [["::ffff:0:0/95", "0.0.0.0/1"]],
    [["2000::/3", "fd00::/8", "uniquelocal", "linklocal"]],
    [["fe80::1%eth0"]],
  ])("%j names some proxies", (entries) => {
    expect(trustedProxiesProblem(entries)).toBeNull();
    expect(() => express().set("trust proxy", entries)).not.toThrow();
  });

  it.each([
    "10.0.0.300",
    "10.0.0.0/33",
    "::1/129",
    "10.0.0.1/",
    "10.0.0.1/8/8",
    "10.0.0.1/+8",
    "10.0.0.0/255.0.0.0",
    "010.0.0.1",
    "10.1",
    "fe80::1%eth-0",
    "Loopback",
    "proxy.interno",
  ])("%s is no address, subnet or name", (entry) => {
    expect(trustedProxiesProblem(["10.0.0.1", entry])).toEqual({ kind: "malformed", entry });
  });

  it("accepts only lists that Express itself accepts", () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const ipv4 = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join("."));
    const ipv6 = fc
      .array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 })
      .map((parts) => parts.map((part) => part.toString(16)).join(":"));
    const entry = fc.oneof(
      fc.tuple(ipv4, fc.option(fc.integer({ min: 0, max: 33 }))),
      fc.tuple(ipv6, fc.option(fc.integer({ min: 0, max: 129 }))),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), (list) => {
        const entries = list.map(([address, prefix]) =>
          prefix === null ? address : `${address}/${prefix}`,
        );
        if (trustedProxiesProblem(entries) !== null) return;
        expect(() => express().set("trust proxy", entries)).not.toThrow();
      }),
    );
  });
});

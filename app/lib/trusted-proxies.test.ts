import express from "express";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trustedProxiesProblem } from "./trusted-proxies";

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

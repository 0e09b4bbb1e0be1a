import { describe, expect, it } from "vitest";
import { addressBlock, consentAddresses } from "../../src/oauth/consent-address.ts";
import { generateKeySet } from "../../src/tokens/keys.ts";
import { consentAddressPattern } from "../../src/tokens/verify.ts";

describe("the address a person approved from", () => {
  it("is one person's block of addresses: IPv4 as it is, IPv4-mapped as IPv4, IPv6 by its /64", () => {
    expect(addressBlock("198.51.100.7")).toBe("198.51.100.7");
    expect(addressBlock("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressBlock("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressBlock("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
  });

  it("travels as a keyed digest: the same for one block, another for another block or another deployment's keys", async () => {
    const keys = JSON.stringify(await generateKeySet());
    const digest = consentAddresses(keys);
    const first = await digest("198.51.100.7");
    expect(first).toMatch(consentAddressPattern);
    expect(first).not.toContain("198");
    expect(await digest("::ffff:198.51.100.7")).toBe(first);
    expect(await digest("198.51.100.8")).not.toBe(first);
    expect(await digest("2001:db8:1:2::5")).toBe(await digest("2001:db8:1:2:ffff::9"));
    expect(await digest("2001:db8:1:2::5")).not.toBe(await digest("2001:db8:1:3::5"));
    expect(await consentAddresses(JSON.stringify(await generateKeySet()))("198.51.100.7")).not.toBe(first);
  });
});

/** How rate limits and sign-in throttles count a client: IPv4 by address, IPv6 by its /64. */
import { describe, expect, it } from "vitest";
import { clientNetwork } from "~/lib/client-network";

describe("a client's network", () => {
  it("counts an IPv4 address as itself", () => {
    expect(clientNetwork("203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every address of one IPv6 /64 as one client, however it is written", () => {
    const network = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:db8:1:2::8",
      "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff",
      "2001:db8:1:2:a:b:c:d",
      "2001:db8:1:2::",
    ]) {
      expect(clientNetwork(address), address).toBe(network);
    }
    expect(clientNetwork("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
    expect(clientNetwork("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(clientNetwork("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientNetwork("::ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("keeps what is not an address as it came", () => {
    for (const text of ["1:2:3", "1::2::3", "2001:db8::zz", "1:2:3:4:5:6:7:8:9"]) {
      expect(clientNetwork(text)).toBe(text);
    }
  });
});

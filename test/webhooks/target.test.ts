import { describe, expect, it } from "vitest";
import {
  LOCAL_SUFFIXES,
  parseIPv4,
  parseIPv6,
  refuseTarget,
  SPECIAL_IPV4,
  SPECIAL_IPV6,
} from "../../src/modules/webhooks/target";

/**
 * The target table: every special-purpose range of IANA's IPv4 and IPv6 registries, each written in
 * every notation a URL can carry it in, and every local name suffix, refused; public hosts accepted.
 */
const strict = { allowLocalhost: false };
const refused = (url: string) => refuseTarget(url, strict);

const octets = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => Number((n >> s) & 255n));
const hex16 = (n: bigint) => [(n >> 16n) & 0xffffn, n & 0xffffn].map((g) => g.toString(16));

/** One IPv4 address in every notation that `new URL()` (and inet_aton) reads as that address. */
function ipv4Notations(n: bigint): string[] {
  const [a, b, c, d] = octets(n) as [number, number, number, number];
  const dotted = `${a}.${b}.${c}.${d}`;
  return [
    dotted,
    `${dotted}.`, // trailing dot
    String(n), // one decimal number
    `0x${n.toString(16)}`, // one hex number
    `0${n.toString(8)}`, // one octal number
    [a, b, c, d].map((o) => `0${o.toString(8)}`).join("."), // octal parts
    [a, b, c, d].map((o) => `0x${o.toString(16)}`).join("."), // hex parts
    `${a}.${b}.${(c << 8) | d}`, // a.b.c
    `${a}.${(b << 16) | (c << 8) | d}`, // a.b
    `0x${a.toString(16)}.${b}.0${c.toString(8)}.${d}`, // mixed
    [...dotted].map((ch) => (ch === "." ? "." : `%3${ch}`)).join(""), // percent-encoded
  ];
}

/** The same IPv4 address inside each IPv6 form that embeds one. */
function embeddedNotations(n: bigint): string[] {
  const dotted = octets(n).join(".");
  const [hi, lo] = hex16(n) as [string, string];
  return [
    `[::ffff:${dotted}]`, // IPv4-mapped
    `[::ffff:${hi}:${lo}]`,
    `[0:0:0:0:0:ffff:${dotted}]`,
    `[::${dotted}]`, // IPv4-compatible
    `[64:ff9b::${dotted}]`, // NAT64
    `[64:ff9b:1::${hi}:${lo}]`, // local-use NAT64
    `[2002:${hi}:${lo}::1]`, // 6to4
  ];
}

const sampleOf = (r: { base: bigint; bits: number; width: number }) => (r.bits < r.width ? r.base + 1n : r.base);

function ipv6Notations(n: bigint): string[] {
  const groups = Array.from({ length: 8 }, (_, i) => (n >> BigInt(16 * (7 - i))) & 0xffffn);
  const full = groups.map((g) => g.toString(16).padStart(4, "0")).join(":");
  const short = groups.map((g) => g.toString(16)).join(":");
  return [`[${short}]`, `[${full}]`, `[${full.toUpperCase()}]`];
}

describe("special-purpose IPv4 ranges, in every notation", () => {
  const cases = SPECIAL_IPV4.flatMap((r) => ipv4Notations(sampleOf(r)).map((host) => [r.cidr, host] as const));
  it.each(cases)("%s: refuses https://%s/", (_cidr, host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/public (IPv6 )?address|host name or a dotted IPv4/);
  });

  const embedded = SPECIAL_IPV4.flatMap((r) => embeddedNotations(sampleOf(r)).map((host) => [r.cidr, host] as const));
  it.each(embedded)("%s inside IPv6: refuses https://%s/", (_cidr, host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/public IPv6 address/);
  });

  it.each(embeddedNotations(0x08080808n))("refuses a public IPv4 address in a transition form too: %s", (host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/public IPv6 address/);
  });
});

describe("special-purpose IPv6 ranges, in every notation", () => {
  const cases = SPECIAL_IPV6.flatMap((r) => ipv6Notations(sampleOf(r)).map((host) => [r.cidr, host] as const));
  it.each(cases)("%s: refuses https://%s/", (_cidr, host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/public IPv6 address/);
  });

  it.each([
    ["Teredo", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]"],
    ["site-local", "[fec0::1]"],
    ["outside global unicast (reserved ::/8 block)", "[0:1::1]"],
    ["outside global unicast (4000::/3)", "[4000::1]"],
    ["ISATAP carrying a private IPv4 address", "[2001:4860::5efe:10.0.0.1]"],
    ["ISATAP (universal bit) carrying loopback", "[2001:4860::200:5efe:127.0.0.1]"],
  ])("refuses %s: %s", (_what, host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/public IPv6 address/);
  });
});

describe("local and cluster-internal names", () => {
  const names = LOCAL_SUFFIXES.flatMap((s) => [s, `hooks.${s}`, `HOOKS.${s.toUpperCase()}`, `hooks.${s}.`]);
  it.each(names)("refuses https://%s/", (host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/public host name|single label/);
  });

  it.each([
    "localhost.",
    "metadata.google.internal.",
    "metadata.google.internal",
    "metadata",
    "kubernetes.default.svc.cluster.local",
    "api.default.svc",
    "router.home.arpa",
    "localhost\u3002", // an ideographic full stop: IDNA makes it a dot
    "xn--80ak6aa92e.local", // an IDNA name is checked as its ASCII form
    "ex%61mple.local", // percent-encoded letters are decoded first
  ])("refuses %s once normalised", (host) => {
    expect(refused(`https://${host}/hook`)).toMatch(/public host name|single label/);
  });
});

describe("ports, schemes and credentials", () => {
  it.each(["https://hooks.example.org:8443/in", "https://hooks.example.org:80/in", "https://8.8.8.8:8080/"])(
    "refuses another port than 443: %s",
    (url) => expect(refused(url)).toMatch(/443/),
  );
  it.each([
    ["http://hooks.example.org/in", /https/],
    ["ftp://hooks.example.org/in", /https/],
    ["not a url", /absolute/],
    ["https://user:pw@hooks.example.org/", /credentials/],
  ])("refuses %s", (url, why) => expect(refused(url)).toMatch(why));

  it.each([
    "https://hooks.example.org/in",
    "https://hooks.example.org:443/in?x=1",
    "https://HOOKS.Example.ORG./in",
    "https://bücher.example.com/in",
    "https://api.shop.sa/webhooks",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://[2001:4860::200:5efe:8.8.8.8]/hook",
  ])("accepts %s", (url) => expect(refused(url)).toBeNull());

  it("allows http(s) to localhost on any port only with the local-development setting", () => {
    const dev = { allowLocalhost: true };
    for (const url of [
      "http://localhost:9999/in",
      "http://127.0.0.1:9999/in",
      "https://[::1]:8443/",
      "http://localhost.:1/",
    ])
      expect(refuseTarget(url, dev), url).toBeNull();
    expect(refuseTarget("http://10.0.0.1/in", dev)).toMatch(/https/);
    expect(refuseTarget("https://10.0.0.1/in", dev)).toMatch(/public address/);
    expect(refuseTarget("http://localhost:9999/in", strict)).toMatch(/https/);
  });
});

describe("address parsers", () => {
  it("reads IPv4 as inet_aton does, and refuses what is not one", () => {
    expect(parseIPv4("127.1")).toBe(0x7f000001n);
    expect(parseIPv4("0x7f.0.0.1")).toBe(0x7f000001n);
    expect(parseIPv4("017700000001")).toBe(0x7f000001n);
    for (const bad of ["256.1.1.1", "1.2.3.4.5", "1..2", "4294967296", "09.1.1.1", "a.b.c.d"])
      expect(parseIPv4(bad), bad).toBeNull();
  });
  it("reads IPv6 with :: and a dotted tail, and refuses malformed ones", () => {
    expect(parseIPv6("::1")).toBe(1n);
    expect(parseIPv6("::ffff:1.2.3.4")).toBe(0xffff01020304n);
    for (const bad of ["1::2::3", "1:2:3:4:5:6:7:8:9", "12345::", "::ffff:1.2.3", "::ffff:01.2.3.4"])
      expect(parseIPv6(bad), bad).toBeNull();
  });
});

/**
 * Which URLs a webhook may target: https on the default port of a public host. The same function
 * checks when a webhook is saved and again before each attempt.
 *
 * The host is normalised first, as fetch will see it: `new URL()` lower-cases it, applies IDNA
 * (so full-width dots and Unicode look-alikes become what they mean) and turns every IPv4 notation
 * (decimal, octal, hex, short forms) into dotted decimal; trailing dots are removed. Then every
 * special-purpose range of IANA's IPv4 and IPv6 registries is refused, with the IPv6 forms that
 * embed an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo, ISATAP), and every name that
 * only resolves inside a network. With `allowLocalhost` (local development only) http and https to
 * localhost / 127.0.0.1 / [::1] on any port are allowed, so that `wrangler dev` can deliver to a
 * receiver on the same machine.
 */
export type TargetPolicy = {
  allowLocalhost: boolean;
  /**
   * Whether an unexplained network failure may be checked with a DNS-over-HTTPS lookup of the
   * name: in production only, so that development and tests never reach out to a public resolver.
   */
  resolveNames?: boolean;
};

type Range = { base: bigint; bits: number; width: 32 | 128; cidr: string; what: string };

function range(cidr: string, what: string): Range {
  const [addr = "", len = ""] = cidr.split("/");
  const v4 = parseIPv4(addr);
  const width = v4 === null ? 128 : 32;
  const base = v4 ?? parseIPv6(addr);
  if (base === null) throw new Error(`bad range ${cidr}`);
  return { base, bits: Number(len), width, cidr, what };
}

const inRange = (addr: bigint, r: Range) => addr >> BigInt(r.width - r.bits) === r.base >> BigInt(r.width - r.bits);

/** IANA IPv4 Special-Purpose Address Registry, with multicast and the reserved class E. */
export const SPECIAL_IPV4: Range[] = [
  range("0.0.0.0/8", "“this network”"),
  range("10.0.0.0/8", "a private address"),
  range("100.64.0.0/10", "shared address space (CGNAT)"),
  range("127.0.0.0/8", "loopback"),
  range("169.254.0.0/16", "link-local (cloud metadata)"),
  range("172.16.0.0/12", "a private address"),
  range("192.0.0.0/24", "IETF protocol assignments"),
  range("192.0.2.0/24", "documentation (TEST-NET-1)"),
  range("192.31.196.0/24", "AS112"),
  range("192.52.193.0/24", "AMT"),
  range("192.88.99.0/24", "the deprecated 6to4 relay anycast"),
  range("192.168.0.0/16", "a private address"),
  range("192.175.48.0/24", "AS112 direct delegation"),
  range("198.18.0.0/15", "benchmarking"),
  range("198.51.100.0/24", "documentation (TEST-NET-2)"),
  range("203.0.113.0/24", "documentation (TEST-NET-3)"),
  range("224.0.0.0/4", "multicast"),
  range("240.0.0.0/4", "reserved"),
  range("255.255.255.255/32", "limited broadcast"),
];

/** IANA IPv6 Special-Purpose Address Registry, with the deprecated and non-unicast blocks. */
export const SPECIAL_IPV6: Range[] = [
  range("::/128", "unspecified"),
  range("::1/128", "loopback"),
  range("::ffff:0:0/96", "IPv4-mapped"),
  range("::/96", "IPv4-compatible (deprecated)"),
  range("64:ff9b::/96", "NAT64"),
  range("64:ff9b:1::/48", "local-use NAT64"),
  range("100::/64", "discard-only"),
  range("100:0:0:1::/64", "the dummy prefix"),
  range("2001::/32", "Teredo"),
  range("2001::/23", "IETF protocol assignments"),
  range("2001:db8::/32", "documentation"),
  range("2002::/16", "6to4"),
  range("2620:4f:8000::/48", "AS112"),
  range("3fff::/20", "documentation"),
  range("5f00::/16", "segment routing"),
  range("fc00::/7", "unique-local"),
  range("fe80::/10", "link-local"),
  range("fec0::/10", "site-local (deprecated)"),
  range("ff00::/8", "multicast"),
];
const GLOBAL_UNICAST = range("2000::/3", "global unicast");

/** Names that resolve only inside a network: RFC 6761/6762/8375, Kubernetes, cloud metadata, common private TLDs. */
export const LOCAL_SUFFIXES = [
  "localhost",
  "local",
  "cluster.local",
  "svc",
  "internal",
  "home.arpa",
  "arpa",
  "localdomain",
  "intranet",
  "lan",
  "home",
  "corp",
  "private",
  "test",
  "invalid",
  "example",
  "onion",
  "alt",
];

/** An IPv4 address as inet_aton reads it (1 to 4 parts, each decimal, 0-octal or 0x-hex), or null. */
export function parseIPv4(host: string): bigint | null {
  const parts = host.split(".");
  if (parts.length > 4 || parts.some((p) => p === "")) return null;
  const nums: bigint[] = [];
  for (const p of parts) {
    if (/^0x[0-9a-f]*$/i.test(p)) nums.push(p.length === 2 ? 0n : BigInt(p));
    else if (/^0[0-7]+$/.test(p)) nums.push(BigInt(`0o${p.slice(1)}`));
    else if (/^(0|[1-9]\d*)$/.test(p)) nums.push(BigInt(p));
    else return null;
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255n) || last >= 1n << BigInt(8 * (4 - nums.length))) return null;
  return nums.reduce((acc, n, i) => acc | (n << BigInt(8 * (3 - i))), last);
}

/** An IPv6 address (without brackets; `::`, and a dotted IPv4 tail, allowed) as 128 bits, or null. */
export function parseIPv6(host: string): bigint | null {
  let text = host.toLowerCase();
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = /^\d+(\.\d+){3}$/.test(tail[2]!) ? parseIPv4(tail[2]!) : null;
    if (v4 === null || tail[2]!.split(".").some((p) => p.length > 1 && p.startsWith("0"))) return null;
    text = `${tail[1]}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

function refuseIPv4(addr: bigint): string | null {
  const hit = SPECIAL_IPV4.find((r) => inRange(addr, r));
  return hit ? `Must be a public address, not ${hit.what} (${hit.cidr}).` : null;
}

function refuseIPv6(addr: bigint): string | null {
  const hit = SPECIAL_IPV6.find((r) => inRange(addr, r));
  if (hit) return `Must be a public IPv6 address, not ${hit.what} (${hit.cidr}).`;
  if (!inRange(addr, GLOBAL_UNICAST)) return "Must be a public IPv6 address (global unicast, 2000::/3).";
  // ISATAP interface ids (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d) carry an IPv4 address: check it too.
  const iid = (addr >> 32n) & 0xfdffffffn;
  if (iid === 0x5efen && refuseIPv4(addr & 0xffffffffn))
    return "Must be a public IPv6 address, not ISATAP to a special-use IPv4 one.";
  return null;
}

function refuseName(host: string): string | null {
  const labels = host.split(".");
  if (labels.some((l) => l === "")) return "Must be a valid host name.";
  if (labels.length < 2) return "Must be a public host name (a single label only resolves locally).";
  const suffix = LOCAL_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix) return `Must be a public host name, not a local or cluster-internal one (.${suffix}).`;
  // A name whose last label is numeric is an IPv4 address in some notation: never a public name.
  if (/^(0x[0-9a-f]*|\d+)$/i.test(labels.at(-1)!)) return "Must be a host name or a dotted IPv4 address.";
  return null;
}

const LOCALHOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The host as fetch will use it: lower case, IDNA, IPv4 in dotted decimal, no trailing dot. */
export const normaliseHost = (url: URL) => url.hostname.replace(/\.+$/, "");

/** Returns why the URL may not be a webhook target, or null when it may. */
export function refuseTarget(raw: string, policy: TargetPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Must be an absolute URL.";
  }
  if (url.username || url.password) return "Must not carry credentials; use `headers` for authentication.";
  const host = normaliseHost(url);
  const web = url.protocol === "https:" || url.protocol === "http:";
  if (policy.allowLocalhost && web && LOCALHOSTS.has(host)) return null;
  if (url.protocol !== "https:") return "Must use https.";
  if (url.port !== "") return "Must use the default https port (443).";
  if (host.startsWith("[")) {
    const v6 = parseIPv6(host.slice(1, -1));
    return v6 === null ? "Must be a valid IPv6 address." : refuseIPv6(v6);
  }
  const v4 = parseIPv4(host);
  if (v4 !== null) return refuseIPv4(v4);
  return refuseName(host);
}

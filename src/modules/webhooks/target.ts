/**
 * Which URLs a webhook may target: https on a public host. Loopback, private, link-local, CGNAT
 * and other reserved addresses (IPv4 and IPv6 literals) and local names are refused, when a
 * webhook is saved and again before each delivery. With `allowLocalhost` (local development only)
 * http and https to localhost / 127.0.0.1 / [::1] are allowed, so that `wrangler dev` can deliver
 * to a receiver on the same machine.
 */
export type TargetPolicy = { allowLocalhost: boolean };

const LOCAL_NAMES = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home|corp|test|invalid|example)$/i;

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function reservedV4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) || // CGNAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF protocol assignments, TEST-NET-1 (192.0.2.x)
    (a === 198 && (b === 18 || b === 19 || b === 51)) ||
    (a === 203 && b === 0)
  );
}

function reservedV6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "::" || h === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return reservedV4(ipv4(mapped[1]!) ?? [0]);
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(h)) return true; // IPv4-mapped, hex form
  // unique-local, link-local, multicast, documentation, Teredo, NAT64, discard, IPv4-compatible
  return /^(fc|fd|fe[89ab]|ff|2001:db8:|2001:0*:|2001::|64:ff9b:|100::)/.test(h) || h.startsWith("::");
}

const isLocalhost = (host: string) => host === "localhost" || host === "127.0.0.1" || host === "[::1]";

/** Returns why the URL may not be a webhook target, or null when it may. */
export function refuseTarget(raw: string, policy: TargetPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Must be an absolute URL.";
  }
  if (url.username || url.password) return "Must not carry credentials; use `headers` for authentication.";
  const host = url.hostname.toLowerCase();
  if (policy.allowLocalhost && isLocalhost(host) && (url.protocol === "http:" || url.protocol === "https:"))
    return null;
  if (url.protocol !== "https:") return "Must use https.";
  if (host.startsWith("["))
    return reservedV6(host.slice(1, -1)) ? "Must be a public address, not a reserved IPv6 one." : null;
  const v4 = ipv4(host);
  if (v4)
    return reservedV4(v4) ? "Must be a public address, not a private, loopback, link-local or reserved one." : null;
  if (/^[\d.]+$/.test(host) || /^0x/i.test(host)) return "Must be a host name or a dotted IPv4 address.";
  if (!host.includes(".") || LOCAL_NAMES.test(host)) return "Must be a public host name.";
  return null;
}

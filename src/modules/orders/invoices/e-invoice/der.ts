/**
 * DER (ITU-T X.690), the encoding of certificates and CSRs: a reader for the few structures the
 * stamp and the local fake read, and a writer for the CSR. Encoding only, no cryptography; no ASN.1
 * library is installed and these few forms do not need one.
 */

export type Der = { tag: number; start: number; end: number; body: Uint8Array; whole: Uint8Array };

/** The element at `at`: its tag, its body and its whole encoding. */
export function readDer(bytes: Uint8Array, at: number): Der {
  if (at + 2 > bytes.length) throw new RangeError("DER: truncated");
  const tag = bytes[at]!;
  let length = bytes[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4) throw new RangeError("DER: unsupported length");
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + bytes[start + i]!;
    start += n;
  }
  const end = start + length;
  if (end > bytes.length) throw new RangeError("DER: truncated");
  return { tag, start, end, body: bytes.subarray(start, end), whole: bytes.subarray(at, end) };
}

/** The elements of a SEQUENCE, a SET or a constructed tagged value. */
export function children(node: Der): Der[] {
  const out: Der[] = [];
  for (let at = 0; at < node.body.length; ) {
    const child = readDer(node.body, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

/** An OBJECT IDENTIFIER's body in dotted form. */
export function oidText(bytes: Uint8Array): string {
  const parts = [Math.floor(bytes[0]! / 40), bytes[0]! % 40];
  let v = 0;
  for (const b of bytes.subarray(1)) {
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join(".");
}

// Writing.

function lengthOf(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return [0x80 | bytes.length, ...bytes];
}

/** One element: tag, length, body. */
export function tlv(tag: number, ...body: Uint8Array[]): Uint8Array {
  const size = body.reduce((n, b) => n + b.length, 0);
  const head = [tag, ...lengthOf(size)];
  const out = new Uint8Array(head.length + size);
  out.set(head);
  let at = head.length;
  for (const b of body) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

export const sequence = (...items: Uint8Array[]) => tlv(0x30, ...items);
export const set = (...items: Uint8Array[]) => tlv(0x31, ...items);
/** A context-specific constructed tag, [n]: explicit, or implicit over a SET/SEQUENCE's elements. */
export const tagged = (n: number, ...items: Uint8Array[]) => tlv(0xa0 | n, ...items);
export const utf8String = (s: string) => tlv(0x0c, new TextEncoder().encode(s));
export const printableString = (s: string) => tlv(0x13, new TextEncoder().encode(s));
export const octetString = (bytes: Uint8Array) => tlv(0x04, bytes);
/** A BIT STRING of whole bytes (no unused bits). */
export const bitString = (bytes: Uint8Array) => tlv(0x03, Uint8Array.of(0), bytes);
/** A small non-negative INTEGER (a version number). */
export const smallInteger = (n: number) => tlv(0x02, Uint8Array.of(n));

export function oid(dotted: string): Uint8Array {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const body = [a! * 40 + b!];
  for (const n of rest) {
    const groups: number[] = [];
    for (let v = n; ; v = Math.floor(v / 128)) {
      groups.unshift((v % 128) | (groups.length ? 0x80 : 0));
      if (v < 128) break;
    }
    body.push(...groups);
  }
  return tlv(0x06, Uint8Array.from(body));
}

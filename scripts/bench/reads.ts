/**
 * `--only reads`: the public meals reads (only `app-id`), served cache-aside from KV. Each detail
 * read cached (a hit), revalidated (304) and uncached (the cache bypassed: D1, assembly,
 * serialisation, gzip), against one KV read of as many bytes as it sends; the public lists
 * uncached, against the D1 floor. Requested with `Accept-Encoding: gzip, deflate, br` as clients
 * send it: a cached body is sent gzipped as stored.
 */
import type autocannon from "autocannon";
import {
  API,
  AT_D1_FLOOR,
  atD1Floor,
  count,
  floor,
  fmt,
  met,
  type Scenario,
  startApi,
  startBare,
  vsFloor,
} from "./harness";
import { interleaved, load, type Result } from "./load";

const HEADERS = { "app-id": "1", "accept-encoding": "gzip, deflate, br" };
const UNCACHED = { ...HEADERS, "x-bench-uncached": "1" };

const DETAILS = [
  { name: "Plan Details: Keto week (7 days x 3 categories x 3 options)", path: "/public-api/v1/plans/2/" },
  { name: "Plan Details: Balanced 30 (30 days x 5 categories x 10 options)", path: "/public-api/v1/plans/1/" },
  { name: "Restaurant Menu: Green Bowl (5 categories x 10 products)", path: "/api/v1/restaurants/menus/1/" },
];
/** List Plans is a search (POST, its filters in the body): never cached. */
const LISTS = [
  { name: "List Restaurant", path: "/api/v1/restaurants/", method: "GET" },
  { name: "List Plans", path: "/public-api/v1/plans/", method: "POST" },
  { name: "List Restaurant Branches", path: "/api/v1/restaurants/1/branches/", method: "GET" },
  { name: "Wallet Credit Products", path: "/api/v1/restaurants/wallet-credit-products/", method: "GET" },
];

const asSent = (method: string) => (req: autocannon.Request) =>
  method === "POST"
    ? { ...req, method: "POST" as const, body: "{}", headers: { ...req.headers, "content-type": "application/json" } }
    : req;

/** A read's size as sent (Content-Length of the gzipped body) and its ETag; it fails the run unless 200. */
async function probe(path: string, method = "GET") {
  const res = await fetch(API + path, {
    method,
    headers: { ...HEADERS, "content-type": "application/json" },
    ...(method === "POST" && { body: "{}" }),
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const decoded = (await res.arrayBuffer()).byteLength;
  const sent = res.headers.get("content-length");
  return { bytes: sent === null ? decoded : Number(sent), etag: res.headers.get("etag") ?? "" };
}

/** CPU ms per request, 3 decimals. */
export const cpuMs = (r: Result) => (r.cpu === null ? "-" : (Math.round(r.cpu * 1000) / 1000).toString());

function row(name: string, bytes: string, mode: string, r: Result, floorName: string, f: Result) {
  const x = vsFloor(r, f);
  return `| ${name} | ${bytes} | ${mode} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${cpuMs(r)} | ${floorName} | ${fmt(x.rps)} | ${fmt(x.p50)} | ${r.non2xx} |`;
}

export const reads: Scenario = {
  name: "reads",
  heading: "## Public reads: KV cache and D1",
  goal:
    "a cached read at least 0.9 of the req/s of the bare route reading one KV value of as many bytes as the read sends " +
    "(what a cached read cannot beat); a 304 at least 0.9 of the KV floor's (one small KV value); cached p50 at most a " +
    `third of uncached p50; an uncached public list ${AT_D1_FLOOR}.`,
  async run() {
    await startApi();
    await startBare();
    const details = [];
    for (const d of DETAILS) details.push({ ...d, ...(await probe(d.path)) });
    for (const l of LISTS) await probe(l.path, l.method);
    const runs = [
      () => load(floor.kv),
      () => load(floor.d1),
      ...details.flatMap((d) => [
        () => load(floor.kvOf(d.bytes)),
        () => load(API + d.path, { headers: HEADERS }),
        // The ETag as it is now: with one taken before the runs, every 304 run after the first answered 200s.
        async () => {
          const { etag } = await probe(d.path);
          return load(API + d.path, { headers: { ...HEADERS, "if-none-match": etag }, expect: 304 });
        },
        () => load(API + d.path, { headers: UNCACHED }),
      ]),
      ...LISTS.map((l) => () => load(API + l.path, { headers: UNCACHED, setup: asSent(l.method) })),
    ];
    const [kv, d1, ...rest] = await interleaved(runs);
    const measured = details.map((d) => {
      const [kvOfSize, cached, notModified, uncached] = rest.splice(0, 4) as [Result, Result, Result, Result];
      return { ...d, kvOfSize, cached, notModified, uncached };
    });
    const lists = LISTS.map((l) => ({ ...l, r: rest.shift()! }));
    return [
      "*cached*: the same URL again (the tenant's generation held in the isolate for at most a second, the body in its",
      "memory, gzipped). *304*: the same with `If-None-Match` of its ETag. *uncached*: the cache bypassed (header",
      "`x-bench-uncached`, read by the bench's entry): D1 (one batch), assembly, serialisation and gzip. CPU: the serving",
      "runtime's CPU time per request (its local D1 and KV included), read from its process around each run; unlike req/s it",
      "does not move with the load generator's share of the 2 cores.",
      "",
      "| read | bytes sent | mode | req/s | p50 | p99 | CPU ms/request | floor | req/s vs floor | p50 vs floor | errors |",
      "|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|",
      row("KV floor: bare route + one KV read", "41", "-", kv!, "-", kv!),
      row("D1 floor: bare route + one D1 round trip (count + 20 rows)", "-", "-", d1!, "-", d1!),
      ...measured.flatMap((m) => {
        const b = count(m.bytes);
        return [
          row(`KV floor of ${b} bytes`, b, "-", m.kvOfSize, "-", m.kvOfSize),
          row(m.name, b, "cached", m.cached, "KV of its size", m.kvOfSize),
          row(m.name, b, "304", m.notModified, "KV", kv!),
          row(m.name, b, "uncached", m.uncached, "D1", d1!),
        ];
      }),
      ...lists.map((l) => row(l.name, "-", "uncached", l.r, "D1", d1!)),
      "",
      "Measured:",
      ...measured.map((m) => {
        const sized = m.cached.rps / m.kvOfSize.rps;
        const nm = m.notModified.rps / kv!.rps;
        const third = m.cached.p50 / Math.max(m.uncached.p50, 0.001);
        return (
          `- ${m.name}: cached **${fmt(sized)}** of one KV read of its bytes (${met(sized >= 0.9)}), ` +
          `304 **${fmt(nm)}** of the KV floor (${met(nm >= 0.9)}), cached p50 / uncached p50 **${fmt(third)}** (${met(third <= 1 / 3)})`
        );
      }),
      ...lists.map((l) => `- ${l.name}, uncached: ${atD1Floor(l.r, d1!)}`),
      "",
      "An uncached list is one statement (the count, the page and every nested level); what it pays beside the floor is",
      "the request's own work in the isolate (the query's validation, the statement's SQL text, assembling the nested JSON)",
      "and the statement's own SQLite time, on a runtime where local D1 runs one statement at a time, so the connections",
      "queue on it.",
    ];
  },
};

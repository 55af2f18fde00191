/**
 * The app routes a request before loading its router (src/routers.ts, app.ts), from a table
 * generated from the routers: the table must be theirs, and a router's own middleware must reach
 * only its own routes (in its own app it can no longer run around another router's).
 */
import { expect, it } from "vitest";

// Not literal paths, so that the Node type check does not pull the Worker's sources in.
const tableModule = "../../src/route-table";
const scriptModule = "../../scripts/route-table";
type Table = Record<string, readonly (readonly [string, string])[]>;
const { ROUTE_TABLE } = (await import(tableModule)) as { ROUTE_TABLE: Table };
const { routeTable } = (await import(scriptModule)) as { routeTable: () => Promise<Table> };

it("src/route-table.ts is the routers' own table (else: npm run route-table)", async () => {
  expect(ROUTE_TABLE).toEqual(await routeTable());
});

it("a router's own middleware matches no route of another router", () => {
  const pattern = (path: string) => new RegExp(`^${path.replaceAll("*", ".*").replaceAll(/:[a-z_]+/g, "[^/]+")}$`);
  const reached: string[] = [];
  for (const [owner, entries] of Object.entries(ROUTE_TABLE)) {
    for (const [method, path] of entries) {
      if (method !== "ALL") continue;
      const re = pattern(path);
      for (const [other, routes] of Object.entries(ROUTE_TABLE)) {
        if (other === owner) continue;
        for (const [m, p] of routes) {
          if (m !== "ALL" && re.test(p.replaceAll(/:[a-z_]+/g, "1")))
            reached.push(`${owner} ${path} → ${other} ${m} ${p}`);
        }
      }
    }
  }
  expect(reached).toEqual([]);
});

import { defineConfig } from "drizzle-kit";

// The shards' tables (drizzle.directory.config.ts has the directory's): drizzle-kit only writes SQL
// here; wrangler applies it to every shard (`npm run db:migrate:local`).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.ts",
  out: "./migrations/shard",
  migrations: { prefix: "index" },
});

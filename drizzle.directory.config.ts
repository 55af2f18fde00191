import { defineConfig } from "drizzle-kit";

// The directory's tables (docs/shards.md): `npm run db:generate` writes their SQL beside the shards'.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/directory-schema.ts", "./src/db/channel-directory-schema.ts"],
  out: "./migrations/directory",
  migrations: { prefix: "index" },
});

import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { seedTenants } from "../helpers/factories";

// Setup files run before each test file; applying migrations is idempotent.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await seedTenants();

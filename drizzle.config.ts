import { defineConfig } from "drizzle-kit";

// Generates SQL migrations into migrations/ for `wrangler d1 migrations apply`.
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/schema.server.ts",
  out: "./migrations",
});

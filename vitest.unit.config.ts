import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Unit suite: pure logic (app/lib, app/schemas, ...) in plain Node. No bindings, no build needed. */
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    name: "unit",
    environment: "node",
    include: ["tests/unit/**/*.test.ts"],
  },
});

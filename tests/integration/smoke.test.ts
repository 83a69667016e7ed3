import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/client.server";
import { categories } from "~/db/schema.server";
import { invalidateCategories } from "~/services/cache.server";

describe("the Worker (integration smoke)", () => {
  it("runs with the test bindings", () => {
    expect(env.ENVIRONMENT).toBe("test");
    expect(env.DEMO_MODE).toBe("true");
  });

  it("serves the home page as HTML", async () => {
    const response = await SELF.fetch("https://example.com/");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("<title>On-Demand Expert Q&amp;A</title>");
  });

  it("shows a category written to D1 on the home page once its read model is invalidated", async () => {
    await env.DB.prepare("INSERT INTO categories (name, slug, display_order) VALUES (?, ?, ?)")
      .bind("Integration Smoke Category", "integration-smoke-category", 1)
      .run();
    // The home page's categories come from KV (invalidated by whoever writes categories), and the
    // page itself may sit in the edge cache for a minute: ask another host, which has no copy yet.
    await invalidateCategories(env.CACHE);
    const response = await SELF.fetch("https://fresh.example.com/");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Integration Smoke Category");
  });

  it("reads and writes D1 through drizzle", async () => {
    const db = createDatabase(env.DB);
    await db.insert(categories).values({ name: "Drizzle Smoke", slug: "drizzle-smoke", displayOrder: 2 });
    const rows = await db
      .select({ name: categories.name, displayOrder: categories.displayOrder })
      .from(categories)
      .where(eq(categories.slug, "drizzle-smoke"));
    expect(rows).toEqual([{ name: "Drizzle Smoke", displayOrder: 2 }]);
  });
});

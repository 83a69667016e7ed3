/**
 * The wait for hydration (tests/e2e/support/pages.ts) itself. A script that `wrangler dev`'s proxy
 * holds back must give a TimeoutError naming it, which the navigation retry takes as a stall and
 * tries again; a page whose scripts all arrived and which still did not hydrate must fail at once,
 * not be retried, since then the page itself is broken.
 */
import { describe, expect, it } from "vitest";
import { newPage } from "./harness";
import { waitForHydration, withNavigationRetry } from "./support/pages";

describe("the wait for hydration", () => {
  it("names a script that never arrived, and the retry tries the page again", async () => {
    const page = await newPage();
    let stalling = true;
    await page.route("**/build/routes/experts._index-*.js", async (route) => {
      if (!stalling) await route.continue();
      // While stalling the request is never answered, as when the proxy holds it back.
    });
    let tries = 0;
    await withNavigationRetry("/experts", async () => {
      tries += 1;
      await page.goto("/experts");
      try {
        await waitForHydration(page, { timeout: 2_000 });
      } catch (error) {
        expect(error).toMatchObject({
          name: "TimeoutError",
          message: expect.stringMatching(
            /did not hydrate: \/build\/routes\/experts\._index-\w+\.js never arrived/,
          ),
        });
        stalling = false;
        throw error;
      }
    });
    expect(tries).toBe(2);
    expect(await page.locator("html[data-hydrated]").count()).toBe(1);
  });

  it("fails without a retry when every script arrived and the page still did not hydrate", async () => {
    const page = await newPage();
    await page.route("**/build/entry.client-*.js", (route) =>
      route.fulfill({ contentType: "text/javascript", body: "throw new Error('broken entry')" }),
    );
    let tries = 0;
    const attempt = withNavigationRetry("/experts", async () => {
      tries += 1;
      await page.goto("/experts");
      await waitForHydration(page, { timeout: 2_000 });
    });
    await expect(attempt).rejects.toThrow(/did not hydrate, though every script and style arrived/);
    expect(tries).toBe(1);
  });
});

/**
 * Every screen of tests/e2e/support/screens.ts, as its role, in Chromium with the real
 * Content-Security-Policy on:
 * - it answers with its status, hydrates, and the browser reports no CSP violation and no uncaught
 *   error (a blocked script would stop hydration);
 * - axe-core finds no serious or critical accessibility violation, at 390 px and at 1280 px, and
 *   every username and password field says what it holds (`autocomplete`);
 * - at 390 px nothing scrolls sideways, no two controls overlap, no fixed bar hides a control, and
 *   no stack starts with the space meant to go between its children;
 *   at 320 px (the narrowest phones in use) nothing scrolls sideways and no two controls overlap;
 * - Stripe.js (and the Payment Element chunk) load only on screens that take a payment;
 * - a screenshot at each width lands in results/screenshots/<name>-phone.png and -desktop.png.
 *
 * Each role signs in once; its cookies are reused for all its screens.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE, SMALL_PHONE, screenshot, type Viewport } from "./harness";
import { labelsBrokenMidWord, layoutProblems, stacksStartingWithAGap, tabsOutOfView } from "./support/layout";
import { waitForHydration, withNavigationRetry } from "./support/pages";
import { rolesInUse, type Screen, type ScreenRole, screensFor } from "./support/screens";
import { contextAs } from "./support/sessions";
import {
  credentialFieldsWithoutAutocomplete,
  type PageWatch,
  seriousA11yViolations,
  watchPage,
} from "./support/watch";

const contexts = new Map<string, Promise<BrowserContext>>();
function sharedContext(role: ScreenRole, viewport: Viewport) {
  const key = `${role}@${viewport.width}`;
  let context = contexts.get(key);
  if (!context) {
    context = contextAs(role, viewport);
    contexts.set(key, context);
  }
  return context;
}
afterAll(async () => {
  await Promise.all([...contexts.values()].map(async (context) => (await context).close().catch(() => {})));
});

/** Opens a screen the way a visitor does and waits until React has taken over and images have loaded. */
async function open(screen: Screen, viewport: Viewport): Promise<{ page: Page; watch: PageWatch }> {
  // A fresh page (and watch) for a second try, so the first try's aborted load is not held against it.
  const { page, watch, response } = await withNavigationRetry(screen.path, async () => {
    const page = await (await sharedContext(screen.role, viewport)).newPage();
    const watch = await watchPage(page);
    try {
      const response = await page.goto(screen.path, { waitUntil: "load" });
      await waitForHydration(page);
      return { page, watch, response };
    } catch (error) {
      await page.close().catch(() => {});
      throw error;
    }
  });
  expect(response?.status(), `${screen.path} status`).toBe(screen.status ?? 200);
  expect(new URL(page.url()).pathname, `${screen.path} was not redirected`).toBe(
    new URL(screen.path, "http://x").pathname,
  );
  // Late effects (lazy chunks, data refreshes) settle before the checks.
  await page.waitForLoadState("networkidle").catch(() => {});
  return { page, watch };
}

function expectCleanRun(screen: Screen, watch: PageWatch) {
  expect(watch.cspViolations, `${screen.name}: Content-Security-Policy violations`).toEqual([]);
  expect(watch.pageErrors, `${screen.name}: uncaught errors in the browser`).toEqual([]);
  if (!screen.payment) {
    expect(watch.stripeRequests, `${screen.name}: Stripe.js must load only on paying screens`).toEqual([]);
  }
}

for (const role of rolesInUse()) {
  describe(`screens as ${role === "anonymous" ? "a visitor" : `the demo ${role}`}`, () => {
    for (const screen of screensFor(role)) {
      it(`${screen.name} (${screen.path}) is accessible and fits a 390 px and a 320 px phone`, async () => {
        const phone = await open(screen, PHONE);
        try {
          expect(await seriousA11yViolations(phone.page), `${screen.name} at 390 px`).toEqual([]);
          expect(
            await credentialFieldsWithoutAutocomplete(phone.page),
            `${screen.name}: sign-in fields without autocomplete`,
          ).toEqual([]);
          const layout = await layoutProblems(phone.page);
          expect(layout.horizontalOverflow, `${screen.name}: scrolls sideways at 390 px`).toBeNull();
          expect(layout.overlaps, `${screen.name}: overlapping controls at 390 px`).toEqual([]);
          expect(layout.covered, `${screen.name}: controls hidden under a fixed bar at 390 px`).toEqual([]);
          expect(await tabsOutOfView(phone.page), `${screen.name}: tabs cut off at 390 px`).toEqual([]);
          expect(
            await stacksStartingWithAGap(phone.page),
            `${screen.name}: a stack starting with an empty band at 390 px`,
          ).toEqual([]);
          expect(
            await labelsBrokenMidWord(phone.page),
            `${screen.name}: labels split mid-word at 390 px`,
          ).toEqual([]);
          await screenshot(phone.page, `${screen.name}-phone`);
          expectCleanRun(screen, phone.watch);
        } finally {
          await phone.page.close();
        }

        const small = await open(screen, SMALL_PHONE);
        try {
          const layout = await layoutProblems(small.page);
          expect(layout.horizontalOverflow, `${screen.name}: scrolls sideways at 320 px`).toBeNull();
          expect(layout.overlaps, `${screen.name}: overlapping controls at 320 px`).toEqual([]);
          expect(
            await labelsBrokenMidWord(small.page),
            `${screen.name}: labels split mid-word at 320 px`,
          ).toEqual([]);
        } finally {
          await small.page.close();
        }

        const desktop = await open(screen, DESKTOP);
        try {
          expect(await seriousA11yViolations(desktop.page), `${screen.name} at 1280 px`).toEqual([]);
          expect(
            await labelsBrokenMidWord(desktop.page),
            `${screen.name}: labels split mid-word at 1280 px`,
          ).toEqual([]);
          await screenshot(desktop.page, `${screen.name}-desktop`);
          expectCleanRun(screen, desktop.watch);
        } finally {
          await desktop.page.close();
        }
      });
    }
  });
}

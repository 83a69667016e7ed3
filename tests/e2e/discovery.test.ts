import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, newPage, PHONE, SMALL_PHONE, screenshot, stateDir } from "./harness";
import { executeSql } from "./support/d1";
import { gotoHydrated, holdRequests, holdScripts, reloadHydrated, signInAs } from "./support/pages";

/** The names on the expert cards, in order. */
const cardNames = (page: Page) => page.locator(".expert-card__name").allTextContents();
const search = (page: Page) => page.getByRole("searchbox", { name: "Search experts" });

/** Opens the Filters menu once any navigation has closed it (it closes itself after each one). */
async function openFilters(page: Page) {
  const menu = page.locator("details.filters-menu");
  await expect.poll(() => menu.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
  await menu.locator("summary").click();
  await expect.poll(() => menu.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
}

describe("the home page", () => {
  it("keeps each hero claim's words whole on a 360 px phone, and a very long expert name to two lines", async () => {
    const page = await newPage({ width: 360, height: 740, isMobile: true });
    await gotoHydrated(page, "/");
    const labels = await page.locator(".hero__claim span").evaluateAll((spans) =>
      spans.map((span) => {
        const range = document.createRange();
        range.selectNodeContents(span);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        return `${span.textContent}: ${lines <= (span.textContent ?? "").trim().split(/\s+/).length ? "whole" : "split"}`;
      }),
    );
    for (const label of labels) expect(label).toMatch(/: whole$/);

    // A name of 90 letters and a 100-letter title, as people type them: two lines each, no more.
    const card = page.locator(".expert-card").first();
    const heights = await card.evaluate((element) => {
      const name = element.querySelector<HTMLElement>(".expert-card__name")!;
      const title = element.querySelector<HTMLElement>(".expert-card__title")!;
      name.textContent = "Donaudampfschifffahrtsgesellschaftskapitaen ".repeat(2).trim();
      title.textContent = "Senior International Tax Planning and Cross-Border Compliance Consultant, ".repeat(
        2,
      );
      const lines = (el: HTMLElement) =>
        el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight);
      return [lines(name), lines(title)];
    });
    for (const lines of heights) expect(lines).toBeLessThanOrEqual(2.05);
  });

  it("scrolls the category carousel 300 px a step, disabling each button at its end", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/");
    const left = page.getByRole("button", { name: "Scroll categories left" });
    const right = page.getByRole("button", { name: "Scroll categories right" });
    const track = page.locator("#category-track");
    const scrollLeft = () => track.evaluate((element) => Math.round(element.scrollLeft));

    expect(await left.isDisabled()).toBe(true);
    expect(await right.isEnabled()).toBe(true);
    const max = await track.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(max).toBeGreaterThan(300);
    await right.click();
    await expect.poll(scrollLeft).toBe(300);
    await expect.poll(() => left.isEnabled()).toBe(true);
    await screenshot(page, "discovery-home-carousel-desktop");

    // Keep going by keyboard, a step at a time, to the end: the right button turns off there, and
    // keeps the focus (a disabled button would drop it to the page's top).
    await right.focus();
    for (let position = 300; position < max; ) {
      expect(await right.isEnabled()).toBe(true);
      await page.keyboard.press("Enter");
      position = Math.min(position + 300, max);
      await expect.poll(scrollLeft).toBe(position);
    }
    await expect.poll(() => right.isDisabled()).toBe(true);
    expect(await right.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    expect(await scrollLeft()).toBe(Math.round(max));

    await left.click();
    await expect.poll(() => right.isEnabled()).toBe(true);
    // Every category links to its page.
    await Promise.all([
      page.waitForURL("**/category/starting-a-business"),
      track.getByRole("link").first().click(),
    ]);
    await page.getByRole("heading", { level: 1, name: "Starting a Business Experts" }).waitFor();
  });

  it("brings each category tile fully into view as Tab reaches it, at 1280, 800 and 390 px", async () => {
    for (const viewport of [DESKTOP, { width: 800, height: 800 }, PHONE]) {
      const page = await newPage(viewport);
      await gotoHydrated(page, "/");
      const tiles = page.locator("#category-track a");
      const count = await tiles.count();
      expect(count).toBeGreaterThan(4);
      await tiles.first().focus();
      for (let index = 1; index < count; index++) {
        await page.keyboard.press("Tab");
        // The part of the focused tile the track shows, against its whole width.
        const shown = () =>
          page.evaluate(() => {
            const tile = document.activeElement as HTMLElement;
            const box = tile.getBoundingClientRect();
            const track = document.getElementById("category-track")?.getBoundingClientRect();
            if (!track) return "no track";
            const seen = Math.min(box.right, track.right) - Math.max(box.left, track.left);
            return `${tile.textContent}: ${Math.round(box.width - seen) <= 1 ? "whole" : `${Math.round(seen)} of ${Math.round(box.width)} px`}`;
          });
        await expect.poll(shown).toMatch(/: whole$/);
      }
      await page.context().close();
    }
  });

  it("steps the carousel without animation when reduced motion is asked for", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/");
    const track = page.locator("#category-track");
    const right = page.getByRole("button", { name: "Scroll categories right" });
    expect(await track.evaluate((element) => getComputedStyle(element).scrollBehavior)).toBe("smooth");

    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await track.evaluate((element) => getComputedStyle(element).scrollBehavior)).toBe("auto");
    // Read in the click's own task (after the app's handler): a smooth scroll would have barely begun.
    await track.evaluate((element) => {
      const into = window as unknown as { stepped?: Promise<number> };
      into.stepped = new Promise((resolve) =>
        element.ownerDocument.addEventListener(
          "click",
          () => queueMicrotask(() => resolve(Math.round(element.scrollLeft))),
          { once: true },
        ),
      );
    });
    await right.click();
    const scrollLeft = await page.evaluate(() => (window as unknown as { stepped: Promise<number> }).stepped);
    expect(scrollLeft).toBe(300);
  });

  it("shows a default icon when a category image fails to load", async () => {
    const page = await newPage(DESKTOP);
    await page.route("**/images/categories/funding-and-finance.webp", (route) =>
      route.fulfill({ status: 404, body: "" }),
    );
    await gotoHydrated(page, "/");
    const tile = page.locator('#category-track a[href="/category/funding-and-finance"]');
    await expect.poll(() => tile.getByTestId("category-fallback-icon").count()).toBe(1);
    expect(await tile.locator("img").count()).toBe(0);
    expect(await tile.textContent()).toContain("Funding and Finance");
    // The others keep their pictures.
    expect(await page.locator('#category-track a[href="/category/legal"] img').count()).toBe(1);
  });

  it("opens one FAQ answer at a time and closes it again", async () => {
    const page = await newPage(PHONE);
    await gotoHydrated(page, "/#faq");
    const faq = page.locator("section.faq");
    const first = faq.getByRole("button", { name: "How quickly will I get an answer?" });
    const second = faq.getByRole("button", { name: "Can I ask a follow-up question?" });
    const firstAnswer = faq.getByText("Every question is answered within 24 hours");
    const secondAnswer = faq.getByText("it counts as a new question");

    expect(await first.getAttribute("aria-expanded")).toBe("false");
    await first.click();
    await firstAnswer.waitFor({ state: "visible" });
    expect(await first.getAttribute("aria-expanded")).toBe("true");

    await second.click();
    await secondAnswer.waitFor({ state: "visible" });
    await expect.poll(() => firstAnswer.isVisible()).toBe(false);
    expect(await first.getAttribute("aria-expanded")).toBe("false");

    // Collapsible: pressing the open one closes it.
    await second.click();
    await expect.poll(() => secondAnswer.isVisible()).toBe(false);
    expect(await faq.locator('[aria-expanded="true"]').count()).toBe(0);
    await screenshot(page, "discovery-home-faq-phone");
  });

  it("features experts with View Profile and Browse All Experts, at 390 and 1280 px", async () => {
    for (const [name, viewport] of [
      ["phone", PHONE],
      ["desktop", DESKTOP],
    ] as const) {
      const page = await newPage(viewport);
      await gotoHydrated(page, "/");
      const featured = page.locator("section", {
        has: page.getByRole("heading", { name: "Featured Experts" }),
      });
      expect(await featured.locator(".expert-card").count()).toBeGreaterThan(0);
      expect(await featured.getByRole("link", { name: "Browse All Experts" }).getAttribute("href")).toBe(
        "/experts",
      );
      await screenshot(page, `discovery-home-${name}`);
      await Promise.all([
        page.waitForURL("**/demo-expert"),
        featured.getByRole("link", { name: "View Profile: Sarah Mitchell" }).click(),
      ]);
      await page.getByRole("heading", { name: "Sarah Mitchell", level: 1 }).waitFor();
    }
  });
});

describe("browsing experts", () => {
  it("filters from the URL, keeps the filters in the controls, and survives a reload", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/experts?q=marketing&sort=price_low");
    expect(await search(page).inputValue()).toBe("marketing");
    expect(await page.getByLabel("Sort by").inputValue()).toBe("price_low");
    const names = await cardNames(page);
    expect(names.length).toBeGreaterThan(1);
    expect(names).toContain("Marcus Reed");
    expect(names).not.toContain("Olivia Grant");
    const prices = (await page.locator(".expert-card__price strong").allTextContents()).map((price) =>
      Number(price.replace("$", "")),
    );
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    await page.getByText("Search: “marketing”").waitFor();

    await reloadHydrated(page);
    expect(await search(page).inputValue()).toBe("marketing");
    expect(await cardNames(page)).toEqual(names);
  });

  it("filters with the controls, writes them to the URL, and goes back through them", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/experts");
    const all = await cardNames(page);

    await search(page).fill("legal");
    await page.waitForURL("**/experts?q=legal");
    await expect.poll(() => cardNames(page)).toEqual(["Olivia Grant"]);
    // Starting a search is a step Back can undo; refining it is not another step.
    await search(page).fill("legal ol");
    await page.waitForURL("**/experts?q=legal+ol");
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/experts" && url.search === "");
    await expect.poll(() => search(page).inputValue()).toBe("");
    await page.goForward();
    await page.waitForURL("**/experts?q=legal+ol");
    await expect.poll(() => cardNames(page)).toEqual(["Olivia Grant"]);

    await search(page).fill("");
    await page.waitForURL((url) => url.pathname === "/experts" && url.search === "");
    await page.getByLabel("Category", { exact: true }).selectOption("marketing-and-branding");
    await page.waitForURL("**/experts?category=marketing-and-branding");
    await expect.poll(() => cardNames(page)).toEqual(["Marcus Reed", "James Whitaker", "Grace Thompson"]);

    await page.getByLabel("Sort by").selectOption("price_high");
    await page.waitForURL("**/experts?category=marketing-and-branding&sort=price_high");
    await expect.poll(() => cardNames(page)).toEqual(["Marcus Reed", "James Whitaker", "Grace Thompson"]);
    await page.getByLabel("Sort by").selectOption("price_low");
    await expect.poll(() => cardNames(page)).toEqual(["Grace Thompson", "James Whitaker", "Marcus Reed"]);

    // The Filters menu: price presets and a typed range.
    await openFilters(page);
    await page.getByRole("link", { name: "$0 - $100" }).click();
    await page.waitForURL("**/experts?category=marketing-and-branding&sort=price_low&maxPrice=100");
    await page.getByText("Price: Up to $100").waitFor();
    await openFilters(page);
    await page.getByLabel("Min ($)").fill("8");
    await page.getByLabel("Max ($)").fill("11");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL("**/experts?category=marketing-and-branding&sort=price_low&minPrice=8&maxPrice=11");
    await expect.poll(() => cardNames(page)).toEqual(["James Whitaker"]);
    await screenshot(page, "discovery-browse-filtered-desktop");

    // Back goes through the previous filters.
    await page.goBack();
    await page.waitForURL("**/experts?category=marketing-and-branding&sort=price_low&maxPrice=100");
    await expect.poll(() => cardNames(page)).toEqual(["Grace Thompson", "James Whitaker", "Marcus Reed"]);

    // A chip removes its filter; Clear All removes them all.
    await page.getByRole("link", { name: "Remove filter Category: Marketing and Branding" }).click();
    await page.waitForURL("**/experts?sort=price_low&maxPrice=100");
    await page.getByRole("link", { name: "Clear All" }).click();
    await page.waitForURL("**/experts?sort=price_low");
    await expect.poll(async () => (await cardNames(page)).length).toBe(Math.min(all.length, 12));
  });

  it("keeps a run of changes to one select as one step Back undoes, as arrowing through it makes", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/experts");
    const category = page.getByLabel("Category", { exact: true });
    await category.selectOption("marketing-and-branding");
    await page.waitForURL("**/experts?category=marketing-and-branding");
    // Arrow keys on a closed select: one change, and one load, per key.
    const sort = page.getByLabel("Sort by");
    await sort.focus();
    for (const value of ["price_low", "price_high", "top_rated"]) {
      await sort.selectOption(value);
      await page.waitForURL(`**/experts?category=marketing-and-branding&sort=${value}`);
    }
    await page.goBack();
    await page.waitForURL("**/experts?category=marketing-and-branding");
    await expect.poll(() => sort.inputValue()).toBe("recommended");
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/experts" && url.search === "");
    await expect.poll(() => category.inputValue()).toBe("");
  });

  it("shows a changed select's new option while its results load, so the next arrow goes on from it", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/category/sales");
    const release = await holdRequests(page, "**/*.data*");
    // Arrow keys on a closed select, with the results still on their way.
    const sort = page.getByLabel("Sort by");
    await sort.focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => page.locator(".skeleton-card").count()).toBe(6);
    expect(await sort.inputValue()).toBe("price_low");
    await page.keyboard.press("ArrowDown");
    expect(await sort.inputValue()).toBe("price_high");
    const category = page.getByLabel("Category", { exact: true });
    await category.selectOption("legal");
    expect(await category.inputValue()).toBe("legal");
    expect(await sort.inputValue()).toBe("price_high");

    release();
    await page.waitForURL("**/category/legal?sort=price_high");
    await expect.poll(() => cardNames(page)).toEqual(["Olivia Grant"]);
    expect([await category.inputValue(), await sort.inputValue()]).toEqual(["legal", "price_high"]);
    // The picks never shown were never history: Back shows the page they started from, as it was.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/category/sales" && url.search === "");
    await expect.poll(() => category.inputValue()).toBe("sales");
    expect(await sort.inputValue()).toBe("recommended");
  });

  it("keeps a long filter chip, and its remove button, inside the page's margins on a 320 px phone", async () => {
    const page = await newPage({ width: 320, height: 700 });
    for (const path of ["/category/marketing-and-branding", `/experts?q=${"strategy".repeat(8)}`]) {
      await gotoHydrated(page, path);
      const list = page.locator(".active-filters__list");
      const container = await list
        .locator("xpath=ancestor::*[contains(@class,'container')][1]")
        .boundingBox();
      const chip = await list.locator(".chip").first().boundingBox();
      expect(chip && container, path).toBeTruthy();
      // The container's padding is the page's margin.
      const margin = await list
        .locator("xpath=ancestor::*[contains(@class,'container')][1]")
        .evaluate((element) => Number.parseFloat(getComputedStyle(element).paddingRight));
      expect(chip!.x + chip!.width, path).toBeLessThanOrEqual(container!.x + container!.width - margin + 0.5);
    }
  });

  it("opens the Filters panel inside the window at every width from 320 to 1280 px", async () => {
    const page = await newPage(DESKTOP);
    for (const path of ["/experts", "/category/sales"]) {
      await gotoHydrated(page, path);
      await openFilters(page);
      const panel = page.locator(".filters-menu__panel");
      const outside: string[] = [];
      for (let width = 320; width <= 1280; width += 20) {
        await page.setViewportSize({ width, height: 800 });
        const box = await panel.boundingBox();
        if (!box || box.x < 0 || box.x + box.width > width) {
          outside.push(
            `${width}px: ${box ? `${Math.round(box.x)} to ${Math.round(box.x + box.width)}` : "hidden"}`,
          );
        }
      }
      expect(outside, path).toEqual([]);
    }
  });

  it("changes category pages from the select and says No Experts Found when nothing matches", async () => {
    const page = await newPage(PHONE);
    await gotoHydrated(page, "/category/sales");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sales Experts");
    await page.getByLabel("Category", { exact: true }).selectOption("legal");
    await page.waitForURL("**/category/legal");
    await expect.poll(() => cardNames(page)).toEqual(["Olivia Grant"]);
    await search(page).fill("zeppelin");
    await page.waitForURL("**/category/legal?q=zeppelin");
    await page.getByRole("heading", { name: "No Experts Found" }).waitFor();
    await screenshot(page, "discovery-browse-empty-phone");
    await gotoHydrated(page, "/experts");
    await screenshot(page, "discovery-browse-phone");
  });

  it("acts on a search typed, or a select changed, before the page's script ran", async () => {
    const page = await newPage(DESKTOP);
    let release = await holdScripts(page);
    await page.goto("/experts", { waitUntil: "domcontentloaded" });
    await search(page).fill("legal");
    release();
    await page.waitForURL("**/experts?q=legal");
    await expect.poll(() => cardNames(page)).toEqual(["Olivia Grant"]);
    expect(await search(page).inputValue()).toBe("legal");

    release = await holdScripts(page);
    await page.goto("/category/sales", { waitUntil: "domcontentloaded" });
    await page.getByLabel("Sort by").selectOption("price_high");
    release();
    await page.waitForURL("**/category/sales?sort=price_high");
    await expect.poll(() => page.getByLabel("Sort by").inputValue()).toBe("price_high");
  });

  it("shows six placeholders while the next results load", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/experts");
    const release = await holdRequests(page, "**/experts.data*");
    await page.getByLabel("Sort by").selectOption("top_rated");
    await expect.poll(() => page.locator(".skeleton-card").count()).toBe(6);
    await screenshot(page, "discovery-browse-loading-desktop");
    release();
    await expect.poll(() => page.locator(".skeleton-card").count()).toBe(0);
    expect((await cardNames(page)).length).toBeGreaterThan(0);
  });

  it("links each card to the custom URL or /expert/{id}", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/experts?q=whitaker");
    const href = await page.getByRole("link", { name: "View Profile: James Whitaker" }).getAttribute("href");
    expect(href).toMatch(/^\/expert\/\d+$/);
    await gotoHydrated(page, "/experts?q=reed");
    expect(await page.getByRole("link", { name: "View Profile: Marcus Reed" }).getAttribute("href")).toBe(
      "/marcus-reed",
    );
  });

  it("loads every script of a category page and a profile at once, with no redirect on the way", async () => {
    const page = await newPage(DESKTOP);
    const scripts: { path: string; status: number }[] = [];
    page.on("response", (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith("/build/")) scripts.push({ path: pathname, status: response.status() });
    });
    await gotoHydrated(page, "/category/sales");
    await page
      .getByRole("link", { name: /^View Profile: / })
      .first()
      .click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).not.toBe("Sales Experts");
    await gotoHydrated(page, "/marcus-reed");

    const routeModules = scripts
      .filter(({ path }) => path.startsWith("/build/routes/"))
      .map(({ path }) => path);
    expect(routeModules.some((path) => path.includes("category"))).toBe(true);
    expect(routeModules.some((path) => path.includes("customUrl") || path.includes("expert."))).toBe(true);
    expect(scripts.filter(({ status }) => status !== 200 && status !== 304)).toEqual([]);
  });
});

describe("expert profiles and favourites", () => {
  it("tells a signed-out visitor to log in for 3 seconds when they press the heart", async () => {
    const page = await newPage(PHONE);
    await gotoHydrated(page, "/demo-expert");
    await page.getByRole("button", { name: "Favorite Sarah Mitchell" }).click();
    const notice = page.getByText("Login required, please login to favorite experts");
    await notice.waitFor({ state: "visible" });
    const login = page.getByRole("link", { name: "Log in" });
    expect(await login.getAttribute("href")).toBe("/auth?redirectTo=%2Fdemo-expert");
    expect(
      await page.getByRole("button", { name: "Favorite Sarah Mitchell" }).getAttribute("aria-pressed"),
    ).toBe("false");
    await screenshot(page, "discovery-profile-login-notice-phone");
    const shownAt = Date.now();
    await notice.waitFor({ state: "hidden", timeout: 5_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(2_000);
  });

  it("adds and removes a favourite at once, and keeps it across reloads and the dashboard", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "client");
    await gotoHydrated(page, "/marcus-reed");
    const heart = page.getByRole("button", { name: "Favorite Marcus Reed" });
    const pressed = () => heart.getAttribute("aria-pressed");
    expect(await pressed()).toBe("false");

    // Hold the server's answer: the heart must already show the new state while it is pending.
    const release = await holdRequests(page, "**/marcus-reed.data*", "POST");
    // waitForLoadState("networkidle") would not wait: the page reached that state before the click.
    const saved = () =>
      page.waitForResponse(
        (response) => response.url().includes("/marcus-reed.data") && response.request().method() === "POST",
      );
    const added = saved();
    await heart.click();
    await expect.poll(pressed).toBe("true");
    release();
    expect((await added).ok()).toBe(true);
    await page.unroute("**/marcus-reed.data*");
    await reloadHydrated(page);
    expect(await pressed()).toBe("true");

    await gotoHydrated(page, "/dashboard");
    const favorites = page.locator("section", { has: page.locator("#favorite-experts") });
    expect(await favorites.locator(".expert-card__name").allTextContents()).toContain("Marcus Reed");

    await gotoHydrated(page, "/marcus-reed");
    const removed = saved();
    await heart.click();
    await expect.poll(pressed).toBe("false");
    expect((await removed).ok()).toBe(true);
    await reloadHydrated(page);
    expect(await pressed()).toBe("false");
  });

  it("puts the heart back and says so when the request fails, the server errs or the browser is offline", async () => {
    for (const failure of ["connection", "server error", "offline"] as const) {
      const page = await newPage(DESKTOP);
      await signInAs(page, "client");
      await gotoHydrated(page, "/hannah-kim");
      const heart = page.getByRole("button", { name: "Favorite Hannah Kim" });
      expect(await heart.getAttribute("aria-pressed"), failure).toBe("false");
      if (failure === "offline") {
        // The first press also looks its route up on the server, which fails before the clientAction.
        await page.context().setOffline(true);
      } else {
        await page.route("**/hannah-kim.data*", (route) =>
          route.request().method() !== "POST"
            ? route.continue()
            : failure === "connection"
              ? route.abort("connectionfailed")
              : route.fulfill({ status: 500, contentType: "text/plain", body: "Internal Server Error" }),
        );
      }
      await heart.click();
      await page.getByText("Couldn't update your favorites").first().waitFor();
      // It says which: the server was not reached, or it was and failed.
      const why =
        failure === "server error"
          ? "Something went wrong. Please try again."
          : "We couldn't reach the server. Please try again.";
      expect(await page.getByText(why).first().isVisible(), failure).toBe(true);
      await expect.poll(() => heart.getAttribute("aria-pressed"), { message: failure }).toBe("false");
      // Still the profile, not the error screen.
      expect(await page.getByRole("heading", { name: "Hannah Kim", level: 1 }).isVisible(), failure).toBe(
        true,
      );
      await page.context().close();
    }
  });

  it("takes a favourite off from the dashboard at once, hands focus to the heading and brings it back if that fails", async () => {
    const page = await newPage(PHONE);
    await signInAs(page, "client");
    await gotoHydrated(page, "/dashboard");
    const favorites = page.locator("section", { has: page.locator("#favorite-experts") });
    const visibleNames = () => favorites.locator(".expert-card__name:visible").allTextContents();
    expect(await visibleNames()).toEqual(expect.arrayContaining(["Elena Vasquez", "Aisha Rahman"]));
    try {
      // A server error: the card comes back and the page says so, still the dashboard.
      await page.route("**/dashboard.data*", (route) =>
        route.request().method() === "POST"
          ? route.fulfill({ status: 500, contentType: "text/plain", body: "Internal Server Error" })
          : route.continue(),
      );
      await page.getByRole("button", { name: "Remove from favorites: Elena Vasquez" }).click();
      await page.getByText("Couldn't update your favorites").first().waitFor();
      await expect.poll(visibleNames).toContain("Elena Vasquez");
      expect(await page.getByRole("heading", { name: "My Dashboard" }).isVisible()).toBe(true);
      // Said as it is, and the focus is back on the button, to try again.
      await expect
        .poll(() => favorites.getByRole("status").textContent())
        .toBe("Elena Vasquez is still in your favorite experts.");
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
        .toBe("Remove from favorites: Elena Vasquez");
      await page.unroute("**/dashboard.data*");

      // Held on its way, the card is already gone; with the keyboard, focus waits on the heading.
      const release = await holdRequests(page, "**/dashboard.data*", "POST");
      const removed = page.waitForResponse(
        (response) => response.url().includes("/dashboard.data") && response.request().method() === "POST",
      );
      const remove = page.getByRole("button", { name: "Remove from favorites: Elena Vasquez" });
      await remove.focus();
      await page.keyboard.press("Enter");
      await expect.poll(visibleNames).not.toContain("Elena Vasquez");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("favorite-experts");
      // Nothing is said before the server has answered.
      expect(await favorites.getByRole("status").textContent()).toBe("");
      release();
      expect((await removed).ok()).toBe(true);
      await expect
        .poll(() => favorites.getByRole("status").textContent())
        .toBe("Elena Vasquez was removed from your favorite experts.");
      await page.unroute("**/dashboard.data*");
      await reloadHydrated(page);
      expect(await visibleNames()).not.toContain("Elena Vasquez");
      expect(await visibleNames()).toContain("Aisha Rahman");
      await screenshot(page, "dashboard-favorite-removed-phone");
    } finally {
      await executeSql(
        stateDir(),
        `INSERT OR IGNORE INTO user_favorites (user_id, expert_id)
         SELECT u.id, e.id FROM users u, experts e WHERE u.username = 'demo-client' AND e.custom_url = 'elena-vasquez';`,
      );
    }
  });

  it("keeps the Back button clear of the photo, from 320 to 1280 px", async () => {
    const page = await newPage(DESKTOP);
    await gotoHydrated(page, "/demo-expert");
    for (const width of [320, 390, 768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const back = (await page.getByRole("link", { name: "Back" }).boundingBox())!;
      const photo = (await page.locator(".profile__avatar").boundingBox())!;
      const apart = photo.x >= back.x + back.width || photo.y >= back.y + back.height + 4;
      expect(
        apart,
        `${width} px: Back ends at y ${back.y + back.height}, the photo starts at y ${photo.y}`,
      ).toBe(true);
    }
  });

  it("shows the profile with its fixed action bar on a phone, and the Q&A tab", async () => {
    const page = await newPage(PHONE);
    await gotoHydrated(page, "/demo-expert");
    const bar = page.locator(".profile__bottom-bar");
    expect(await bar.isVisible()).toBe(true);
    expect(await bar.evaluate((element) => getComputedStyle(element).position)).toBe("fixed");
    expect(await bar.getByRole("link", { name: /Ask a Question/ }).getAttribute("href")).toMatch(
      /^\/ask\/\d+$/,
    );
    await screenshot(page, "discovery-profile-phone");
    await page.getByRole("tab", { name: /Q&A/ }).click();
    await page.getByText("Should we split equity 50/50", { exact: false }).first().waitFor();
    await screenshot(page, "discovery-profile-qa-phone");

    const desktop = await newPage(DESKTOP);
    await gotoHydrated(desktop, "/demo-expert");
    expect(await desktop.locator(".profile__bottom-bar").isVisible()).toBe(false);
    await screenshot(desktop, "discovery-profile-desktop");
  });

  it("scrolls what Tab reaches clear of the phone's action bar and header, down to the footer", async () => {
    for (const viewport of [SMALL_PHONE, PHONE]) {
      const page = await newPage(viewport);
      await gotoHydrated(page, "/demo-expert");
      const hidden: string[] = [];
      let last = "";
      for (let step = 0; step < 120; step++) {
        await page.keyboard.press("Tab");
        const focused = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element || element === document.body) return null;
          const box = element.getBoundingClientRect();
          const bar = document.querySelector(".profile__bottom-bar")?.getBoundingClientRect();
          const header = document.querySelector(".site-header")?.getBoundingClientRect();
          const name = `${element.tagName} "${(element.innerText || element.getAttribute("aria-label") || element.getAttribute("name") || "").trim().slice(0, 40)}"`;
          // The skip link shows over the header; a panel taller than the room between the two
          // bars cannot fit, and only has to start in view.
          const fixed = element.closest(".profile__bottom-bar, .site-header, .skip-link") !== null;
          const top = header?.bottom ?? 0;
          const bottom = bar?.top ?? window.innerHeight;
          const fits = box.height <= bottom - top;
          const covered =
            !fixed && (box.top < top - 1 || (fits ? box.bottom > bottom + 1 : box.top > bottom));
          return { name, covered, id: `${name}@${Math.round(box.top + window.scrollY)}` };
        });
        if (!focused || focused.id === last) break;
        last = focused.id;
        if (focused.covered) hidden.push(focused.name);
      }
      expect(last, "Tab reached the footer's last control").toMatch(/^BUTTON "Subscribe"/);
      expect(hidden, `${viewport.width} px`).toEqual([]);
      await page.context().close();
    }
  });
});

describe("the client dashboard", () => {
  it("titles each dashboard section for itself, on arrival and after following its link", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "client");
    const titles: Array<[string, string, string]> = [
      ["/dashboard/questions", "Questions", "My Questions | Expert Answers"],
      ["/dashboard/bookings", "Bookings", "My Bookings | Expert Answers"],
      ["/dashboard/settings", "Settings", "Account Settings | Expert Answers"],
      ["/dashboard", "Overview", "My Dashboard | Expert Answers"],
    ];
    for (const [path, , title] of titles) {
      await gotoHydrated(page, path);
      expect(await page.title(), path).toBe(title);
    }
    // The same after the dashboard's own links (client-side navigation).
    for (const [path, link, title] of titles) {
      await page.getByRole("main").getByRole("link", { name: link, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      await expect.poll(() => page.title()).toBe(title);
    }
  });

  it("switches between All, Pending and Answered questions", async () => {
    const page = await newPage(DESKTOP);
    await signInAs(page, "client");
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    const questions = page.locator("section", { has: page.getByRole("heading", { name: "My Questions" }) });
    const visibleItems = () => questions.locator('[role="tabpanel"]:not([hidden]) .question-item').count();
    const visibleText = () => questions.locator('[role="tabpanel"]:not([hidden])').textContent();

    // Sign-in ends in a client-side navigation that React renders in a transition: the URL can
    // change a moment before the dashboard is on screen.
    await expect.poll(visibleItems).toBeGreaterThan(2);
    const all = await visibleItems();
    await screenshot(page, "discovery-dashboard-desktop");

    await questions.getByRole("tab", { name: "Pending" }).click();
    await expect.poll(visibleText).toContain("Awaiting expert answer");
    const pending = await visibleItems();
    expect(await visibleText()).not.toContain("Answer ·");

    await questions.getByRole("tab", { name: "Answered" }).click();
    await expect.poll(visibleText).not.toContain("Awaiting expert answer");
    const answered = await visibleItems();
    expect(answered).toBeGreaterThan(0);
    expect(pending + answered).toBe(all);
    // Each tab's name carries its count, for those who cannot see the badge.
    expect(await questions.getByRole("tab", { name: `Answered (${answered})`, exact: true }).count()).toBe(1);
    expect(await questions.getByRole("tab", { name: `All (${all})`, exact: true }).count()).toBe(1);

    // Keyboard: arrows move between the tabs.
    await questions.getByRole("tab", { name: "Answered" }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect
      .poll(() => questions.getByRole("tab", { name: "Pending" }).getAttribute("aria-selected"))
      .toBe("true");

    await gotoHydrated(page, "/dashboard/bookings");
    await page.getByRole("heading", { name: "My Bookings" }).waitFor();
    expect(await page.locator(".bookings-table tbody tr").count()).toBeGreaterThan(0);

    const phone = await newPage(PHONE);
    await signInAs(phone, "client");
    await screenshot(phone, "discovery-dashboard-phone");
    await gotoHydrated(phone, "/dashboard/bookings");
    await screenshot(phone, "discovery-dashboard-bookings-phone");
  });

  it("never shows a signed-in visitor the edge-cached anonymous home page", async () => {
    const page = await newPage(DESKTOP);
    for (let visit = 0; visit < 3; visit++) await page.goto("/");
    await expect
      .poll(async () => (await page.request.get("/")).headers()["x-edge-cache"])
      .toMatch(/HIT|STALE/);
    await signInAs(page, "client");
    await gotoHydrated(page, "/");
    const banner = page.getByRole("banner");
    expect(await banner.getByRole("link", { name: "My Dashboard" }).isVisible()).toBe(true);
    expect(await banner.getByRole("link", { name: "Sign Up" }).count()).toBe(0);
  });
});

describe("not found", () => {
  it("shows Category Not Found with a way home, and the 404 screen for unknown experts", async () => {
    const page = await newPage(PHONE);
    const category = await page.goto("/category/underwater-basket-weaving");
    expect(category?.status()).toBe(404);
    await page.getByRole("heading", { name: "Category Not Found" }).waitFor();
    expect(await page.getByRole("link", { name: "Return to Home" }).getAttribute("href")).toBe("/");
    await screenshot(page, "discovery-category-not-found-phone");
    const expert = await page.goto("/no-such-expert");
    expect(expert?.status()).toBe(404);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
  });
});

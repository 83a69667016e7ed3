import type { Locator, Page, Route } from "playwright-core";
import { expect } from "vitest";
import { DEMO_ACCOUNTS } from "../../../app/lib/demo-accounts";

/** What a form says when its submission cannot reach the server (app/components/keep-form-when-offline.ts). */
export const OFFLINE_MESSAGE =
  "We couldn't reach the server. Check your connection and try again: what you entered is still here.";

/**
 * Holds back the page's JavaScript until the returned function is called: the page is shown as the
 * server sent it, as on a slow phone before hydration.
 */
export function holdScripts(page: Page): Promise<() => void> {
  return holdRequests(page, "**/build/**/*.js");
}

/**
 * Holds back the requests matching `url` (only `method`'s, when given; the others go through) until
 * the returned function is called, then settles each held one with `settle`.
 */
async function holdUntilCalled(
  page: Page,
  url: string,
  method: string | undefined,
  settle: (route: Route) => Promise<void>,
): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    if (method && route.request().method() !== method) return route.continue().catch(() => {});
    await held;
    await settle(route);
  });
  return release;
}

/**
 * Holds back the requests matching `url` (only `method`'s, when given) until the returned function
 * is called: a slow answer on cue. A request the page gave up on meanwhile is let go quietly.
 */
export function holdRequests(page: Page, url: string, method?: string): Promise<() => void> {
  return holdUntilCalled(page, url, method, (route) => route.continue().catch(() => {}));
}

/**
 * Holds back the requests matching `url` (only `method`'s, when given) until the returned function
 * is called, then fails them as a dropped connection does (`reason`): they never reach the server.
 */
export function dropRequestsOnCue(
  page: Page,
  url: string,
  {
    method,
    reason = "connectionfailed",
  }: { method?: string; reason?: "connectionfailed" | "internetdisconnected" } = {},
): Promise<() => void> {
  return holdUntilCalled(page, url, method, (route) => route.abort(reason));
}

/**
 * Sends a form (`send`) whose POST to `url` the server answers with a 500, and waits for the error
 * screen that replaces the page; later requests go through again.
 */
export async function sendIntoServerError(page: Page, url: string, send: () => Promise<void>) {
  await page.route(url, (route) =>
    route.request().method() === "POST" ? route.fulfill({ status: 500, body: "" }) : route.continue(),
  );
  await send();
  await page.getByRole("heading", { name: "Something went wrong" }).waitFor();
  await page.unroute(url);
}

export type DemoRole = keyof typeof DEMO_ACCOUNTS;

/**
 * Runs a navigation, and once more if it times out. `wrangler dev`'s local proxy now and then holds a
 * response back until the browser gives up (seen in CI: the Worker logged its answer after 35 ms,
 * the proxy after 30 s, with no error on either side). When it is the page's body the navigation
 * times out; when it is one of the page's scripts the page never hydrates (`waitForHydration`). A
 * second try shows whether the page itself is at fault. The stall is logged, so a run that needed the
 * retry says so.
 */
export async function withNavigationRetry<T>(path: string, navigate: () => Promise<T>): Promise<T> {
  try {
    return await navigate();
  } catch (error) {
    if (!(error instanceof Error) || error.name !== "TimeoutError") throw error;
    console.warn(`[e2e] ${path}: timed out (${error.message.split("\n")[0]}); trying once more`);
    return navigate();
  }
}

/**
 * Waits until root marks <html data-hydrated> (React is live; clicks before that would hit static
 * HTML). When it does not come in time, the error names the page's scripts and styles that never
 * arrived: a TimeoutError (which `withNavigationRetry` tries again) when some are missing, since the
 * proxy held them back; a plain error when all arrived, since then the page itself failed to hydrate.
 */
export async function waitForHydration(page: Page, { timeout }: { timeout?: number } = {}) {
  try {
    await page.waitForSelector("html[data-hydrated]", { timeout });
  } catch (error) {
    if (!(error instanceof Error) || error.name !== "TimeoutError") throw error;
    const missing = await page
      .evaluate(() => {
        const arrived = new Set(performance.getEntriesByType("resource").map((entry) => entry.name));
        return [
          ...document.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload], link[rel=stylesheet]"),
        ]
          .map((link) => link.href)
          .concat(
            [...document.querySelectorAll<HTMLScriptElement>("script[src]")].map((script) => script.src),
          )
          .filter((url) => !arrived.has(url))
          .map((url) => new URL(url).pathname);
      })
      .catch(() => [] as string[]);
    if (missing.length === 0) {
      throw new Error(`${page.url()} did not hydrate, though every script and style arrived`, {
        cause: error,
      });
    }
    error.message = `${page.url()} did not hydrate: ${[...new Set(missing)].join(", ")} never arrived\n${error.message}`;
    throw error;
  }
}

export async function gotoHydrated(page: Page, path: string) {
  return withNavigationRetry(path, async () => {
    const response = await page.goto(path);
    await waitForHydration(page);
    return response;
  });
}

/** Reloads the page (a GET, so safe to send twice) and waits for hydration, as `gotoHydrated` does. */
export async function reloadHydrated(page: Page) {
  return withNavigationRetry(new URL(page.url()).pathname, async () => {
    const response = await page.reload();
    await waitForHydration(page);
    return response;
  });
}

/** Signs in through the /auth screen as a demo account and waits for the landing page. */
export async function signInAs(page: Page, role: DemoRole, { redirectTo }: { redirectTo?: string } = {}) {
  const { username, password } = DEMO_ACCOUNTS[role];
  await gotoHydrated(page, redirectTo ? `/auth?${new URLSearchParams({ redirectTo })}` : "/auth");
  const form = page.locator("form#login");
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Password").fill(password);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== "/auth"),
    form.getByRole("button", { name: "Sign In" }).click(),
  ]);
  await page.waitForSelector("html[data-hydrated]");
}

/** Registers a new client through /register, as a person does, and waits for their dashboard. */
export async function registerAs(page: Page, account: { name: string; username: string; password: string }) {
  await gotoHydrated(page, "/register");
  const register = page.locator("form#register");
  await register.getByLabel("Name", { exact: true }).fill(account.name);
  await register.getByLabel("Username").fill(account.username);
  await register.getByLabel("Email").fill(`${account.username}@example.com`);
  await register.getByLabel("Password").fill(account.password);
  await Promise.all([
    page.waitForURL("**/dashboard"),
    register.getByRole("button", { name: "Create Account" }).click(),
  ]);
}

/** Logs out with the header's button, as a person does; the home page follows. */
export async function logOut(page: Page) {
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/"),
    page
      .getByRole("banner")
      .getByRole("button", { name: /Logout/ })
      .click(),
  ]);
}

/**
 * Presses `button` after the session has ended elsewhere (another tab, or revoked): the browser has no
 * session left, so the form's answer is the login page (`loginPath`) saying so.
 */
export async function submitAfterSessionEnds(page: Page, button: string, loginPath: string) {
  await page.context().clearCookies();
  await Promise.all([
    page.waitForURL((url) => url.pathname === loginPath),
    page.getByRole("button", { name: button }).click(),
  ]);
  await page.locator("li.toast").getByText("Your session has ended").waitFor();
}

/** The demo expert's id, as /test-audio's expert select (demo mode) chooses it by default. */
export async function demoExpertId(page: Page): Promise<number> {
  await gotoHydrated(page, "/test-audio");
  const id = Number(await page.locator("select[name=expertId]").inputValue());
  if (!(id > 0)) throw new Error(`/test-audio chose no expert (${id})`);
  return id;
}

/** Presses `button` twice in one task, as a quick double click lands both presses before the page can draw again. */
export function pressTwiceAtOnce(button: Locator) {
  return button.evaluate((element: HTMLElement) => {
    element.click();
    element.click();
  });
}

/**
 * Records the POST requests whose URL contains `part` from now on. `settled()` gives them once the
 * first has been reported (Playwright may report a request after the page has drawn its answer) and
 * a moment more has passed for any other.
 */
export function watchPosts(page: Page, part: string) {
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes(part)) sent.push(request.url());
  });
  return {
    async settled() {
      await expect.poll(() => sent.length).toBeGreaterThan(0);
      await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
      return sent;
    },
  };
}

import type { BrowserContext, Page } from "playwright-core";
import { baseUrl } from "../harness";
import { getBrowser, openPage, type Viewport } from "./browser";
import { signInAs } from "./pages";
import type { ScreenRole } from "./screens";

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** Each role signs in once per test file; its cookies are reused by every context that needs them. */
const states = new Map<ScreenRole, Promise<StorageState | undefined>>();

function storageStateOf(role: ScreenRole): Promise<StorageState | undefined> {
  let state = states.get(role);
  if (!state) {
    state = (async () => {
      if (role === "anonymous") return undefined;
      const page = await openPage(baseUrl());
      await signInAs(page, role);
      const saved = await page.context().storageState();
      await page.context().close();
      return saved;
    })();
    states.set(role, state);
  }
  return state;
}

/**
 * A browser context signed in as `role` (or signed out), at `viewport`. Unlike harness `newPage`,
 * it is not closed after each test: the caller closes it (one context serves many screens).
 */
export async function contextAs(role: ScreenRole, viewport: Viewport): Promise<BrowserContext> {
  const storageState = await storageStateOf(role);
  const context = await (await getBrowser()).newContext({
    baseURL: baseUrl(),
    storageState,
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.isMobile ?? false,
    hasTouch: viewport.isMobile ?? false,
    locale: "en-US",
    timezoneId: "UTC",
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

/** A page signed in as `role`, in a fresh context that the harness closes after the test. */
export async function pageAs(role: ScreenRole, viewport: Viewport): Promise<Page> {
  const page = await openPage(baseUrl(), viewport);
  const storageState = await storageStateOf(role);
  if (storageState) await page.context().addCookies(storageState.cookies);
  return page;
}

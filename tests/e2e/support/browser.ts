import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { RESULTS_DIR } from "./server";

export type Viewport = { width: number; height: number; isMobile?: boolean };

/** An iPhone-sized phone (touch, mobile viewport meta honoured). */
export const PHONE: Viewport = { width: 390, height: 844, isMobile: true };
/** A laptop-sized desktop window. */
/** The narrowest phones still in use (iPhone SE, first generation). */
export const SMALL_PHONE: Viewport = { width: 320, height: 640, isMobile: true };
export const DESKTOP: Viewport = { width: 1280, height: 800 };

export const SCREENSHOTS_DIR = join(RESULTS_DIR, "screenshots");

const SYSTEM_CHROMIUMS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/opt/google/chrome/chrome",
];

/** Flags for a quiet, deterministic browser that never talks to Google's services. */
const BASE_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  // A synthetic microphone that needs no prompt, so the audio recorder can be tested.
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
];

/**
 * @sparticuz/chromium's flags are made for AWS Lambda. Left out here:
 * - --disable-web-security, --allow-running-insecure-content: they switch off the same-origin policy
 *   and mixed-content blocking, and the tests must see what a real browser does;
 * - --single-process: closing a browser context then takes the whole browser down (and the Lambda
 *   sandbox problem it works around does not arise with --no-sandbox on an ordinary Linux);
 * - --headless='shell': Playwright adds its own headless flag.
 */
const UNWANTED_SPARTICUZ_ARGS = [
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--single-process",
  "--headless",
];

export type ChromiumChoice = { executablePath: string; args: string[]; source: string };

/** CHROMIUM_PATH, else a system Chromium or Chrome, else the binary of the @sparticuz/chromium package. */
export async function findChromium(): Promise<ChromiumChoice> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, which does not exist.`);
    return { executablePath: fromEnv, args: [], source: "CHROMIUM_PATH" };
  }
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path));
  if (system) return { executablePath: system, args: [], source: "system" };

  const { default: sparticuz } = await import("@sparticuz/chromium");
  // Extracts the brotli-packed binary (and its fonts and SwiftShader) into the temp dir once.
  const executablePath = await sparticuz.executablePath();
  const args = sparticuz.args.filter((arg) => !UNWANTED_SPARTICUZ_ARGS.some((flag) => arg.startsWith(flag)));
  return { executablePath, args, source: "@sparticuz/chromium" };
}

let browser: Promise<Browser> | undefined;
const openContexts = new Set<BrowserContext>();

/** The one browser of this test file, launched on first use. */
export function getBrowser(): Promise<Browser> {
  browser ??= (async () => {
    const choice = await findChromium();
    try {
      return await chromium.launch({
        executablePath: choice.executablePath,
        args: [...new Set([...choice.args, ...BASE_ARGS])],
        headless: true,
        timeout: 60_000,
      });
    } catch (error) {
      throw new Error(
        `Chromium (${choice.source}: ${choice.executablePath}) did not start. ` +
          "Set CHROMIUM_PATH to a Chromium or Chrome binary, or install one (Debian: apt-get install chromium).\n" +
          String(error),
      );
    }
  })();
  return browser;
}

/**
 * A page in a fresh browser context (own cookies and storage) whose relative URLs resolve against
 * the server under test: `await page.goto("/")`. Contexts close after each test. `timezoneId` sets
 * the browser's time zone (UTC by default).
 */
export async function openPage(
  baseURL: string,
  viewport: Viewport = DESKTOP,
  { timezoneId = "UTC", acceptDownloads = true }: { timezoneId?: string; acceptDownloads?: boolean } = {},
): Promise<Page> {
  const context = await (await getBrowser()).newContext({
    baseURL,
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.isMobile ?? false,
    hasTouch: viewport.isMobile ?? false,
    locale: "en-US",
    // The browser's own zone (UTC unless a test plays a visitor somewhere else).
    timezoneId,
    acceptDownloads,
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  openContexts.add(context);
  context.once("close", () => openContexts.delete(context));
  const page = await context.newPage();
  page.on("pageerror", (error) =>
    console.error(`[browser] uncaught error on ${page.url()}: ${error.message}`),
  );
  return page;
}

/** Saves a full-page PNG as results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const safeName = name.replace(/[^a-zA-Z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "screenshot";
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${safeName}.png`);
  // Finished animations, not a frame in the middle of a dialog's fade-in or a toast's slide.
  await page.screenshot({ path, fullPage: true, animations: "disabled" });
  return path;
}

export async function closeContexts() {
  await Promise.all([...openContexts].map((context) => context.close().catch(() => undefined)));
  openContexts.clear();
}

export async function closeBrowser() {
  if (!browser) return;
  const launched = browser;
  browser = undefined;
  await closeContexts();
  await (await launched.catch(() => undefined))?.close();
}

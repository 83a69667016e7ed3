import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * The axe-core the scans run: the project's own (package.json pins it), not the older copy that
 * @axe-core/playwright 4.13 carries. 4.13 is the last of that wrapper to run on Node 20 (4.14 wants
 * Node 22.12), and the wrapper only injects the engine.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** What went wrong in the browser while a page was open. */
export type PageWatch = {
  /** Content-Security-Policy violations (the browser blocked something). */
  cspViolations: string[];
  /** Uncaught errors, and hydration that failed or had to start over. */
  pageErrors: string[];
  /** Requests for Stripe.js or the app's Payment Element chunk. */
  stripeRequests: string[];
};

/**
 * Starts recording CSP violations, uncaught errors and Stripe requests on `page`; read the returned
 * object after the checks. Call before the first navigation.
 */
export async function watchPage(page: Page): Promise<PageWatch> {
  const watch: PageWatch = { cspViolations: [], pageErrors: [], stripeRequests: [] };
  await page.exposeBinding("__reportCspViolation", (_source, text: string) => {
    watch.cspViolations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void })
        .__reportCspViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    if (/Content Security Policy/i.test(message.text())) watch.cspViolations.push(message.text());
    // React 18 recovers from a hydration mismatch by rendering the page again, and only logs it.
    else if (/hydrat|Minified React error #(418|419|422|423|425)\b/i.test(message.text())) {
      watch.pageErrors.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => watch.pageErrors.push(`${page.url()}: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (/^https:\/\/([a-z0-9-]+\.)*js\.stripe\.com\//.test(url) || /\/build\/.*stripe[^/]*\.js/i.test(url)) {
      watch.stripeRequests.push(url);
    }
  });
  return watch;
}

/**
 * Serious and critical axe-core violations on the page as it is now (WCAG 2.x A/AA and best
 * practices), with WCAG 2.2's minimum target size (2.5.8, 24 px or spaced apart), which axe leaves off
 * unless asked.
 */
export async function seriousA11yViolations(
  page: Page,
  { include }: { include?: string } = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page, axeSource: AXE_SOURCE }).options({
    rules: { "target-size": { enabled: true } },
  });
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `[${violation.impact}] ${violation.id}: ${violation.help} — ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(" "))
          .join(" | ")}`,
    );
}

/**
 * Sign-in fields that do not tell the browser what they hold (WCAG 1.3.5): without `autocomplete`,
 * password managers guess, and may offer to save a new password on a sign-in form.
 */
export async function credentialFieldsWithoutAutocomplete(page: Page): Promise<string[]> {
  return page.$$eval('input[type="password"], input[name="username"]:not([type="hidden"])', (inputs) =>
    inputs
      .filter((input) => !(input.getAttribute("autocomplete") ?? "").trim())
      .map((input) => `input[name="${input.getAttribute("name") ?? ""}"]`),
  );
}

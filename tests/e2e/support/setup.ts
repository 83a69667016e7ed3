import { afterAll, afterEach } from "vitest";
import { closeBrowser, closeContexts } from "./browser";

// Every test starts from a clean browser state; the browser itself lives as long as its test file.
afterEach(closeContexts);
afterAll(closeBrowser);

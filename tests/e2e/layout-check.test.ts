/**
 * The phone-width checker (tests/e2e/support/layout.ts) itself: it must catch sideways scrolling,
 * overlapping controls and controls hidden under a fixed bar, and stay quiet about layouts that are
 * fine (nested controls, carousels that scroll inside themselves, visually hidden helpers, links that
 * wrap side by side, the content of a closed <details>).
 */
import { describe, expect, it } from "vitest";
import { newPage, PHONE } from "./harness";
import { labelsBrokenMidWord, layoutProblems, tabsOutOfView } from "./support/layout";

const page = (body: string) =>
  `<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><body style="margin:0">${body}</body>`;

describe("the phone-width checker", () => {
  it("passes a layout with nested controls, an inner scroller and a visually hidden label", async () => {
    const tab = await newPage(PHONE);
    await tab.setContent(
      page(`
        <label style="display:block;padding:8px">Name <input style="width:150px"></label>
        <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)"><a href="#">hidden</a></span>
        <div style="display:flex;overflow-x:auto;width:100%">
          ${Array.from({ length: 8 }, (_, index) => `<a href="#${index}" style="flex:none;width:200px;height:40px">Card ${index}</a>`).join("")}
        </div>
        <button style="margin:8px">One</button><button style="margin:8px">Two</button>
        <div style="height:1200px"></div>
        <footer style="padding-bottom:80px"><a href="#end">Last link</a></footer>
        <nav style="position:fixed;bottom:0;left:0;right:0;height:60px;background:#fff"><button>Ask</button></nav>`),
    );
    expect(await layoutProblems(tab)).toEqual({ horizontalOverflow: null, overlaps: [], covered: [] });
  });

  it("passes links that wrap next to each other in a sentence, and controls in a closed <details>", async () => {
    const tab = await newPage(PHONE);
    await tab.setContent(
      page(`
        <p style="width:200px;font:16px/20px sans-serif">Questions? See the <a href="#c">contact page, where we answer</a>
          or read the <a href="#p">Privacy Policy for the details</a> today.</p>
        <details><summary>Filters</summary><input aria-label="Minimum price" style="width:300px"></details>
        <button>Clear All</button>`),
    );
    // The closed field keeps a box where the button sits; it is not drawn, so nothing overlaps.
    expect((await layoutProblems(tab)).overlaps).toEqual([]);
  });

  it("reports sideways scrolling, overlapping buttons and a link stuck under a fixed bar", async () => {
    const tab = await newPage(PHONE);
    await tab.setContent(
      page(`
        <div style="width:600px;height:20px">too wide</div>
        <button style="position:relative;width:120px">First</button>
        <button style="position:relative;left:-60px;width:120px">Second</button>
        <div style="height:1200px"></div>
        <a href="#end" style="display:block">Last link</a>
        <nav style="position:fixed;bottom:0;left:0;right:0;height:80px;background:#fff"><button>Ask</button></nav>`),
    );
    const problems = await layoutProblems(tab);
    expect(problems.horizontalOverflow?.scrollWidth).toBeGreaterThan(390);
    expect(problems.overlaps.join("\n")).toMatch(/"First" overlaps .*"Second"/);
    expect(problems.covered.join("\n")).toContain('"Last link"');
  });

  it("reports a badge or column-header word split across lines, and not one that wraps between words, at a hyphen or out of sight", async () => {
    const tab = await newPage(PHONE);
    await tab.setContent(
      page(`
        <div style="overflow-wrap:anywhere">
          <span class="badge" style="display:inline-block;width:40px">Confirmed</span>
          <span class="badge" style="display:inline-block;width:90px">Awaiting payment</span>
          <button style="width:9ch;padding:0;border:0;font:16px monospace">E-commerce</button>
          <p style="width:40px">Sentences people type may break anywhere</p>
          <table style="width:60px"><thead><tr><th>Questions answered</th></tr></thead>
            <tbody><tr><th>Nov</th></tr></tbody></table>
          <table><thead style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">
            <tr><th>Unseen heading</th></tr></thead></table>
        </div>`),
    );
    expect(await labelsBrokenMidWord(tab)).toEqual([
      '"Confirmed" in <span class="badge">',
      '"Questions" in <th>',
      '"answered" in <th>',
    ]);
  });

  it("reports tabs that a sideways-scrolling tab row cuts off, and not a row that wraps", async () => {
    const tab = await newPage(PHONE);
    const tabs = ["Overview", "Questions", "Bookings", "Settings"]
      .map((name) => `<button role="tab" style="flex:none;padding:8px 24px">${name}</button>`)
      .join("");
    await tab.setContent(
      page(`
        <div role="tablist" style="display:flex;overflow-x:auto">${tabs}</div>
        <div role="tablist" style="display:flex;flex-wrap:wrap">${tabs}</div>`),
    );
    const hidden = await tabsOutOfView(tab);
    expect(hidden).toContain('"Settings"');
    expect(hidden.length).toBeLessThan(4);
    await tab.evaluate(() => document.querySelector("[role=tablist]")?.remove());
    expect(await tabsOutOfView(tab)).toEqual([]);
  });
});

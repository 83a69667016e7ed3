import type { Page } from "playwright-core";

export type LayoutProblems = {
  /** The document is wider than the viewport (the page scrolls sideways), with the elements that stick out. */
  horizontalOverflow: { scrollWidth: number; viewportWidth: number; culprits: string[] } | null;
  /** Pairs of visible controls whose boxes overlap. */
  overlaps: string[];
  /** Controls that a fixed or sticky element (header, bottom bar, toast) covers even when scrolled as far as it goes. */
  covered: string[];
};

/**
 * Checks a page's layout at its current width: sideways scrolling, interactive controls that overlap
 * one another, and controls that a fixed or sticky bar covers at either end of the page.
 *
 * Controls are the focusable or clickable elements that are actually visible: not display:none,
 * visibility:hidden, opacity 0 or pointer-events:none, at least 2 x 2 px after clipping by their
 * scrolling ancestors (so cards off-screen in a carousel, and visually hidden helpers, do not count);
 * a link that wraps is the boxes of its lines.
 * A control nested in another (an input inside its label) is not an overlap. Controls in fixed or
 * sticky bars are compared with each other on screen; the rest in page coordinates.
 */
export async function layoutProblems(page: Page): Promise<LayoutProblems> {
  const problems = await page.evaluate(() => {
    const CONTROLS = [
      "a[href]",
      "button",
      'input:not([type="hidden"])',
      "select",
      "textarea",
      "summary",
      "[role=button]",
      "[role=link]",
      "[role=tab]",
      "[role=switch]",
      "[role=checkbox]",
      "[role=radio]",
      "[role=menuitem]",
      '[tabindex]:not([tabindex="-1"])',
    ].join(",");
    const TOLERANCE = 2;
    type Box = { left: number; top: number; right: number; bottom: number };
    const root = document.documentElement;
    const viewportWidth = root.clientWidth;

    const describe = (element: Element) => {
      const label =
        element.getAttribute("aria-label") ??
        (element as HTMLElement).innerText?.trim().replace(/\s+/g, " ").slice(0, 40) ??
        "";
      const id = element.id ? `#${element.id}` : "";
      const className =
        typeof element.className === "string" && element.className
          ? `.${element.className.trim().split(/\s+/).slice(0, 2).join(".")}`
          : "";
      return `<${element.tagName.toLowerCase()}${id}${className}>${label ? ` "${label}"` : ""}`;
    };

    const intersect = (a: Box, b: Box): Box => ({
      left: Math.max(a.left, b.left),
      top: Math.max(a.top, b.top),
      right: Math.min(a.right, b.right),
      bottom: Math.min(a.bottom, b.bottom),
    });
    const size = (box: Box) => ({ width: box.right - box.left, height: box.bottom - box.top });

    const isPinned = (element: Element) => {
      for (let node: Element | null = element; node && node !== document.body; node = node.parentElement) {
        const position = getComputedStyle(node).position;
        if (position === "fixed" || position === "sticky") return true;
      }
      return false;
    };

    /**
     * The parts of an element's boxes that its clipping ancestors let show (viewport coordinates): one
     * box per line a link wraps over, so two links that share a line only where they meet do not overlap.
     */
    const visibleBoxes = (element: Element): Box[] => {
      // Also false inside a closed <details>, whose content keeps its boxes but is not drawn.
      if (!element.checkVisibility()) return [];
      const style = getComputedStyle(element);
      if (style.visibility !== "visible" || style.display === "none" || style.pointerEvents === "none") {
        return [];
      }
      let clip: Box | null = null;
      for (let node = element; node && node !== root; node = node.parentElement as Element) {
        const nodeStyle = getComputedStyle(node);
        if (Number(nodeStyle.opacity) === 0) return [];
        if (node !== element && nodeStyle.overflow !== "visible") {
          const nodeBox: Box = node.getBoundingClientRect();
          clip = clip ? intersect(clip, nodeBox) : nodeBox;
        }
        if (nodeStyle.position === "fixed") break;
      }
      return [...element.getClientRects()]
        .map((rect): Box => (clip ? intersect(rect, clip) : rect))
        .filter((box) => size(box).width >= 2 && size(box).height >= 2);
    };

    // 1. Sideways scrolling.
    let horizontalOverflow: LayoutProblems["horizontalOverflow"] = null;
    if (root.scrollWidth > viewportWidth + 1) {
      const culprits = [...document.body.querySelectorAll("*")]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          if (box.width === 0 || box.right <= viewportWidth + 1) return false;
          // Report the outermost elements that stick out, not every descendant.
          const parent = element.parentElement?.getBoundingClientRect();
          return !parent || parent.right <= viewportWidth + 1;
        })
        .slice(0, 8)
        .map(
          (element) =>
            `${describe(element)} right edge at ${Math.round(element.getBoundingClientRect().right)}px`,
        );
      horizontalOverflow = { scrollWidth: root.scrollWidth, viewportWidth, culprits };
    }

    // 2. Overlapping controls.
    const controls = [...document.querySelectorAll(CONTROLS)]
      .map((element) => ({ element, boxes: visibleBoxes(element), pinned: isPinned(element) }))
      .filter((control) => control.boxes.length > 0)
      .map((control) => {
        // Page coordinates for controls that scroll with the page; screen coordinates for pinned ones.
        const dx = control.pinned ? 0 : window.scrollX;
        const dy = control.pinned ? 0 : window.scrollY;
        const boxes = control.boxes.map(({ left, top, right, bottom }) => ({
          left: left + dx,
          top: top + dy,
          right: right + dx,
          bottom: bottom + dy,
        }));
        return { ...control, boxes };
      });
    const overlaps: string[] = [];
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i];
        const b = controls[j];
        if (a.pinned !== b.pinned) continue;
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const overlap = a.boxes
          .flatMap((boxA) => b.boxes.map((boxB) => size(intersect(boxA, boxB))))
          .find(({ width, height }) => width > TOLERANCE && height > TOLERANCE);
        if (overlap) {
          overlaps.push(
            `${describe(a.element)} overlaps ${describe(b.element)} (${Math.round(overlap.width)}x${Math.round(overlap.height)}px)`,
          );
        }
      }
    }
    return { horizontalOverflow, overlaps, controlCount: controls.length };
  });

  // 3. Controls that a pinned bar hides at the top of the page and at the bottom (where no more scrolling helps).
  const covered = new Set<string>();
  for (const end of ["top", "bottom"] as const) {
    await page.evaluate(
      (at) => window.scrollTo(0, at === "top" ? 0 : document.documentElement.scrollHeight),
      end,
    );
    await page.waitForTimeout(50);
    const found = await page.evaluate((at) => {
      const isPinned = (element: Element | null) => {
        for (let node = element; node && node !== document.body; node = node.parentElement) {
          const position = getComputedStyle(node).position;
          if (position === "fixed" || position === "sticky") return true;
        }
        return false;
      };
      const height = window.innerHeight;
      const result: string[] = [];
      const selector =
        "a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=tab]";
      for (const element of document.querySelectorAll(selector)) {
        if (isPinned(element)) continue;
        const box = element.getBoundingClientRect();
        if (box.width < 2 || box.height < 2) continue;
        const style = getComputedStyle(element);
        if (style.visibility !== "visible" || style.pointerEvents === "none" || Number(style.opacity) === 0)
          continue;
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        // Only the half of the screen that no further scrolling can clear.
        if (x < 0 || x > window.innerWidth || y < 0 || y > height) continue;
        if (at === "top" ? y > height / 2 : y < height / 2) continue;
        const hit = document.elementFromPoint(x, y);
        if (!hit || element.contains(hit) || hit.contains(element)) continue;
        if (isPinned(hit)) {
          const text =
            (element as HTMLElement).innerText?.trim().slice(0, 40) ||
            element.getAttribute("aria-label") ||
            "";
          result.push(
            `<${element.tagName.toLowerCase()}> "${text}" is under a fixed/sticky <${hit.tagName.toLowerCase()}> at the ${at}`,
          );
        }
      }
      return result;
    }, end);
    for (const entry of found) covered.add(entry);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return {
    horizontalOverflow: problems.horizontalOverflow,
    overlaps: problems.overlaps,
    covered: [...covered],
  };
}

/**
 * Short labels the app writes itself (badges, tags, buttons, tabs, table column headers, prices): a word in
 * one of these should never be split across two lines.
 */
const LABELS = ".badge, .status-badge, .tag, .button, button, [role=tab], thead th, .payment-box__line > *";

/**
 * Words in the labels above that the browser broke in the middle to fit them (the body's
 * `overflow-wrap: anywhere`, meant for long words people type, also lets a narrow table cell turn
 * "Confirmed" into "Confirme / d"). Breaks at a hyphen or slash are fine and not reported.
 */
export async function labelsBrokenMidWord(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    // Inside a visually hidden box (screen-reader-only text, a phone table's hidden header row) a
    // word wraps at every letter and nobody sees it.
    const visuallyHidden = (element: Element) => {
      for (let node: Element | null = element; node; node = node.parentElement) {
        const box = node.getBoundingClientRect();
        const style = getComputedStyle(node);
        if (style.overflow !== "visible" && (box.width <= 2 || box.height <= 2)) return true;
      }
      return false;
    };
    const broken = new Set<string>();
    for (const label of document.querySelectorAll(selector)) {
      if (visuallyHidden(label)) continue;
      const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? "").matchAll(/[^\s\-–—/]+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set(
            [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
          );
          if (lines.size > 1) {
            const className = typeof label.className === "string" ? label.className.trim() : "";
            broken.add(
              `"${word[0]}" in <${label.tagName.toLowerCase()}${className ? ` class="${className}"` : ""}>`,
            );
          }
        }
      }
    }
    return [...broken];
  }, LABELS);
}

/**
 * Tabs and section links that their own row hides: a tab list (or section nav) wider than the screen
 * that scrolls sideways clips some of them, sometimes the chosen one, with nothing to show they are there.
 */
export async function tabsOutOfView(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const hidden: string[] = [];
    for (const list of document.querySelectorAll("[role=tablist], .section-nav")) {
      const style = getComputedStyle(list);
      if (style.display === "none" || style.visibility !== "visible") continue;
      const bounds = list.getBoundingClientRect();
      if (bounds.width < 2 || bounds.height < 2) continue;
      for (const tab of list.querySelectorAll("[role=tab], a[href]")) {
        const box = tab.getBoundingClientRect();
        if (box.width === 0) continue;
        if (box.left < bounds.left - 1 || box.right > bounds.right + 1) {
          hidden.push(`"${(tab as HTMLElement).innerText.trim().replace(/\s+/g, " ")}"`);
        }
      }
    }
    return hidden;
  });
}

/**
 * Stacks (`.stack`, `.stack-lg`) whose first shown child still gets the space meant to go between
 * children: a hidden input or other unrendered element before it counts as a sibling for `* + *`,
 * and the form then starts with an empty band.
 */
export async function stacksStartingWithAGap(page: Page): Promise<string[]> {
  return page.$$eval(".stack, .stack-lg", (stacks) =>
    stacks.flatMap((stack) => {
      const first = [...stack.children].find((child) => getComputedStyle(child).display !== "none");
      if (!first || Number.parseFloat(getComputedStyle(first).marginTop) <= 0) return [];
      const name = `${stack.tagName.toLowerCase()}.${[...stack.classList].join(".")}`;
      return [`${name} > ${first.tagName.toLowerCase()} (margin-top ${getComputedStyle(first).marginTop})`];
    }),
  );
}

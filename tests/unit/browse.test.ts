import { describe, expect, it } from "vitest";
import { scrollEdges } from "~/components/category-carousel";
import { orderBookings } from "~/components/client-bookings";
import { type ClientQuestionView, questionsForTab } from "~/components/client-questions";
import { expertiseTags, expertProfilePath, ratingOrDefault, visibleTags } from "~/lib/experts";
import { toFtsQuery } from "~/lib/search";
import { browseSearchParams, parseBrowseQuery, priceRangeLabel } from "~/schemas/browse";

const parse = (query: string) => parseBrowseQuery(new URLSearchParams(query));

describe("the browse query", () => {
  it("reads search, category, sort, price range and page", () => {
    expect(
      parse("q=  tax   advice &category=Legal&sort=price_high&minPrice=100&maxPrice=250&page=3"),
    ).toEqual({
      q: "tax advice",
      category: "legal",
      sort: "price_high",
      minPrice: 100,
      maxPrice: 250,
      page: 3,
    });
  });

  it("drops what is invalid instead of failing", () => {
    expect(parse("sort=cheapest&minPrice=-1&maxPrice=501&page=0&category=<b>")).toEqual({
      q: "",
      category: null,
      sort: "recommended",
      minPrice: null,
      maxPrice: null,
      page: 1,
    });
    expect(parse("minPrice=abc&maxPrice=12.5&page=1e30").page).toBe(1);
    expect(parse(`q=${"x".repeat(1000)}`).q).toHaveLength(100);
    // 100 characters, not 100 UTF-16 units: the emoji is kept whole, never cut in half.
    expect(parse(`q=${"a".repeat(99)}${encodeURIComponent("😀")}b`).q).toBe(`${"a".repeat(99)}😀`);
  });

  it("keeps a page number deeper than the pages served (it is answered empty, never as page 1)", () => {
    expect(parse("page=9999").page).toBe(9999);
  });

  it("treats the ends of the 0 to 500 range as no bound, swaps reversed bounds, and `all` as no category", () => {
    expect(parse("minPrice=0&maxPrice=500")).toMatchObject({ minPrice: null, maxPrice: null });
    expect(parse("minPrice=250&maxPrice=100")).toMatchObject({ minPrice: 100, maxPrice: 250 });
    expect(parse("category=all").category).toBeNull();
  });

  it("writes back only what differs from the defaults", () => {
    expect(browseSearchParams(parse("")).toString()).toBe("");
    expect(browseSearchParams({ q: "ai", sort: "top_rated", page: 2, category: "sales" }).toString()).toBe(
      "q=ai&category=sales&sort=top_rated&page=2",
    );
    expect(browseSearchParams({ category: "sales" }, { includeCategory: false }).toString()).toBe("");
  });

  it("labels the price chip", () => {
    expect(priceRangeLabel(null, null)).toBeNull();
    expect(priceRangeLabel(250, null)).toBe("$250+");
    expect(priceRangeLabel(null, 100)).toBe("Up to $100");
    expect(priceRangeLabel(100, 250)).toBe("$100 - $250");
  });
});

describe("the FTS query", () => {
  it("quotes every word as a prefix term so nothing typed is FTS syntax", () => {
    expect(toFtsQuery("Marketing  strategy")).toBe('"marketing"* "strategy"*');
    expect(toFtsQuery('title:ceo OR "x" NEAR(a b) *')).toBe('"title"* "ceo"* "or"* "x"* "near"* "a"* "b"*');
    expect(toFtsQuery("'; DROP TABLE experts; --")).toBe('"drop"* "table"* "experts"*');
    expect(toFtsQuery("Élodie café")).toBe('"élodie"* "café"*');
  });

  it("returns null when nothing is searchable, and keeps queries small", () => {
    // Each term keeps 40 UTF-16 units; a letter outside the BMP at the cut is left out whole.
    expect(toFtsQuery(`a${"𠀀".repeat(20)}`)).toBe(`"a${"𠀀".repeat(19)}"*`);
    expect(toFtsQuery("!!! %%% ---")).toBeNull();
    expect(toFtsQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "))?.split(" ")).toHaveLength(8);
  });
});

describe("expert card rules", () => {
  it("shows at most 3 tags then +N more", () => {
    const tags = expertiseTags("Sales, Legal ,, sales, Tech and AI, E-commerce");
    expect(tags).toEqual(["Sales", "Legal", "Tech and AI", "E-commerce"]);
    expect(visibleTags(tags)).toEqual({ shown: ["Sales", "Legal", "Tech and AI"], more: 1 });
    expect(visibleTags(["One"])).toEqual({ shown: ["One"], more: 0 });
  });

  it("rates 5 without reviews, else the mean to one decimal", () => {
    expect(ratingOrDefault(null, 0)).toBe(5);
    expect(ratingOrDefault(4.25, 4)).toBe(4.3);
    expect(ratingOrDefault(3, 1)).toBe(3);
  });

  it("links to /{customUrl} or /expert/{id}", () => {
    expect(expertProfilePath({ id: 7, customUrl: "Ada-Quill" })).toBe("/ada-quill");
    expect(expertProfilePath({ id: 7, customUrl: null })).toBe("/expert/7");
  });
});

describe("the category carousel", () => {
  it("disables left at the start and right at the end, within 10 px", () => {
    expect(scrollEdges({ scrollLeft: 0, clientWidth: 300, scrollWidth: 1000 })).toEqual({
      atStart: true,
      atEnd: false,
    });
    expect(scrollEdges({ scrollLeft: 9, clientWidth: 300, scrollWidth: 1000 })).toEqual({
      atStart: true,
      atEnd: false,
    });
    expect(scrollEdges({ scrollLeft: 300, clientWidth: 300, scrollWidth: 1000 })).toEqual({
      atStart: false,
      atEnd: false,
    });
    expect(scrollEdges({ scrollLeft: 691, clientWidth: 300, scrollWidth: 1000 })).toEqual({
      atStart: false,
      atEnd: true,
    });
    expect(scrollEdges({ scrollLeft: 0, clientWidth: 1000, scrollWidth: 1000 })).toEqual({
      atStart: true,
      atEnd: true,
    });
  });
});

describe("the dashboard lists", () => {
  const question = (id: number, status: ClientQuestionView["status"]): ClientQuestionView => ({
    id,
    status,
    question: `Q${id}`,
    answer: null,
    requestAudioResponse: false,
    hasAudio: false,
    askedAt: 0,
    answeredAt: null,
    expert: null,
  });

  it("puts everything not answered under Pending", () => {
    const all = [
      question(1, "pending"),
      question(2, "in_progress"),
      question(3, "answered"),
      question(4, "rejected"),
      question(5, "expired"),
    ];
    expect(questionsForTab(all, "all").map((q) => q.id)).toEqual([1, 2, 3, 4, 5]);
    expect(questionsForTab(all, "pending").map((q) => q.id)).toEqual([1, 2, 4, 5]);
    expect(questionsForTab(all, "answered").map((q) => q.id)).toEqual([3]);
  });

  it("orders bookings upcoming first (soonest first), then the rest (latest first)", () => {
    const booking = (
      id: number,
      startsAt: number,
      status: "confirmed" | "completed" | "cancelled" = "confirmed",
    ) => ({
      id,
      startsAt,
      endsAt: startsAt + 3_600_000,
      status,
      duration: 60,
      expertTimeZone: "UTC",
      expert: { id: 1, name: "E", customUrl: null },
    });
    const ordered = orderBookings(
      [
        booking(1, 100),
        booking(2, 500),
        booking(3, 300),
        booking(4, 50, "completed"),
        booking(5, 400, "cancelled"),
      ],
      200,
    );
    expect(ordered.map((b) => b.id)).toEqual([3, 2, 5, 1, 4]);
  });
});

import { describe, expect, it } from "vitest";
import { summarize } from "~/components/seo";
import { cleanFormValue, cleanInputText, cleanJsonValue, cutText } from "~/lib/input-text";

describe("cleanInputText", () => {
  it("leaves ordinary text, line breaks, tabs, accents, right-to-left text and emoji as typed", () => {
    for (const text of [
      "How should I price my first consulting offer?",
      "Line one\n\tLine two",
      "Crème brûlée, naïve café",
      "مرحبا، كيف حالك؟ \u200f(RTL mark between words)",
      "Family 👨\u200d👩\u200d👧 and flag 🇫🇷",
      "می\u200cخواهم", // Persian: a zero-width non-joiner between letters is spelling
    ]) {
      expect(cleanInputText(text)).toBe(text);
    }
  });

  it("makes invisible-only text empty, so required fields and minimum lengths see nothing", () => {
    expect(cleanInputText("\u200b".repeat(11))).toBe("");
    expect(cleanInputText("\u200d\u200c\u2060\ufeff \u200e\u200f\u202e")).toBe("");
    expect(cleanInputText(" \u200d Hello \u200b")).toBe("Hello");
  });

  it("keeps the tag characters that finish a flag at the end, and drops them at the start", () => {
    const wales = "🏴\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}";
    expect(cleanInputText(`Alex from Wales ${wales}`)).toBe(`Alex from Wales ${wales}`);
    expect(cleanInputText(`Sam ${wales} \u200b\n`)).toBe(`Sam ${wales}`);
    expect(cleanInputText(`\u{E0067}\u{E0062} Hello`)).toBe("Hello");
    expect(cleanInputText("\u{E0067}\u{E0062}\u{E007F}")).toBe("");
    // Tag characters anywhere else are invisible padding: they must not make "Hi" ten characters long.
    expect(cleanInputText(`Hi${"\u{E0041}".repeat(8)}`)).toBe("Hi");
    expect(cleanInputText("abc \u200d\u{E0041}\u200d  ")).toBe("abc");
    expect(cleanInputText(`🏴 ${"\u{E0067}".repeat(3)}`)).toBe("🏴");
  });

  it("drops the overrides that draw letters in reverse, keeping marks, embeddings and isolates", () => {
    // "evil" after a right-to-left override reads "live".
    expect(cleanInputText("Great answer \u202Eevil\u202C, thanks")).toBe("Great answer evil\u202C, thanks");
    expect(cleanInputText("a\u202Db\nc\u202Ed")).toBe("ab\ncd");
    const rightToLeft = "قال \u2067Hello\u2069 ثم \u202BWorld\u202C و\u200F";
    expect(cleanInputText(`${rightToLeft} نعم`)).toBe(`${rightToLeft} نعم`);
  });

  it("drops NUL and the other control characters, keeping tab and line breaks", () => {
    expect(cleanInputText(`ab${"\u0000".repeat(8)}`)).toBe("ab");
    expect(cleanInputText("a\u0007b\u001bc\u007fd\u0085e\tf\ng\rh")).toBe("abcde\tf\ng\rh");
  });

  it("turns a lone surrogate half into U+FFFD and keeps whole pairs", () => {
    expect(cleanInputText("a\ud800b")).toBe("a\ufffdb");
    expect(cleanInputText("a\udc00b")).toBe("a\ufffdb");
    expect(cleanInputText("end\ud83d")).toBe("end\ufffd");
    expect(cleanInputText("😀\ud83d😀")).toBe("😀\ufffd😀");
  });
});

describe("cleaning a body's values", () => {
  it("cleans every string of a JSON body, nested too, but never a password", () => {
    expect(
      cleanJsonValue({
        question: "\u200b".repeat(11),
        expertise: [" Sales\u0000", "\u200bMarketing"],
        nested: { bio: "Hi\ud800" },
        password: " \u200bsecret\u0000 ",
        newPassword: "\u200b",
        count: 3,
        flag: true,
        nothing: null,
      }),
    ).toEqual({
      question: "",
      expertise: ["Sales", "Marketing"],
      nested: { bio: "Hi\ufffd" },
      password: " \u200bsecret\u0000 ",
      newPassword: "\u200b",
      count: 3,
      flag: true,
      nothing: null,
    });
  });

  it("cleans form fields other than passwords and files", () => {
    expect(cleanFormValue("name", "\u200b\u200b")).toBe("");
    expect(cleanFormValue("confirmPassword", " pass\u0000 ")).toBe(" pass\u0000 ");
    const file = new File(["\u0000"], "a.png", { type: "image/png" });
    expect(cleanFormValue("profileImage", file)).toBe(file);
  });
});

describe("summarize", () => {
  it("never cuts an emoji in half", () => {
    const summary = summarize("😀".repeat(100));
    expect(summary.endsWith("😀…")).toBe(true);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(summary)).toBe(false);
  });
});

describe("cutText", () => {
  it("cuts to the limit, one unit short where it would split a character in half", () => {
    expect(cutText("abcdef", 4)).toBe("abcd");
    expect(cutText("abc", 10)).toBe("abc");
    expect(cutText("abc😀def", 4)).toBe("abc");
    expect(cutText("abc😀def", 5)).toBe("abc😀");
    expect(cutText("😀", 1)).toBe("");
  });
});

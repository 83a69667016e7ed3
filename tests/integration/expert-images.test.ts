import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { experts } from "~/db/schema.server";
import { cacheKeys } from "~/services/cache.server";
import { insertExpert, insertUser } from "../factories";
import { BASE, db, signIn } from "./support/accounts";
import {
  bigPng,
  CUT_PNG_BYTES,
  file,
  HTML_TEXT,
  JPEG_BYTES,
  keyOf,
  multipart,
  pngHeader,
  postMultipart,
  SVG_TEXT,
  storedImageKeys,
  uniquePng,
} from "./support/experts";

/** An expert who can sign in, and their session cookie. */
async function signedInExpert(customUrl: string | null = null) {
  const password = "expert-pass-1";
  const { user, expert } = await insertExpert(db(), { user: { password }, expert: { customUrl } });
  return { user, expert, cookie: await signIn(user.username, password) };
}

const upload = (expertId: number, kind: string, image: File | undefined, cookie: string) =>
  postMultipart(`/api/experts/${expertId}/upload/${kind}`, multipart({ image }), cookie);

const expertRow = async (id: number) => (await db().select().from(experts).where(eq(experts.id, id)))[0];

describe("image uploads through the API (POST /api/experts/{id}/upload/...)", () => {
  it("stores the owner's profile image under a content-addressed key and serves it with long caching", async () => {
    const { expert, cookie } = await signedInExpert("image-owner");
    await env.CACHE.put(cacheKeys.expertProfile(expert.id), JSON.stringify({ value: { stale: true } }));
    const response = await upload(expert.id, "profile", uniquePng("me.png"), cookie);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { profileImage: string };
    expect(body.profileImage).toMatch(/^\/media\/images\/[0-9a-f]{64}\.png$/);
    expect((await expertRow(expert.id)).profileImage).toBe(body.profileImage);
    // The public read model is refreshed at once.
    expect(await env.CACHE.get(cacheKeys.expertProfile(expert.id))).toBeNull();

    const served = await SELF.fetch(`${BASE}${body.profileImage}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    await served.arrayBuffer();
  });

  it("removes the old image when it is replaced, unless another profile shows the same picture", async () => {
    const { expert, cookie } = await signedInExpert();
    const first = (await (await upload(expert.id, "header", uniquePng(), cookie)).json()) as {
      headerImage: string;
    };
    const second = (await (await upload(expert.id, "header", uniquePng(), cookie)).json()) as {
      headerImage: string;
    };
    expect(second.headerImage).not.toBe(first.headerImage);
    const keys = await storedImageKeys();
    expect(keys).toContain(keyOf(second.headerImage));
    expect(keys).not.toContain(keyOf(first.headerImage));

    // Two experts upload the very same bytes: one key. Replacing it for one keeps it for the other.
    const shared = uniquePng();
    const other = await signedInExpert();
    const mine = (await (await upload(expert.id, "profile", shared, cookie)).json()) as {
      profileImage: string;
    };
    const theirs = (await (await upload(other.expert.id, "profile", shared, other.cookie)).json()) as {
      profileImage: string;
    };
    expect(theirs.profileImage).toBe(mine.profileImage);
    await upload(expert.id, "profile", uniquePng(), cookie);
    expect(await storedImageKeys()).toContain(keyOf(theirs.profileImage));
  });

  it("refuses an upload to another expert's images with 403, changing and storing nothing", async () => {
    const victim = await signedInExpert("victim-expert");
    const attacker = await signedInExpert();
    const before = await storedImageKeys();
    const victimBefore = await expertRow(victim.expert.id);
    for (const kind of ["profile", "header"]) {
      const response = await upload(victim.expert.id, kind, uniquePng(), attacker.cookie);
      expect(response.status, kind).toBe(403);
    }
    expect(await expertRow(victim.expert.id)).toEqual(victimBefore);
    expect(await storedImageKeys()).toEqual(before);
  });

  it("reads the expert id as digits only: 1.0, 0x.. or 1e1 is no expert (404), even the owner's own", async () => {
    const { expert, cookie } = await signedInExpert();
    const before = await storedImageKeys();
    const ids = [`${expert.id}.0`, `0x${expert.id.toString(16)}`, `${expert.id * 10}e-1`];
    for (const id of ids) {
      const response = await postMultipart(
        `/api/experts/${id}/upload/profile`,
        multipart({ image: uniquePng() }),
        cookie,
      );
      expect(response.status, id).toBe(404);
    }
    expect((await expertRow(expert.id)).profileImage).toBeNull();
    expect(await storedImageKeys()).toEqual(before);
  });

  it("refuses a signed-out upload (401) and a client's upload (403)", async () => {
    const { expert } = await signedInExpert();
    expect((await upload(expert.id, "profile", uniquePng(), "")).status).toBe(401);
    const client = await insertUser(db(), { password: "client-pass-1" });
    const clientCookie = await signIn(client.username, "client-pass-1");
    const response = await upload(expert.id, "profile", uniquePng(), clientCookie);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain("your own expert profile");
  });

  it("refuses an image that declares more pixels than a browser should decode, keeping the old one", async () => {
    const { expert, cookie } = await signedInExpert();
    const kept = (await (await upload(expert.id, "profile", uniquePng(), cookie)).json()) as {
      profileImage: string;
    };
    const before = await storedImageKeys();
    // A few bytes on the wire, 20,000 × 20,000 pixels (1.6 GB) in every visitor's browser.
    for (const [width, height] of [
      [20000, 20000],
      [9000, 100],
    ]) {
      const response = await upload(
        expert.id,
        "profile",
        file(pngHeader(width, height), "a.png", "image/png"),
        cookie,
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as { reason: string }).reason).toBe(
        "The image has too many pixels (at most 8192 on a side and 24 megapixels). Please choose a smaller picture.",
      );
    }
    expect((await expertRow(expert.id)).profileImage).toBe(kept.profileImage);
    expect(await storedImageKeys()).toEqual(before);
    // A phone camera's photo is taken.
    const photo = await upload(
      expert.id,
      "profile",
      file(pngHeader(4032, 3024), "photo.png", "image/png"),
      cookie,
    );
    expect(photo.status).toBe(200);
  });

  it("refuses an image cut short, keeping the old one and storing nothing", async () => {
    const { expert, cookie } = await signedInExpert();
    const kept = (await (await upload(expert.id, "profile", uniquePng(), cookie)).json()) as {
      profileImage: string;
    };
    const before = await storedImageKeys();
    const cutJpeg = JPEG_BYTES.slice(0, JPEG_BYTES.length - 2);
    for (const image of [file(CUT_PNG_BYTES, "a.png", "image/png"), file(cutJpeg, "a.jpg", "image/jpeg")]) {
      const response = await upload(expert.id, "profile", image, cookie);
      expect(response.status, image.name).toBe(400);
      expect(((await response.json()) as { reason: string }).reason, image.name).toBe(
        "The image file is incomplete or damaged. Please choose it again, or choose another picture.",
      );
    }
    expect((await expertRow(expert.id)).profileImage).toBe(kept.profileImage);
    expect(await storedImageKeys()).toEqual(before);
    // The same files whole are taken.
    expect((await upload(expert.id, "header", file(JPEG_BYTES, "a.jpg", "image/jpeg"), cookie)).status).toBe(
      200,
    );
  });

  it("refuses a 6 MB image, an HTML file named .png and an SVG, keeping the old image", async () => {
    const { expert, cookie } = await signedInExpert();
    const kept = (await (await upload(expert.id, "profile", uniquePng(), cookie)).json()) as {
      profileImage: string;
    };
    const before = await storedImageKeys();
    const cases: Array<[string, File, number]> = [
      ["6 MB", bigPng(6 * 1024 * 1024), 413],
      ["HTML named .png", file(HTML_TEXT, "avatar.png", "image/png"), 415],
      ["SVG", file(SVG_TEXT, "avatar.svg", "image/svg+xml"), 415],
    ];
    for (const [what, image, status] of cases) {
      const response = await upload(expert.id, "profile", image, cookie);
      expect(response.status, what).toBe(status);
      const body = (await response.json()) as { error: string; reason: string };
      expect(body.error, what).toBe("Failed to upload image");
      expect((await expertRow(expert.id)).profileImage, what).toBe(kept.profileImage);
    }
    expect(await storedImageKeys()).toEqual(before);
  });

  it("answers 400 when no file was chosen, and 404 for an unknown kind", async () => {
    const { expert, cookie } = await signedInExpert();
    expect((await upload(expert.id, "profile", undefined, cookie)).status).toBe(400);
    expect((await upload(expert.id, "avatar", uniquePng(), cookie)).status).toBe(404);
  });
});

describe("image uploads on the settings Photos tab", () => {
  it("replaces the signed-in expert's header image; naming another expert's profile is a 403", async () => {
    const victim = await signedInExpert();
    const { expert, cookie } = await signedInExpert();
    const before = await storedImageKeys();
    const attack = await postMultipart(
      "/expert/settings",
      multipart({ intent: "headerImage", image: uniquePng(), expertId: String(victim.expert.id) }),
      cookie,
    );
    expect(attack.status).toBe(403);
    expect(await storedImageKeys()).toEqual(before);
    expect((await expertRow(victim.expert.id)).headerImage).toBeNull();
    expect((await expertRow(expert.id)).headerImage).toBeNull();

    const response = await postMultipart(
      "/expert/settings",
      multipart({ intent: "headerImage", image: uniquePng() }),
      cookie,
    );
    expect(response.status).toBe(200);
    expect((await expertRow(expert.id)).headerImage).toMatch(/^\/media\/images\/.+\.png$/);
    expect((await expertRow(victim.expert.id)).headerImage).toBeNull();
  });

  it("says which images it takes for an SVG, and changes nothing", async () => {
    const { expert, cookie } = await signedInExpert();
    const before = await storedImageKeys();
    const response = await postMultipart(
      "/expert/settings",
      multipart({ intent: "profileImage", image: file(SVG_TEXT, "x.svg", "image/svg+xml") }),
      cookie,
    );
    expect(response.status).toBe(415);
    expect(await response.text()).toContain("Please choose a JPEG, PNG, WebP or GIF image.");
    expect((await expertRow(expert.id)).profileImage).toBeNull();
    expect(await storedImageKeys()).toEqual(before);
  });

  it("says why a 6 MB image posted as a page was refused, above the tabs, and changes nothing", async () => {
    const { expert, cookie } = await signedInExpert();
    const before = await storedImageKeys();
    const response = await postMultipart(
      "/expert/settings",
      multipart({ intent: "profileImage", image: bigPng(6 * 1024 * 1024) }),
      cookie,
    );
    expect(response.status).toBe(413);
    const html = await response.text();
    expect(html).toMatch(
      /<p class="form-error" role="alert">Failed to upload image\. The file is too large \(at most 5 MB\)\.<\/p>/,
    );
    expect((await expertRow(expert.id)).profileImage).toBeNull();
    expect(await storedImageKeys()).toEqual(before);
  });
});

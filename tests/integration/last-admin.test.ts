/**
 * The last administrator cannot close their account: nobody would be left to verify experts, read
 * contact messages or retry failed captures. (Its own file: storage is isolated per file, so the
 * admins here are the only ones.)
 */
import { and, eq, isNull, or } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LAST_ADMIN_MESSAGE } from "~/auth/account.server";
import { users } from "~/db/schema.server";
import { db, insertAccount, postForm, signIn } from "./support/accounts";
import { callApi, errorOf } from "./support/api";
import { toastFrom } from "./support/questions";

describe("closing an administrator's account", () => {
  it("is refused for the only admin, on the API and the settings page, and allowed once another exists", async () => {
    const first = await insertAccount("only-admin", "admin-pass-1", { role: "admin" });
    const cookie = await signIn("only-admin", "admin-pass-1");
    const refused = await callApi("DELETE", `/api/users/${first.userId}`, { cookie });
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toBe(LAST_ADMIN_MESSAGE);
    const fromSettings = await postForm("/dashboard/settings", { intent: "delete" }, { cookie });
    expect(toastFrom(fromSettings)).toMatchObject({
      title: "Account deletion failed.",
      description: LAST_ADMIN_MESSAGE,
    });
    // Still there, still signed in.
    await expect(signIn("only-admin", "admin-pass-1")).resolves.toBeTruthy();

    const second = await insertAccount("second-admin", "admin-pass-2", { role: "admin" });
    expect((await callApi("DELETE", `/api/users/${first.userId}`, { cookie })).status).toBe(200);
    await expect(signIn("only-admin", "admin-pass-1")).rejects.toThrow();
    // Now the second is the only one.
    const secondCookie = await signIn("second-admin", "admin-pass-2");
    expect((await callApi("DELETE", `/api/users/${second.userId}`, { cookie: secondCookie })).status).toBe(
      409,
    );

    // Two admins closing theirs at the same moment: one of them stays.
    const third = await insertAccount("third-admin", "admin-pass-3", { role: "user" });
    await db().update(users).set({ isAdmin: true }).where(eq(users.id, third.userId));
    const thirdCookie = await signIn("third-admin", "admin-pass-3");
    const both = await Promise.all([
      callApi("DELETE", `/api/users/${second.userId}`, { cookie: secondCookie }),
      callApi("DELETE", `/api/users/${third.userId}`, { cookie: thirdCookie }),
    ]);
    expect(both.map((response) => response.status).sort()).toEqual([200, 409]);
    const live = await db()
      .select({ id: users.id })
      .from(users)
      .where(and(isNull(users.deletedAt), or(eq(users.isAdmin, true), eq(users.role, "admin"))));
    expect(live).toHaveLength(1);
  });
});

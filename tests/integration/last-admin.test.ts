/**
 * The last administrator cannot close their account: nobody would be left to verify experts, read
 * contact messages or retry failed captures. (Its own file: storage is isolated per file, so the
 * admins here are the only ones.)
 */
import { describe, expect, it } from "vitest";
import { LAST_ADMIN_MESSAGE } from "~/auth/account.server";
import { insertAccount, postForm, signIn } from "./support/accounts";
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
  });
});

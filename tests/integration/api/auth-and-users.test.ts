import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loginThrottle, users } from "~/db/schema.server";
import { db, get, insertAccount, sessionCookieFrom, signIn } from "../support/accounts";
import { callApi, errorOf, json } from "../support/api";

describe("POST /api/auth/login", () => {
  it("signs in with the right password and answers the auth status with a session cookie", async () => {
    await insertAccount("apilogin", "api-login-pass");
    const response = await callApi("POST", "/api/auth/login", {
      body: { username: "apilogin", password: "api-login-pass" },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ authenticated: true, user: { username: "apilogin", expertProfile: null } });
    expect(JSON.stringify(body)).not.toContain("pbkdf2");
    const cookie = sessionCookieFrom(response);
    expect(cookie).toMatch(/^__session=/);
    expect(await json(await get("/api/auth/status", cookie ?? ""))).toMatchObject({ authenticated: true });
  });

  it("refuses a wrong password (401), missing fields (400), a form body (415) and a locked account (429)", async () => {
    await insertAccount("apiwrong", "api-wrong-pass");
    const wrong = await callApi("POST", "/api/auth/login", {
      body: { username: "apiwrong", password: "nope" },
    });
    expect(wrong.status).toBe(401);
    expect(await errorOf(wrong)).toBe("Invalid username or password");
    expect(sessionCookieFrom(wrong)).toBeNull();

    const missing = await callApi("POST", "/api/auth/login", { body: { username: "" } });
    expect(missing.status).toBe(400);
    expect(await json(missing)).toMatchObject({
      error: "Username is required",
      fieldErrors: { username: ["Username is required"], password: ["Password is required"] },
    });

    // A value of the wrong type is named as such, not as missing.
    const numeric = await callApi("POST", "/api/auth/login", {
      body: { username: "apiwrong", password: 12345678 },
    });
    expect(numeric.status).toBe(400);
    expect(await json(numeric)).toEqual({
      error: "password must be text",
      fieldErrors: { password: ["password must be text"] },
    });
    // null is a value left out: SPEC.md's "required".
    const nulls = await callApi("POST", "/api/auth/login", { body: { username: null, password: null } });
    expect((await json(nulls)).fieldErrors).toEqual({
      username: ["Username is required"],
      password: ["Password is required"],
    });

    const form = await callApi("POST", "/api/auth/login", {
      body: "username=apiwrong&password=x",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(415);
    // A type that only mentions JSON is not JSON (and is one a cross-site form may send unasked).
    for (const contentType of [
      "text/plain; charset=application/json",
      "application/jsonp",
      "multipart/form-data; x=application/json",
    ]) {
      const disguised = await callApi("POST", "/api/auth/login", {
        body: JSON.stringify({ username: "apiwrong", password: "api-wrong-pass" }),
        contentType,
      });
      expect(disguised.status, contentType).toBe(415);
      expect(sessionCookieFrom(disguised), contentType).toBeNull();
    }
    const charset = await callApi("POST", "/api/auth/login", {
      body: JSON.stringify({ username: "apiwrong", password: "api-wrong-pass" }),
      contentType: "Application/JSON; charset=utf-8",
    });
    expect(charset.status).toBe(200);

    const broken = await callApi("POST", "/api/auth/login", { body: "{not json" });
    expect(broken.status).toBe(400);

    await db()
      .insert(loginThrottle)
      .values({
        key: "user:apilocked",
        failures: 10,
        windowStartedAt: new Date(),
        lockedUntil: new Date(Date.now() + 600_000),
      });
    await insertAccount("apilocked", "api-locked-pass");
    const locked = await callApi("POST", "/api/auth/login", {
      body: { username: "apilocked", password: "api-locked-pass" },
    });
    expect(locked.status).toBe(429);
    expect(await errorOf(locked)).toMatch(/Too many sign-in attempts/);
  });

  it("refuses a sign-in posted from another site", async () => {
    await insertAccount("apicsrf", "api-csrf-pass");
    const response = await callApi("POST", "/api/auth/login", {
      body: { username: "apicsrf", password: "api-csrf-pass" },
      origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
    expect(await json(response)).toEqual({ error: "Cross-site requests are not allowed." });
    expect(sessionCookieFrom(response)).toBeNull();
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the session, so the cookie no longer signs anyone in", async () => {
    await insertAccount("apilogout", "api-logout-pass");
    const cookie = await signIn("apilogout", "api-logout-pass");
    const response = await callApi("POST", "/api/auth/logout", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toMatch(/__session=;.*Max-Age=0/);
    expect(await json(await get("/api/auth/status", cookie))).toEqual({ authenticated: false, user: null });
    // Signed out already: nothing to end, still fine.
    expect((await callApi("POST", "/api/auth/logout")).status).toBe(200);
  });

  it("refuses a cross-site sign-out (the session stays)", async () => {
    await insertAccount("apilogout2", "api-logout-pass");
    const cookie = await signIn("apilogout2", "api-logout-pass");
    const response = await callApi("POST", "/api/auth/logout", { cookie, origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(await json(await get("/api/auth/status", cookie))).toMatchObject({ authenticated: true });
  });
});

describe("POST /api/auth/change-password", () => {
  it("changes the password with {currentPassword, newPassword}; the old one stops working", async () => {
    await insertAccount("apipass", "old-password-1");
    const cookie = await signIn("apipass", "old-password-1");
    const response = await callApi("POST", "/api/auth/change-password", {
      cookie,
      body: { currentPassword: "old-password-1", newPassword: "new-password-1" },
    });
    expect(response.status).toBe(200);
    await expect(signIn("apipass", "new-password-1")).resolves.toMatch(/^__session=/);
    await expect(signIn("apipass", "old-password-1")).rejects.toThrow();
    // This session stays signed in.
    expect(await json(await get("/api/auth/status", cookie))).toMatchObject({ authenticated: true });
  });

  it("answers the form's messages for a short, mismatched or wrong password, and 401 signed out", async () => {
    await insertAccount("apipass2", "old-password-2");
    const cookie = await signIn("apipass2", "old-password-2");
    const short = await callApi("POST", "/api/auth/change-password", {
      cookie,
      body: { currentPassword: "old-password-2", newPassword: "short" },
    });
    expect(short.status).toBe(400);
    expect(await errorOf(short)).toBe("New password must be at least 8 characters");
    const mismatch = await callApi("POST", "/api/auth/change-password", {
      cookie,
      body: {
        currentPassword: "old-password-2",
        newPassword: "new-password-2",
        confirmPassword: "other-pass-2",
      },
    });
    expect(mismatch.status).toBe(400);
    expect(await errorOf(mismatch)).toBe("Passwords do not match");
    const wrong = await callApi("POST", "/api/auth/change-password", {
      cookie,
      body: { currentPassword: "not-my-password", newPassword: "new-password-2" },
    });
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toMatchObject({
      error: "Current password is incorrect",
      fieldErrors: { currentPassword: ["Current password is incorrect"] },
    });
    // A new password sent as a number: said so, and nothing about a confirmation that was not sent.
    const numeric = await callApi("POST", "/api/auth/change-password", {
      cookie,
      body: { currentPassword: "old-password-2", newPassword: 12345678 },
    });
    expect(numeric.status).toBe(400);
    expect(await json(numeric)).toEqual({
      error: "newPassword must be text",
      fieldErrors: { newPassword: ["newPassword must be text"] },
    });
    const signedOut = await callApi("POST", "/api/auth/change-password", {
      body: { currentPassword: "old-password-2", newPassword: "new-password-2" },
    });
    expect(signedOut.status).toBe(401);
    await expect(signIn("apipass2", "old-password-2")).resolves.toMatch(/^__session=/);
  });

  it("counts wrong current passwords against the sign-in throttle, so a session cannot guess freely", async () => {
    await insertAccount("apiguess", "old-password-3");
    const cookie = await signIn("apiguess", "old-password-3");
    const guesses = await Promise.all(
      Array.from({ length: 14 }, (_, n) =>
        callApi("POST", "/api/auth/change-password", {
          cookie,
          body: { currentPassword: `guess-${n}`, newPassword: "new-password-3" },
        }),
      ),
    );
    const statuses = guesses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(10).fill(400), ...Array(4).fill(429)]);
    expect(await errorOf(guesses.find((response) => response.status === 429)!)).toBe(
      "Too many password attempts. Please wait 15 minutes and try again.",
    );
    // Locked: even the right password is refused now, and signing in is locked too.
    const right = await callApi("POST", "/api/auth/change-password", {
      cookie,
      body: { currentPassword: "old-password-3", newPassword: "new-password-3" },
    });
    expect(right.status).toBe(429);
    await expect(signIn("apiguess", "old-password-3")).rejects.toThrow();
    const [row] = await db().select().from(users).where(eq(users.username, "apiguess"));
    expect(row.passwordChangedAt).toBeNull();
  });
});

describe("POST /api/users", () => {
  it("creates a plain account from each sign-up payload and signs it in", async () => {
    const subscription = await callApi("POST", "/api/users", {
      body: { email: "sub@example.com", username: "apisub", password: "sub-pass-1" },
    });
    expect(subscription.status).toBe(201);
    expect(await json(subscription)).toMatchObject({ username: "apisub", role: "user", isAdmin: false });
    const cookie = sessionCookieFrom(subscription);
    expect(await json(await get("/api/auth/status", cookie ?? ""))).toMatchObject({
      user: { username: "apisub" },
    });

    const register = await callApi("POST", "/api/users", {
      body: { username: "apireg", email: "reg@example.com", password: "reg-pass-1", name: "Reg Ister" },
    });
    expect(await json(register)).toMatchObject({ name: "Reg Ister" });

    const expert = await callApi("POST", "/api/users", {
      body: {
        username: "apiexp",
        email: "exp@example.com",
        password: "exp-pass-1",
        firstName: "Ex",
        lastName: "Pert",
        role: "admin",
        isAdmin: true,
      },
    });
    expect(expert.status).toBe(201);
    const [row] = await db().select().from(users).where(eq(users.username, "apiexp"));
    expect(row).toMatchObject({
      firstName: "Ex",
      lastName: "Pert",
      name: "Ex Pert",
      role: "user",
      isAdmin: false,
    });
  });

  it("creates twenty accounts an hour from one address, then refuses with 429, creating nothing", async () => {
    const address = "192.0.2.44";
    const signUp = (n: number) =>
      callApi("POST", "/api/users", {
        address,
        body: { username: `burst${n}`, email: `burst${n}@example.com`, password: "burst-pass-1" },
      });
    const statuses: number[] = [];
    for (let n = 0; n < 21; n++) statuses.push((await signUp(n)).status);
    expect(statuses).toEqual([...Array(20).fill(201), 429]);
    expect(await errorOf(await signUp(99))).toBe(
      "Too many requests from your network. Please try again in an hour.",
    );
    expect(await db().select().from(users).where(eq(users.username, "burst20"))).toEqual([]);
    expect(
      (
        await callApi("POST", "/api/users", {
          address: "192.0.2.45",
          body: { username: "calm1", email: "calm1@example.com", password: "calm-pass-1" },
        })
      ).status,
    ).toBe(201);
  });

  it("refuses invalid fields (400) and a taken username (409), creating nothing", async () => {
    await insertAccount("apitaken", "taken-pass-1");
    const invalid = await callApi("POST", "/api/users", {
      body: { username: "ab", email: "not-an-email", password: "123" },
    });
    expect(invalid.status).toBe(400);
    expect((await json(invalid)).fieldErrors).toEqual({
      username: ["Username must be at least 3 characters"],
      email: ["Must be a valid email address"],
      password: ["Password must be at least 6 characters"],
    });
    const listed = await callApi("POST", "/api/users", {
      body: { username: ["apilisted"], email: "l@example.com", password: ["listed-pass-1"] },
    });
    expect(listed.status).toBe(400);
    expect((await json(listed)).fieldErrors).toEqual({
      username: ["username must be text"],
      password: ["password must be text"],
    });
    expect(await db().select().from(users).where(eq(users.email, "l@example.com"))).toEqual([]);
    // The expert sign-up's payload: both names, once either is sent.
    const nameless = await callApi("POST", "/api/users", {
      body: {
        username: "apinameless",
        email: "n@example.com",
        password: "name-pass-1",
        firstName: "  ",
        lastName: "",
      },
    });
    expect(nameless.status).toBe(400);
    expect((await json(nameless)).fieldErrors).toEqual({
      firstName: ["First name is required"],
      lastName: ["Last name is required"],
    });
    // Its e-mail message is the expert sign-up's own (SPEC.md section 5).
    const expertEmail = await callApi("POST", "/api/users", {
      body: {
        username: "apiexpertmail",
        email: "nope",
        password: "name-pass-1",
        firstName: "Exa",
        lastName: "Mple",
      },
    });
    expect((await json(expertEmail)).fieldErrors).toEqual({
      email: ["Please provide a valid email address"],
    });
    const halfNamed = await callApi("POST", "/api/users", {
      body: { username: "apihalf", email: "h@example.com", password: "name-pass-1", firstName: "Half" },
    });
    expect((await json(halfNamed)).fieldErrors).toEqual({ lastName: ["Last name is required"] });
    expect(await db().select().from(users).where(eq(users.email, "n@example.com"))).toEqual([]);
    const taken = await callApi("POST", "/api/users", {
      body: { username: "APITAKEN", email: "t@example.com", password: "taken-pass-2" },
    });
    expect(taken.status).toBe(409);
    expect(sessionCookieFrom(taken)).toBeNull();
    expect(await db().select().from(users).where(eq(users.email, "t@example.com"))).toEqual([]);
  });
});

describe("DELETE /api/users/{id}", () => {
  it("deletes the caller's own account and signs it out everywhere; 401 when signed out", async () => {
    const { userId } = await insertAccount("apidelete", "delete-pass-1");
    const cookie = await signIn("apidelete", "delete-pass-1");
    expect((await callApi("DELETE", `/api/users/${userId}`)).status).toBe(401);
    const response = await callApi("DELETE", `/api/users/${userId}`, { cookie });
    expect(response.status).toBe(200);
    expect(await json(await get("/api/auth/status", cookie))).toEqual({ authenticated: false, user: null });
    await expect(signIn("apidelete", "delete-pass-1")).rejects.toThrow();
  });

  it("reads the id as digits only: 1e1, 0x0a, 1.0 or a space is no user, even the caller's own", async () => {
    const { userId } = await insertAccount("apiids", "ids-pass-1");
    const cookie = await signIn("apiids", "ids-pass-1");
    for (const id of [`${userId}.0`, `0x${userId.toString(16)}`, `%20${userId}`, `${userId / 10}e1`]) {
      const response = await callApi("PATCH", `/api/users/${id}`, {
        cookie,
        body: { name: "Renamed", email: "renamed@example.com" },
      });
      expect(response.status, id).toBe(404);
      expect(await errorOf(response), id).toBe("User not found");
    }
    const [row] = await db().select().from(users).where(eq(users.id, userId));
    expect(row.name).not.toBe("Renamed");
  });
});

describe("a method a route does not take", () => {
  it("is a 405 naming the methods it does take, in the API's error shape under /api", async () => {
    const cases: Array<[string, string, string]> = [
      ["GET", "/api/auth/login", "POST"],
      ["PUT", "/api/questions", "GET, HEAD, POST"],
      ["GET", "/api/users/1", "PATCH, DELETE"],
      ["DELETE", "/api/experts/1", "GET, HEAD, PATCH"],
      // No action at all: Remix's own refusal, given the same shape.
      ["POST", "/api/categories", "GET, HEAD"],
      ["PATCH", "/api/featured-experts", "GET, HEAD"],
    ];
    for (const [method, path, allow] of cases) {
      const response = await callApi(method, path);
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("Allow"), `${method} ${path}`).toBe(allow);
      expect(await response.json(), `${method} ${path}`).toEqual({ error: "Method not allowed" });
    }
    // The method is checked first: signed out, or with another user's or a bad id, it is still a 405.
    const { userId } = await insertAccount("apimethod", "method-pass-1");
    const cookie = await signIn("apimethod", "method-pass-1");
    const refused: Array<[string, string, string]> = [
      ["", "/api/users/1", "PATCH, DELETE"],
      [cookie, `/api/users/${userId + 1}`, "PATCH, DELETE"],
      ["", "/api/user/favorites/3", "POST, DELETE"],
      [cookie, "/api/user/favorites/abc", "POST, DELETE"],
    ];
    for (const [who, path, allow] of refused) {
      const response = await callApi("PUT", path, { cookie: who });
      expect(response.status, `PUT ${path}`).toBe(405);
      expect(response.headers.get("Allow"), `PUT ${path}`).toBe(allow);
      await response.body?.cancel();
    }
    const page = await callApi("PUT", "/sitemap.xml");
    expect(page.status).toBe(405);
    expect(page.headers.get("Allow")).toBe("GET, HEAD");
    await page.body?.cancel();
  });

  it("answers OPTIONS with the methods, and no data", async () => {
    const response = await callApi("OPTIONS", "/api/questions");
    expect(response.status).toBe(204);
    expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
    expect(await response.text()).toBe("");
  });

  it("names in an OPTIONS the same methods as in its 405, for routes that take PATCH, DELETE or only POST", async () => {
    const cases: Array<[string, string]> = [
      ["/api/users/1", "PATCH, DELETE"],
      ["/api/experts/1", "GET, HEAD, PATCH"],
      ["/api/questions/1", "PATCH"],
      ["/api/user/favorites/1", "POST, DELETE"],
      ["/api/auth/login", "POST"],
      ["/api/categories", "GET, HEAD"],
      ["/sitemap.xml", "GET, HEAD"],
    ];
    for (const [path, allow] of cases) {
      const response = await callApi("OPTIONS", path);
      expect(response.status, path).toBe(204);
      expect(response.headers.get("Allow"), `OPTIONS ${path}`).toBe(allow);
      await response.body?.cancel();
    }
  });
});

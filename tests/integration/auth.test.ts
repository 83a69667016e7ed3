import { env } from "cloudflare:test";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signInWithForm } from "~/auth/sign-in.server";
import { createDatabase } from "~/db/client.server";
import { sessions, users } from "~/db/schema.server";
import { action as apiLogin } from "~/routes/api.auth.login";
import {
  BASE,
  db,
  get,
  insertAccount,
  postForm,
  postRaw,
  sessionCookieFrom,
  signIn,
} from "./support/accounts";
import { toastFrom } from "./support/questions";

const countUsers = async (username: string) => {
  const [row] = await db()
    .select({ count: sql<number>`count(*)` })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  return row.count;
};

describe("registration", () => {
  it("creates the account, signs it in and goes to the client dashboard", async () => {
    const response = await postForm("/register", {
      intent: "register",
      name: "Ada Lovelace",
      username: "ada",
      email: "ada@example.com",
      password: "analytical",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const setCookie = response.headers.getSetCookie().find((header) => header.startsWith("__session="));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/SameSite=Lax/);

    const [user] = await db().select().from(users).where(eq(users.username, "ada"));
    expect(user).toMatchObject({
      email: "ada@example.com",
      name: "Ada Lovelace",
      role: "user",
      isAdmin: false,
    });
    expect(user.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(user.passwordHash).not.toContain("analytical");

    const dashboard = await get("/dashboard", sessionCookieFrom(response)!);
    expect(dashboard.status).toBe(200);
  });

  it("shows SPEC.md's messages for invalid fields and stores nothing", async () => {
    const response = await postForm("/auth", {
      intent: "register",
      name: "",
      username: "ab",
      email: "not-an-email",
      password: "12345",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Username must be at least 3 characters");
    expect(html).toContain("Must be a valid email address");
    expect(html).toContain("Password must be at least 6 characters");
    expect(html).toContain("Name is required");
    expect(await countUsers("ab")).toBe(0);
  });

  it("refuses a username already taken, whatever its case, without a second row", async () => {
    await insertAccount("grace", "hopper-123");
    const response = await postForm("/auth", {
      intent: "register",
      name: "Impostor",
      username: "GRACE",
      email: "grace2@example.com",
      password: "whatever-1",
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("That username is already taken");
    expect(await countUsers("grace")).toBe(1);
  });

  it("signs a retried registration in to the account it made, and tells anyone else the name is taken", async () => {
    const form = {
      intent: "register",
      name: "Retry Person",
      username: "retry-person",
      email: "retry@example.com",
      password: "retry-pass-1",
    };
    expect((await postForm("/register", form)).status).toBe(302);
    // The first answer never arrived: the same form again, from a browser with no session.
    const retry = await postForm("/register", { ...form, username: "Retry-Person" });
    expect(retry.status).toBe(302);
    expect(retry.headers.get("Location")).toBe("/dashboard");
    expect((await get("/dashboard", sessionCookieFrom(retry)!)).status).toBe(200);
    expect(await countUsers("retry-person")).toBe(1);

    for (const other of [{ password: "other-pass-1" }, { email: "someone-else@example.com" }]) {
      const response = await postForm("/register", { ...form, ...other });
      expect(response.status).toBe(409);
      expect(sessionCookieFrom(response)).toBeFalsy();
      expect(await response.text()).toContain("That username is already taken");
    }
    expect(await countUsers("retry-person")).toBe(1);
  });

  it("refuses a 10,000-character field", async () => {
    const response = await postForm("/auth", {
      intent: "register",
      name: "x".repeat(10_000),
      username: "longname",
      email: "long@example.com",
      password: "password-1",
    });
    expect(response.status).toBe(400);
    expect(await countUsers("longname")).toBe(0);
  });

  it("ignores role and admin flags smuggled into the sign-up payload", async () => {
    const response = await postForm("/auth", {
      intent: "register",
      name: "Mallory",
      username: "mallory",
      email: "mallory@example.com",
      password: "escalate-1",
      role: "admin",
      isAdmin: "true",
      id: "1",
    });
    expect(response.status).toBe(302);
    const [user] = await db().select().from(users).where(eq(users.username, "mallory"));
    expect(user.role).toBe("user");
    expect(user.isAdmin).toBe(false);
    expect(response.headers.get("Location")).toBe("/dashboard");
  });
});

describe("sign-in", () => {
  it("sends each role to its home", async () => {
    await insertAccount("client1", "client-pass");
    await insertAccount("expert1", "expert-pass", { role: "expert" });
    await insertAccount("admin1", "admin-pass", { role: "admin" });
    await insertAccount("profiled", "profile-pass", { role: "user", withExpertProfile: true });
    const destinations = {
      client1: ["client-pass", "/dashboard"],
      expert1: ["expert-pass", "/expert/dashboard"],
      admin1: ["admin-pass", "/admin/dashboard"],
      profiled: ["profile-pass", "/expert/dashboard"],
    };
    for (const [username, [password, home]] of Object.entries(destinations)) {
      const response = await postForm("/auth", { intent: "login", username, password });
      expect(response.status, username).toBe(302);
      expect(response.headers.get("Location"), username).toBe(home);
    }
  });

  it("gives the same message for a wrong password and an unknown user", async () => {
    await insertAccount("known", "right-password");
    const wrong = await postForm("/auth", { intent: "login", username: "known", password: "wrong-password" });
    const unknown = await postForm("/auth", {
      intent: "login",
      username: "nobody",
      password: "wrong-password",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [wrongHtml, unknownHtml] = [await wrong.text(), await unknown.text()];
    expect(wrongHtml).toContain("Invalid username or password");
    expect(unknownHtml).toContain("Invalid username or password");
    expect(sessionCookieFrom(wrong)).toBeNull();
  });

  it("requires both fields with SPEC.md's messages", async () => {
    const response = await postForm("/auth", { intent: "login", username: "", password: "" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Username is required");
    expect(html).toContain("Password is required");
  });

  it("accepts the username in any case", async () => {
    await insertAccount("CaseUser", "case-pass");
    await expect(signIn("caseuser", "case-pass")).resolves.toMatch(/^__session=/);
  });

  it("follows redirectTo only to same-site paths", async () => {
    await insertAccount("redirected", "redirect-pass");
    const attempt = async (redirectTo: string) =>
      (
        await postForm("/auth", {
          intent: "login",
          username: "redirected",
          password: "redirect-pass",
          redirectTo,
        })
      ).headers.get("Location");
    expect(await attempt("/experts?sort=price_low")).toBe("/experts?sort=price_low");
    for (const hostile of [
      "//evil.example",
      "https://evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
      "/.//evil.example/phish",
      "/a/..//evil.example",
      "/%2e//evil.example",
      // Too long to follow, but no reason to refuse the sign-in (it used to fail with no message).
      `/dashboard?x=${"a".repeat(2100)}`,
    ]) {
      expect(await attempt(hostile), hostile.slice(0, 40)).toBe("/dashboard");
    }
  });

  it("sends a signed-in visitor of a sign-in page only to same-site paths", async () => {
    await insertAccount("already-in", "already-pass", { role: "admin" });
    const cookie = await signIn("already-in", "already-pass");
    for (const page of ["/auth", "/expert/login", "/admin/login"]) {
      const response = await get(`${page}?redirectTo=${encodeURIComponent("/.//evil.example")}`, cookie);
      expect(response.status, page).toBe(302);
      expect(response.headers.get("Location"), page).toMatch(/^\/(?!\/)/);
    }
  });

  it("starts a new session id at every sign-in and ends the previous one", async () => {
    await insertAccount("rotator", "rotate-pass");
    const first = await signIn("rotator", "rotate-pass");
    const second = await postForm(
      "/auth",
      { intent: "login", username: "rotator", password: "rotate-pass" },
      { cookie: first },
    );
    const secondCookie = sessionCookieFrom(second);
    expect(secondCookie).not.toBeNull();
    expect(secondCookie).not.toBe(first);
    expect((await get("/dashboard", first)).status).toBe(302);
    expect((await get("/dashboard", secondCookie!)).status).toBe(200);
  });

  it("stores only a hash of the session token", async () => {
    await insertAccount("hashed", "hashed-pass");
    const cookie = await signIn("hashed", "hashed-pass");
    const token = cookie.split("=")[1];
    const rows = await db().select({ id: sessions.id }).from(sessions);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.id)).not.toContain(token);
  });

  it("throttles repeated failures and then refuses with 429, even the right password", async () => {
    await insertAccount("target", "the-right-one");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await postForm("/auth", {
        intent: "login",
        username: "target",
        password: `guess-${attempt}`,
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 9).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual(Array(10).fill(429));
    const locked = await postForm("/auth", {
      intent: "login",
      username: "target",
      password: "the-right-one",
    });
    expect(locked.status).toBe(429);
    expect(await locked.text()).toContain("Too many sign-in attempts");
  }, 60_000);

  it("checks at most the limit of passwords when attempts arrive all at once", async () => {
    await insertAccount("stampede", "the-right-one");
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, attempt) =>
        postForm("/auth", { intent: "login", username: "stampede", password: `guess-${attempt}` }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    const locked = await postForm("/auth", {
      intent: "login",
      username: "stampede",
      password: "the-right-one",
    });
    expect(locked.status).toBe(429);
  }, 60_000);

  it("locks out the address that guessed, not the account's owner signing in from elsewhere", async () => {
    await insertAccount("sought-after", "the-right-one");
    const from = (address: string) => ({ headers: { "CF-Connecting-IP": address } });
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, attempt) =>
        postForm(
          "/auth",
          { intent: "login", username: "sought-after", password: `guess-${attempt}` },
          from("203.0.113.66"),
        ),
      ),
    );
    expect(guesses.map((response) => response.status).sort()).toEqual([
      ...Array(10).fill(401),
      ...Array(2).fill(429),
    ]);
    const attacker = await postForm(
      "/auth",
      { intent: "login", username: "sought-after", password: "the-right-one" },
      from("203.0.113.66"),
    );
    expect(attacker.status).toBe(429);
    // However long the stranger keeps at it, and whatever the name they try holds.
    const flood = await Promise.all(
      Array.from({ length: 100 }, (_, attempt) =>
        postForm(
          "/auth",
          { intent: "login", username: "sought-after", password: `more-${attempt}` },
          from("203.0.113.66"),
        ),
      ),
    );
    expect(flood.every((response) => response.status === 429)).toBe(true);
    for (let attempt = 0; attempt < 11; attempt++) {
      await postForm(
        "/auth",
        { intent: "login", username: "sought-after|198.51.100.20", password: `guess-${attempt}` },
        from("203.0.113.67"),
      );
    }
    const owner = await postForm(
      "/auth",
      { intent: "login", username: "sought-after", password: "the-right-one" },
      from("198.51.100.20"),
    );
    expect(owner.status).toBe(302);
  }, 60_000);

  it("locks the account when the guessing is spread over many addresses, except for its owner", async () => {
    await insertAccount("spread-thin", "the-right-one");
    // The owner signed in from home before, and is signed in on a laptop.
    const home = { headers: { "CF-Connecting-IP": "2001:db8:aaaa:1::5" } };
    const laptop = await postForm(
      "/auth",
      { intent: "login", username: "spread-thin", password: "the-right-one" },
      home,
    );
    expect(laptop.status).toBe(302);
    const laptopCookie = sessionCookieFrom(laptop)!;
    const statuses: number[] = [];
    for (let batch = 0; batch < 11; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, attempt) =>
          postForm(
            "/auth",
            { intent: "login", username: "spread-thin", password: `guess-${batch}-${attempt}` },
            { headers: { "CF-Connecting-IP": `10.0.${batch}.${attempt + 1}` } },
          ),
        ),
      );
      statuses.push(...responses.map((response) => response.status));
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const fresh = await postForm(
      "/auth",
      { intent: "login", username: "spread-thin", password: "the-right-one" },
      { headers: { "CF-Connecting-IP": "10.9.9.9" } },
    );
    expect(fresh.status).toBe(429);
    // From a network the account signed in from (another address of its /64), the owner still can;
    // and the signed-in owner can still change their password.
    const fromHome = await postForm(
      "/auth",
      { intent: "login", username: "spread-thin", password: "the-right-one" },
      { headers: { "CF-Connecting-IP": "2001:db8:aaaa:1::9" } },
    );
    expect(fromHome.status).toBe(302);
    const changed = await postForm(
      "/dashboard/settings",
      {
        intent: "password",
        currentPassword: "the-right-one",
        newPassword: "a-new-one-123",
        confirmPassword: "a-new-one-123",
      },
      { cookie: laptopCookie, headers: { "CF-Connecting-IP": "10.7.7.7" } },
    );
    expect(changed.status).not.toBe(429);
    expect(await changed.text()).not.toContain("Too many password attempts");
    const guessAfterwards = await postForm(
      "/auth",
      { intent: "login", username: "spread-thin", password: "a-new-one-123" },
      { headers: { "CF-Connecting-IP": "10.9.9.10" } },
    );
    expect(guessAfterwards.status).toBe(429);
  }, 120_000);

  it("forgives the failures before a successful sign-in", async () => {
    await insertAccount("forgetful", "the-right-one");
    for (let attempt = 0; attempt < 9; attempt++) {
      const response = await postForm("/auth", {
        intent: "login",
        username: "forgetful",
        password: `guess-${attempt}`,
      });
      expect(response.status).toBe(401);
    }
    await expect(signIn("forgetful", "the-right-one")).resolves.toMatch(/^__session=/);
    const afterwards = await postForm("/auth", {
      intent: "login",
      username: "forgetful",
      password: "wrong-again",
    });
    expect(afterwards.status).toBe(401);
  }, 60_000);
});

describe("sign-out", () => {
  it("ends the session on the server so the old cookie no longer works", async () => {
    await insertAccount("leaver", "leave-pass");
    const cookie = await signIn("leaver", "leave-pass");
    expect((await get("/dashboard", cookie)).status).toBe(200);
    const response = await postForm("/logout", {}, { cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const dashboard = await get("/dashboard", cookie);
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
  });
});

describe("a body that is not a form, sent to a form-only route that has no page", () => {
  it("is a 400 that says so (not an unexpected error), and signs no one out and rates nothing", async () => {
    await insertAccount("notaform", "not-a-form-pass");
    const cookie = await signIn("notaform", "not-a-form-pass");
    const refusals = [
      await postRaw("/logout", "x", { contentType: "text/plain", cookie }),
      // A type that only mentions a form's is not a form.
      await postRaw("/logout", "x=1", {
        contentType: "text/plain; x=application/x-www-form-urlencoded",
        cookie,
      }),
      await postRaw("/reviews", JSON.stringify({ subject: "question", questionId: 1, rating: 5 }), {
        contentType: "application/json",
        cookie,
      }),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "Expected a form submission." });
    }
    expect((await get("/dashboard", cookie)).status).toBe(200);
    const reviews = await env.DB.prepare(
      "SELECT count(*) AS n FROM reviews WHERE user_id = (SELECT id FROM users WHERE username = 'notaform')",
    ).first<{ n: number }>();
    expect(reviews?.n).toBe(0);
  });
});

describe("cross-site requests", () => {
  it("refuses a POST whose Origin is another site and changes nothing", async () => {
    const response = await postForm(
      "/auth",
      {
        intent: "register",
        name: "Csrf",
        username: "csrfvictim",
        email: "c@example.com",
        password: "csrf-pass",
      },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect(await countUsers("csrfvictim")).toBe(0);
  });

  it("refuses a POST the browser marks cross-site when there is no Origin", async () => {
    const response = await postForm("/logout", {}, { origin: "" });
    expect(response.status).toBe(302);
    const { SELF } = await import("cloudflare:test");
    const crossSite = await SELF.fetch("https://marketplace.test/logout", {
      method: "POST",
      redirect: "manual",
      headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(crossSite.status).toBe(403);
  });
});

describe("guards", () => {
  it("sends signed-out visitors to the right sign-in page", async () => {
    const cases: [string, RegExp][] = [
      ["/dashboard", /^\/auth\?redirectTo=%2Fdashboard$/],
      ["/dashboard/settings", /^\/auth\?redirectTo=/],
      ["/expert/dashboard", /^\/expert\/login\?redirectTo=/],
      ["/expert/account", /^\/expert\/login\?redirectTo=/],
      ["/admin", /^\/admin\/login\?redirectTo=/],
      ["/admin/dashboard", /^\/admin\/login\?redirectTo=/],
    ];
    for (const [path, location] of cases) {
      const response = await get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toMatch(location);
      // Opening a page signed out needs no explanation.
      expect(toastFrom(response), path).toBeNull();
    }
  });

  it("says the session has ended when a form arrives without one, on the way to sign in", async () => {
    for (const [path, location] of [
      ["/dashboard/settings", "/auth?redirectTo=%2Fdashboard%2Fsettings"],
      ["/expert/settings", "/expert/login?redirectTo=%2Fexpert%2Fsettings"],
    ]) {
      const response = await postForm(path, { intent: "profile", name: "Someone" });
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe(location);
      expect(toastFrom(response), path).toMatchObject({
        title: "Your session has ended",
        description: "Please log in again to continue.",
      });
    }
  });

  it("sends a signed-in client away from expert and admin pages to /forbidden", async () => {
    await insertAccount("plainclient", "plain-pass");
    const cookie = await signIn("plainclient", "plain-pass");
    for (const path of ["/expert/dashboard", "/expert/account", "/admin", "/admin/dashboard"]) {
      const response = await get(path, cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe("/forbidden");
    }
  });

  it("lets an expert into the portal and an admin into the admin area", async () => {
    await insertAccount("portalexpert", "portal-pass", { role: "expert" });
    await insertAccount("boss", "boss-pass", { role: "admin" });
    expect((await get("/expert/dashboard", await signIn("portalexpert", "portal-pass"))).status).toBe(200);
    expect((await get("/admin", await signIn("boss", "boss-pass"))).status).toBe(200);
  });

  it("reads roles from the database, not from anything the client sends", async () => {
    const { userId } = await insertAccount("demoted", "demoted-pass", { role: "admin" });
    const cookie = await signIn("demoted", "demoted-pass");
    await env.DB.prepare("UPDATE users SET role = 'user', is_admin = 0 WHERE id = ?").bind(userId).run();
    const response = await get("/admin", cookie);
    expect(response.headers.get("Location")).toBe("/forbidden");
  });
});

describe("a sign-in with the old password as the password changes", () => {
  /** A request's context where the password changes just before the request writes its session. */
  function passwordChangedBeforeTheSession(userId: number): AppLoadContext {
    const changePassword = () =>
      env.DB.prepare("update users set password_hash = 'pbkdf2-sha256$100000$new$new' where id = ?")
        .bind(userId)
        .run();
    // Statements that write a session run only after the change has committed.
    const afterChange = (statement: D1PreparedStatement): D1PreparedStatement =>
      new Proxy(statement, {
        get(target, property) {
          const value = Reflect.get(target, property);
          if (typeof value !== "function") return value;
          if (property === "bind") return (...args: unknown[]) => afterChange(value.apply(target, args));
          if (["all", "raw", "run", "first"].includes(String(property))) {
            return async (...args: unknown[]) => {
              await changePassword();
              return value.apply(target, args);
            };
          }
          return value.bind(target);
        },
      });
    const database = new Proxy(env.DB, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property === "prepare") {
          return (query: string) => {
            const statement = target.prepare(query);
            return /^insert into "sessions"/i.test(query) ? afterChange(statement) : statement;
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    return { primaryDb: createDatabase(database), now: () => Date.now() } as unknown as AppLoadContext;
  }

  const loginRequest = (username: string, body: "form" | "json") =>
    new Request(`${BASE}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": body === "form" ? "application/x-www-form-urlencoded" : "application/json" },
      body:
        body === "form"
          ? new URLSearchParams({ username, password: "old-password-1" })
          : JSON.stringify({ username, password: "old-password-1" }),
    });

  it("starts no session, and says the password is wrong, on the login form and the API", async () => {
    for (const body of ["form", "json"] as const) {
      const username = `changing-${body}-${Date.now()}`;
      const { userId } = await insertAccount(username, "old-password-1");
      const context = passwordChangedBeforeTheSession(userId);
      const request = loginRequest(username, body);
      const response =
        body === "form"
          ? await signInWithForm(context, request)
          : await apiLogin({ request, context, params: {} } as Parameters<typeof apiLogin>[0]);
      const status =
        response instanceof Response
          ? response.status
          : (response as { init?: { status?: number } }).init?.status;
      expect(status, body).toBe(401);
      expect(JSON.stringify(response instanceof Response ? await response.json() : response), body).toContain(
        "Invalid username or password",
      );
      expect(await db().select().from(sessions).where(eq(sessions.userId, userId)), body).toEqual([]);
    }
  });
});

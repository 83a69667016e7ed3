/**
 * The seeded demo accounts. Shown only on demo pages (DEMO_MODE) and in the README; the seed
 * creates them from this list so the two never drift apart.
 */
export const DEMO_ACCOUNTS = {
  client: { username: "demo-client", password: "client-pass-123", label: "Demo client" },
  subscriber: { username: "demo-subscriber", password: "subscriber-pass-123", label: "Demo subscriber" },
  expert: { username: "demo-expert", password: "expert-pass-123", label: "Demo expert" },
  admin: { username: "demo-admin", password: "admin-pass-123", label: "Demo admin" },
} as const;

import { env } from "cloudflare:test";

// Every test file has its own D1, so ids start at 1 in each; but the Stripe fake, like Stripe, is one
// shared account whose idempotency keys ("question-1-create") and metadata would then collide across
// files. Start this file's ids at a random offset, as ids are unique within one real database.
// (AUTOINCREMENT continues above the highest id ever used, even once that row is gone.)
const offset = 1 + Math.floor(Math.random() * 1_000_000_000);
const placeholders: [table: string, insert: string][] = [
  [
    "users",
    "INSERT INTO users (id, username, password_hash, email) VALUES (?, 'id-offset', '!', 'id@invalid')",
  ],
  ["questions", "INSERT INTO questions (id, question) VALUES (?, 'id offset')"],
];
for (const [table, insert] of placeholders) {
  await env.DB.prepare(insert).bind(offset).run();
  await env.DB.prepare(`DELETE FROM ${table} WHERE id = ?`).bind(offset).run();
}

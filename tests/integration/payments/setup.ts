import { env } from "cloudflare:test";

// Every test file has its own D1, so ids start at 1 in each; but the Stripe fake, like Stripe, is one
// shared account whose idempotency keys ("question-1-create", "booking-1-refund") and metadata would
// then collide across files. Start this file's ids at a random offset, as ids are unique within one
// real database. (AUTOINCREMENT continues above the highest id ever used, even once that row is gone.)
const offset = 1 + Math.floor(Math.random() * 1_000_000_000);
const placeholders: [table: string, insert: string][] = [
  [
    "users",
    "INSERT INTO users (id, username, password_hash, email) VALUES (?, 'id-offset', '!', 'id@invalid')",
  ],
  ["experts", "INSERT INTO experts (id, user_id) VALUES (?1, ?1)"],
  [
    "bookings",
    "INSERT INTO bookings (id, expert_id, date, start_time, end_time, starts_at, ends_at, status) VALUES (?1, ?1, '2000-01-01', '00:00', '01:00', 0, 3600000, 'expired')",
  ],
  ["questions", "INSERT INTO questions (id, question) VALUES (?, 'id offset')"],
];
for (const [, insert] of placeholders) await env.DB.prepare(insert).bind(offset).run();
for (const [table] of [...placeholders].reverse()) {
  await env.DB.prepare(`DELETE FROM ${table} WHERE id = ?`).bind(offset).run();
}

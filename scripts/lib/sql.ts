/**
 * Renders insertable rows as literal SQL statements for `wrangler d1 execute --file`, through drizzle
 * so column names, defaults and value encodings (dates as ms, booleans as 0/1) match the app exactly.
 */
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import * as schema from "../../app/db/schema.server";
import type { DemoRows, DemoTable } from "./demo-rows";

const TABLES = {
  categories: schema.categories,
  users: schema.users,
  experts: schema.experts,
  expert_categories: schema.expertCategories,
  availability: schema.availability,
  user_favorites: schema.userFavorites,
  questions: schema.questions,
  bookings: schema.bookings,
  reviews: schema.reviews,
  payments: schema.payments,
  notifications: schema.notifications,
  contact_messages: schema.contactMessages,
} satisfies Record<DemoTable, SQLiteTable>;

// Only builds statements: the callback that would run them is never called.
const builder = drizzle(async () => {
  throw new Error("The SQL builder does not run queries");
});

/** A value as an SQLite literal. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Cannot write ${value} to SQL`);
    return String(value);
  }
  if (typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`Cannot write a ${typeof value} to SQL`);
}

/** Replaces each `?` placeholder with its parameter. drizzle's SQL text has no other `?`. */
export function inlineParams(text: string, params: readonly unknown[]): string {
  let index = 0;
  const inlined = text.replace(/\?/g, () => {
    if (index >= params.length) throw new Error("More placeholders than parameters");
    return sqlLiteral(params[index++]);
  });
  if (index !== params.length) throw new Error("More parameters than placeholders");
  return inlined;
}

function insertStatement<T extends SQLiteTable>(table: T, row: T["$inferInsert"]): string {
  const query = builder
    .insert(table)
    .values(row as never)
    .toSQL();
  return `${inlineParams(query.sql, query.params)};`;
}

/** One INSERT per row, tables in `order` (parents first, so foreign keys hold at every step). */
export function renderInserts(rows: DemoRows, order: readonly DemoTable[]): string[] {
  const statements: string[] = [];
  for (const table of order) {
    for (const row of rows[table]) statements.push(insertStatement(TABLES[table], row as never));
  }
  return statements;
}

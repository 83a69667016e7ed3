/**
 * Batches of hand-written SQL. drizzle's `db.batch` cannot batch `db.all(sql\`...\`)` queries that
 * have parameters (drizzle-orm 0.45: its raw queries have no prepared statement), so these build the
 * D1 statements from drizzle `sql` templates themselves: values stay bound parameters, never text.
 * The batch goes through the request's D1 client, so it is one round trip and counts as one query.
 */
import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database } from "./client.server";

const dialect = new SQLiteAsyncDialect();

export type RawQuery<T> = { statement: D1PreparedStatement; read: (result: D1Result) => T };

function prepare(db: Database, query: SQL): D1PreparedStatement {
  const { sql, params } = dialect.sqlToQuery(query);
  return (db.$client as D1Database).prepare(sql).bind(...params);
}

/** Every row of a query. */
export function allRows<Row>(db: Database, query: SQL): RawQuery<Row[]> {
  return { statement: prepare(db, query), read: (result) => (result.results ?? []) as Row[] };
}

/** The first row of a query, or null. */
export function firstRow<Row>(db: Database, query: SQL): RawQuery<Row | null> {
  return { statement: prepare(db, query), read: (result) => ((result.results ?? [])[0] as Row) ?? null };
}

/** A statement run for its effect (insert, update, delete). */
export function execute(db: Database, query: SQL): RawQuery<{ changes: number }> {
  return { statement: prepare(db, query), read: (result) => ({ changes: result.meta?.changes ?? 0 }) };
}

type Results<Queries extends readonly RawQuery<unknown>[]> = {
  [K in keyof Queries]: Queries[K] extends RawQuery<infer T> ? T : never;
};

/** Runs the queries in one D1 batch (one round trip, atomic) and returns each one's result. */
export async function rawBatch<const Queries extends readonly RawQuery<unknown>[]>(
  db: Database,
  queries: Queries,
): Promise<Results<Queries>> {
  const results = await (db.$client as D1Database).batch(queries.map((query) => query.statement));
  return queries.map((query, index) => query.read(results[index])) as Results<Queries>;
}

/** Runs one query on its own. */
export async function runRaw<T>(query: RawQuery<T>): Promise<T> {
  return query.read(await query.statement.all());
}

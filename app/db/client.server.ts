import { drizzle } from "drizzle-orm/d1";

export type Database = ReturnType<typeof createDatabase>;

/** Counts the statements a request sends to D1 (a batch counts once), for logs and the benchmark. */
export type QueryCounter = { count: number };

type D1Like = Pick<D1Database, "prepare" | "batch">;

const EXECUTING_METHODS = new Set(["all", "run", "first", "raw"]);

function countQueries(target: D1Like, counter: QueryCounter): D1Database {
  const originals = new WeakMap<object, D1PreparedStatement>();

  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(stmt, property) {
        const value = Reflect.get(stmt, property, stmt);
        if (typeof value !== "function") return value;
        if (property === "bind") {
          return (...args: unknown[]) => wrap(value.apply(stmt, args));
        }
        if (EXECUTING_METHODS.has(String(property))) {
          return (...args: unknown[]) => {
            counter.count += 1;
            return value.apply(stmt, args);
          };
        }
        return value.bind(stmt);
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };

  return {
    prepare: (query: string) => wrap(target.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      counter.count += 1;
      return target.batch(statements.map((statement) => originals.get(statement) ?? statement));
    },
  } as unknown as D1Database;
}

export function createDatabase(d1: D1Like, counter: QueryCounter = { count: 0 }) {
  return drizzle(countQueries(d1, counter));
}

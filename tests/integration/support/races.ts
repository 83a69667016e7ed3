import { env } from "cloudflare:test";
import { createDatabase, type Database } from "~/db/client.server";

/** The database as a request sees it, where `change` commits just before the request's first batch. */
export function changedBeforeFirstBatch(change: (db: Database) => Promise<unknown>): Database {
  const db = createDatabase(env.DB);
  let changed = false;
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "batch") {
        return async (...statements: Parameters<Database["batch"]>) => {
          if (!changed) {
            changed = true;
            await change(target);
          }
          return target.batch(...statements);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

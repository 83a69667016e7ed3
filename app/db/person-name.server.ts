import { type AnyColumn, sql } from "drizzle-orm";
import { DELETED_ACCOUNT_NAME, DELETED_USERNAME_PREFIX } from "~/lib/experts";

type NameColumns = Record<"name" | "firstName" | "lastName" | "username", AnyColumn>;

/**
 * A person's name in SQL, as `displayName` makes it in JavaScript: their name, else first and last,
 * else their username; a deleted account (whose username is only a placeholder) is "Deleted account".
 */
export const personNameSql = (table: NameColumns) =>
  sql<string>`coalesce(nullif(trim(${table.name}), ''), nullif(trim(coalesce(${table.firstName}, '') || ' ' || coalesce(${table.lastName}, '')), ''), case when ${table.username} like ${`${DELETED_USERNAME_PREFIX}%`} then ${DELETED_ACCOUNT_NAME} else ${table.username} end)`;

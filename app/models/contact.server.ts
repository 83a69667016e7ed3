import { count, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { contactMessages } from "~/db/schema.server";
import type { ContactInput } from "~/schemas/contact";
import type { ContactFilter } from "~/schemas/expert";

/** Stores a message from the contact page; admins read them in the admin area. */
export async function createContactMessage(
  db: Database,
  input: ContactInput & { userId?: number | null },
): Promise<{ id: number }> {
  const [row] = await db
    .insert(contactMessages)
    .values({
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      userId: input.userId ?? null,
    })
    .returning({ id: contactMessages.id });
  return row;
}

export const CONTACT_PAGE_SIZE = 20;

/** The contact messages for the admin area, newest first, one page at a time. */
export async function listContactMessages(
  db: Database,
  { filter, page }: { filter: ContactFilter; page: number },
) {
  const where =
    filter === "open"
      ? isNull(contactMessages.handledAt)
      : filter === "handled"
        ? isNotNull(contactMessages.handledAt)
        : undefined;
  const [rows, total] = await db.batch([
    db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(CONTACT_PAGE_SIZE)
      .offset((page - 1) * CONTACT_PAGE_SIZE),
    db.select({ n: count() }).from(contactMessages).where(where),
  ]);
  return { messages: rows, total: total[0]?.n ?? 0, page, pageSize: CONTACT_PAGE_SIZE };
}

/** Marks a message handled (or open again); returns false when there is no such message. */
export async function setContactMessageHandled(
  db: Database,
  { id, handled, now }: { id: number; handled: boolean; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(contactMessages)
    .set({ handledAt: handled ? now : null })
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id });
  return rows.length > 0;
}

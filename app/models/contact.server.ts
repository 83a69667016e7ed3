import type { Database } from "~/db/client.server";
import { contactMessages } from "~/db/schema.server";
import type { ContactInput } from "~/schemas/contact";

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

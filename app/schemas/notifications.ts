import * as z from "~/lib/zod";

/** The notifications list's form: mark one read, or all of them. */
export const NotificationActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("read"),
    notificationId: z
      .number({ error: "Unknown notification." })
      .int()
      .positive({ error: "Unknown notification." }),
  }),
  z.object({ intent: z.literal("read-all") }),
]);

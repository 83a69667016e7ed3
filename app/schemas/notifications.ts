import * as z from "~/lib/zod";
import { recordId } from "./ids";

const notificationId = recordId("Unknown notification.");

/** The notifications list's forms: open one (which reads it), mark one read, or all of them. */
export const NotificationActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("open"), notificationId }),
  z.object({ intent: z.literal("read"), notificationId }),
  z.object({ intent: z.literal("read-all") }),
]);

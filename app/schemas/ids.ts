import { parseId } from "~/lib/ids";
import * as z from "~/lib/zod";

/**
 * A positive record id from a form field or a JSON body: a number, or its digits as text. Never
 * "1e1", "0x0a", " 7", true or [1], which Number() (and so conform's and z.coerce's reading) would
 * also take for an id, acting on a record the sender did not write. Other text becomes NaN here,
 * before conform's own coercion of the number schema could read it.
 */
export const recordId = (message: string) =>
  z.preprocess(
    (value) => (typeof value !== "string" ? value : (parseId(value) ?? Number.NaN)),
    z.number({ error: message }).int({ error: message }).positive({ error: message }),
  );

// The same confirmation screen as /thank-you (SPEC.md route table).
export { default, meta } from "./thank-you";

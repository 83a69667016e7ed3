// Same screen as /admin (SPEC.md: the admin destination after sign-in).
export { default, links, loader, meta, shouldRevalidate } from "./admin._index";

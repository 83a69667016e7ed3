// Same screen as /auth (SPEC.md route table); the tab follows the path.
export { action, clientAction, default, loader, meta } from "./auth/route";

// /ask without an expert: the same screen; the question costs the default price.
export { action, clientAction, default, links, loader, meta } from "./ask.$expertId";

import { apiError } from "~/lib/api.server";

/** Any other path under /api: a JSON 404 (not the HTML not-found page), whatever the method. */
const notFound = () => apiError(404, "No such API call. The list is at /api/openapi.json.");

export const loader = notFound;
export const action = notFound;

import { data } from "@remix-run/cloudflare";

/** The request's form fields; a body that is not a form gets a 400, never a 500. */
export async function readForm(request: Pick<Request, "headers" | "formData">): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.includes("application/x-www-form-urlencoded") && !type.includes("multipart/form-data")) {
    throw data({ error: "Expected a form submission." }, { status: 400 });
  }
  try {
    return await request.formData();
  } catch {
    throw data({ error: "The form could not be read." }, { status: 400 });
  }
}

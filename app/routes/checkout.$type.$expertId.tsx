import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";

const DESTINATIONS = new Map([
  ["question", "/ask"],
  ["session", "/book"],
]);

/** /checkout/{type}/{expertId}: `question` goes to the Ask screen, `session` to booking; anything else is a 404. */
export function loader({ params }: LoaderFunctionArgs) {
  const base = DESTINATIONS.get(params.type ?? "");
  if (!base) throw new Response("Not Found", { status: 404 });
  return redirect(`${base}/${encodeURIComponent(params.expertId ?? "")}`);
}

// Never rendered (the loader always redirects or throws); the root error boundary shows the 404 page.
export default function Checkout() {
  return null;
}

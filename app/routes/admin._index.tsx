import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/auth/guards.server";
import { AdminFrame } from "~/components/admin-frame";

export const meta: MetaFunction = () => [
  { title: "Admin | Expert Answers" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(context, request);
  return { name: user.name ?? user.username };
}

/** /admin and /admin/dashboard are the same screen. */
export default function AdminHome() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <AdminFrame signedInAs={name}>
      <p className="muted">The question desk arrives with the questions work.</p>
    </AdminFrame>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/auth/guards.server";
import { Button } from "~/components/ui/button";

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
    <div className="page stack-lg">
      <header className="page-header">
        <div>
          <h1>Admin</h1>
          <p className="muted">Signed in as {name}</p>
        </div>
        <Form method="post" action="/logout">
          <input type="hidden" name="redirectTo" value="/admin/login" />
          <Button type="submit" variant="secondary" size="sm">
            Logout
          </Button>
        </Form>
      </header>
    </div>
  );
}

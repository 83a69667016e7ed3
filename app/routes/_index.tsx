import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { asc } from "drizzle-orm";
import { categories } from "~/db/schema.server";

export const meta: MetaFunction = () => [{ title: "On-Demand Expert Q&A" }];

export async function loader({ context }: LoaderFunctionArgs) {
  const rows = await context.db
    .select({ name: categories.name, slug: categories.slug })
    .from(categories)
    .orderBy(asc(categories.displayOrder));
  return { categories: rows };
}

export default function Home() {
  const { categories } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>On-Demand Expert Q&A</h1>
      <ul>
        {categories.map((c) => (
          <li key={c.slug}>{c.name}</li>
        ))}
      </ul>
    </main>
  );
}

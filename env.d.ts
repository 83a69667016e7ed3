/// <reference types="@remix-run/cloudflare" />
/// <reference types="@cloudflare/workers-types/2023-07-01" />

declare module "virtual:remix-server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";

  const build: ServerBuild;
  export = build;
}

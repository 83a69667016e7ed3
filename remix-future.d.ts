// Single fetch types for useLoaderData/useActionData (remix.config.js turns v3_singleFetch on).
// This file is a module (the export below), so the block augments Remix's types; in a script file
// it would declare a new, empty "@remix-run/server-runtime" instead and every loader's data would be `any`.
export {};

declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}

import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export type WorkerSize = { file: string; minifiedBytes: number; gzipBytes: number };

/** Bundles the Worker as `wrangler deploy` would (dry run, minified) and measures the script. */
export async function workerBundleSize(root: string): Promise<WorkerSize> {
  const outdir = await mkdtemp(join(tmpdir(), "expert-answers-worker-"));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        join(root, "node_modules", ".bin", "wrangler"),
        ["deploy", "--dry-run", "--minify", "--outdir", outdir],
        { cwd: root, env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" }, stdio: "pipe" },
      );
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0 ? resolve() : reject(new Error(`wrangler deploy --dry-run exited ${code}:\n${output}`)),
      );
    });
    const file = (await readdir(outdir)).find((name) => name.endsWith(".js"));
    if (!file) throw new Error("wrangler deploy --dry-run wrote no script");
    const bytes = await readFile(join(outdir, file));
    return { file, minifiedBytes: bytes.byteLength, gzipBytes: gzipSync(bytes).byteLength };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

import "./node-check.ts";
import { readFile } from "node:fs/promises";
import { generateKeySet, generateSigningKey, parseKeySet, signingKeysVariable } from "../src/tokens/keys.ts";
import { rotateKeySet, rotationWaits, type RotationStep } from "../src/oauth/rotation.ts";

const usage = `Usage:
  npm run -s keys -- generate                      print a new key set (one ES256 key) for ${signingKeysVariable}
  npm run -s keys -- rotate                        explain the rotation
  npm run -s keys -- rotate <step> [--file <path>]  print the next key set; step is publish, switch or retire

The current set is read from --file, else from standard input when it is not a terminal, else from
${signingKeysVariable}. The new set goes to standard output (nothing else does), ready for
  netlify env:set ${signingKeysVariable} "$(...)" --secret
`;

const explanation = `Rotating the signing key takes three deploys, so no verifier meets a token signed by a key it has not
seen and no valid token loses its key:

  1. publish  appends a new key. It is published at /.well-known/jwks.json but does not sign yet.
              Set the variable and deploy.
  2. switch   after at least ${rotationWaits.beforeSwitchMinutes} minutes (the key set is cached for 5), moves the new key first:
              it signs from now on; the old key stays published. Set and deploy.
  3. retire   after at least ${rotationWaits.beforeRetireMinutes} minutes (tokens live 1 hour, plus skew and cache), removes the
              old key. Set and deploy.

Verifiers elsewhere should fetch the key set by its URL and look a kid up again when they meet an unknown one
(jose's createRemoteJWKSet does), instead of pinning a key.
`;

async function currentSet(args: string[]): Promise<string> {
  const fileAt = args.indexOf("--file");
  if (fileAt >= 0) return readFile(args[fileAt + 1] ?? "", "utf8");
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8").trim();
    if (text) return text;
  }
  return process.env[signingKeysVariable] ?? "";
}

async function main([command, step, ...rest]: string[]) {
  if (command === "generate") return console.log(JSON.stringify(await generateKeySet()));
  if (command !== "rotate") return void process.stderr.write(usage);
  if (step === undefined) return void process.stderr.write(explanation);
  if (!["publish", "switch", "retire"].includes(step)) throw new Error(`unknown step "${step}"\n\n${usage}`);
  const keys = parseKeySet(await currentSet(rest));
  const next = rotateKeySet(keys, step as RotationStep, step === "publish" ? await generateSigningKey() : undefined);
  console.log(JSON.stringify({ keys: next }));
  const signing = next[0]!.kid;
  const published = next.map((k) => k.kid).join(", ");
  process.stderr.write(`${step}: ${signing} signs; published: ${published}. Set ${signingKeysVariable} to the line above and deploy.\n`);
}

await main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`keys: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

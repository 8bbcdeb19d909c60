import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "./paths.ts";

// compose.yaml is how many will first run the site with PostgreSQL. A FORM_SECRET written in it
// would be the same for everyone who copied it: anyone could forge the form tokens.

type Compose = { services: Record<string, { environment?: Record<string, string> }> };

describe("compose.yaml", () => {
  it("makes FORM_SECRET a required variable with no default, the same for every instance", async () => {
    const compose = parse(await readFile(path.join(repoRoot, "compose.yaml"), "utf8"), { merge: true }) as Compose;
    const sites = Object.entries(compose.services).filter(([, service]) => service.environment?.DATABASE_URL);
    expect(sites.map(([name]) => name)).toEqual(["site-1", "site-2"]);
    const secrets = new Set(sites.map(([, service]) => service.environment?.FORM_SECRET));
    expect(secrets.size).toBe(1);
    // ${VAR:?message}: Compose stops with the message when VAR is unset or empty.
    expect([...secrets][0]).toMatch(/^\$\{FORM_SECRET:\?[^}]+\}$/);
  });
});

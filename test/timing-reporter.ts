import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

// Where Vitest's time went, for `npm test`'s closing table (scripts/test.ts): one record per test
// file and project, written to test-results/vitest-timings.json when the run ends.

export type FileTiming = {
  project: string;
  file: string;
  /** Import, set-up and every test and hook of the file, in ms. */
  ms: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Tests whose name says they ran on PGlite (`describe.each(testDrivers)`): each has a PostgreSQL twin. */
  onPglite: number;
};

export const timingsFile = (root: string) => path.join(root, "test-results", "vitest-timings.json");

export default class TimingReporter implements Reporter {
  private readonly files: FileTiming[] = [];
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }) {
    this.root = vitest.config.root;
  }

  onTestModuleEnd(module: TestModule) {
    const diagnostic = module.diagnostic();
    const timing: FileTiming = {
      project: module.project.name,
      file: path.relative(this.root, module.moduleId),
      ms: Math.round(
        diagnostic.prepareDuration + diagnostic.setupDuration + diagnostic.collectDuration + diagnostic.duration,
      ),
      passed: 0,
      failed: 0,
      skipped: 0,
      onPglite: 0,
    };
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") timing.passed += 1;
      else if (state === "failed") timing.failed += 1;
      else timing.skipped += 1;
      if (state !== "skipped" && /\bpglite\b/.test(test.fullName)) timing.onPglite += 1;
    }
    this.files.push(timing);
  }

  onTestRunEnd() {
    const file = timingsFile(this.root);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(this.files, null, 1)}\n`);
  }
}

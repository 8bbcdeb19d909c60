import type { BenchSettings } from "./settings.ts";

// One part of `npm run bench`, run alone with `npm run bench -- --only <name>`. A new section is a
// module in sections/ exporting one of these, listed in scripts/bench.ts.

export type BenchSection<Result = unknown> = {
  /** The name --only takes. */
  name: string;
  /** One line for --help. */
  description: string;
  /** Drives its load with wrk: the bench checks wrk is installed before building anything. */
  usesWrk: boolean;
  run: (settings: BenchSettings, progress: (line: string) => void) => Promise<Result>;
  /** The section's table for the terminal. */
  format: (result: Result, settings: BenchSettings) => string;
};

/** Keeps a section's result type checked against its own format(). */
export const defineSection = <Result>(section: BenchSection<Result>): BenchSection<Result> => section;

/** Any section, whatever its result: the bench hands format() what the same section's run() returned. */
export type AnyBenchSection = Omit<BenchSection<unknown>, "format"> & {
  format: (result: never, settings: BenchSettings) => string;
};

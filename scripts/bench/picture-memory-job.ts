import { readFileSync, writeFileSync } from "node:fs";
import sharp from "sharp";
import {
  inspectPicture,
  makeLadder,
  makeVariant,
  pictureWeight,
  reencodeOriginal,
  variantWeight,
} from "../../src/server/media/pipeline.ts";

// One picture's job in a process of its own, for the picture-memory section: the peak of resident
// memory (VmHWM, reset through /proc/self/clear_refs before each step) while its kept original is
// made, while its ladder is made, and while its widest variant is made alone in AVIF, against what
// the line weighs each by. Prints one line of JSON.

const resident = (field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync("/proc/self/status", "utf8"))![1]) * 1024;

/** Runs a step and returns how far resident memory rose above where it was when the step began. */
async function peakOf(step: () => Promise<unknown>): Promise<number> {
  writeFileSync("/proc/self/clear_refs", "5");
  const before = resident("VmRSS");
  await step();
  return resident("VmHWM") - before;
}

const bytes = readFileSync(process.argv[2]!);
// sharp and its codecs loaded before anything is measured.
await sharp({ create: { width: 8, height: 8, channels: 3, background: "#ffffff" } })
  .avif()
  .toBuffer();
const inspected = await inspectPicture(bytes, "bench");
let kept!: Awaited<ReturnType<typeof reencodeOriginal>>;
const keptPeak = await peakOf(async () => (kept = await reencodeOriginal(bytes, "bench", inspected)));
const ladderPeak = await peakOf(() => makeLadder(kept.original, kept.hasAlpha));
const widest = Math.min(1600, kept.original.width);
const variantPeak = await peakOf(() => makeVariant(kept.original.bytes, widest, "avif"));
console.log(
  JSON.stringify({
    inspected,
    weight: pictureWeight(inspected),
    peak: Math.max(keptPeak, ladderPeak),
    keptPeak,
    ladderPeak,
    variantWeight: variantWeight(
      { format: kept.format, width: kept.original.width, height: kept.original.height },
      widest,
    ),
    variantPeak,
  }),
);

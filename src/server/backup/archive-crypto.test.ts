import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CHUNK_BYTES, decryptStream, encryptStream, isEncryptedArchive } from "./archive-crypto.ts";

// The encrypted archive's format (docs/decisions/051-backups-that-restore.md): what goes in comes
// out, and a wrong passphrase, a changed byte, a cut or bytes added after the end are each refused.

const PASSPHRASE = "a passphrase of the test";

async function through(stream: NodeJS.ReadWriteStream, input: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  // Fed in uneven pieces, as a file is read.
  const pieces: Buffer[] = [];
  for (let at = 0; at < input.length; at += 7777) pieces.push(input.subarray(at, at + 7777));
  const output = Readable.from(pieces).pipe(stream as unknown as NodeJS.WritableStream) as unknown as Readable;
  for await (const chunk of output) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("An encrypted archive", () => {
  it.each([0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES + 12345])(
    "gives back the %i bytes it was given, under a header that says it is encrypted",
    async (size) => {
      const plain = randomBytes(size);
      const sealed = await through(encryptStream(PASSPHRASE), plain);
      expect(isEncryptedArchive(sealed)).toBe(true);
      expect(sealed.includes(plain.subarray(0, Math.min(64, size))) && size >= 16).toBe(false);
      expect((await through(decryptStream(PASSPHRASE), sealed)).equals(plain)).toBe(true);
    },
  );

  it("is sealed with a new key each time: the same bytes twice encrypt differently", async () => {
    const plain = Buffer.from("the same bytes");
    const [one, two] = await Promise.all([
      through(encryptStream(PASSPHRASE), plain),
      through(encryptStream(PASSPHRASE), plain),
    ]);
    expect(one.equals(two!)).toBe(false);
  });

  it("refuses a wrong passphrase, a changed byte, a cut, and bytes after its end", async () => {
    const plain = randomBytes(3 * CHUNK_BYTES);
    const sealed = await through(encryptStream(PASSPHRASE), plain);
    await expect(through(decryptStream("another passphrase"), sealed)).rejects.toThrow(/the passphrase is wrong/);
    const changed = Buffer.from(sealed);
    changed[CHUNK_BYTES + 100] = changed[CHUNK_BYTES + 100]! ^ 1;
    await expect(through(decryptStream(PASSPHRASE), changed)).rejects.toThrow(/bytes were changed/);
    // Cut at a chunk's end: every chunk left is whole and genuine, but the last one is missing.
    const firstChunkEnd = 35 + 4 + CHUNK_BYTES + 16;
    await expect(through(decryptStream(PASSPHRASE), sealed.subarray(0, firstChunkEnd))).rejects.toThrow(/cut short/);
    await expect(through(decryptStream(PASSPHRASE), sealed.subarray(0, sealed.length - 5))).rejects.toThrow(
      /cut short/,
    );
    await expect(through(decryptStream(PASSPHRASE), Buffer.concat([sealed, Buffer.from("more")]))).rejects.toThrow(
      /after its end/,
    );
    await expect(through(decryptStream(PASSPHRASE), Buffer.from("not an archive at all, just text"))).rejects.toThrow(
      /not an encrypted archive|cut short/,
    );
  });
});

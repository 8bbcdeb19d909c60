import { createCipheriv, createDecipheriv, randomBytes, scrypt } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";

// A backup archive encrypted with BACKUP_PASSPHRASE: AES-256-GCM from node:crypto, in chunks, so
// that it is written and read as a stream and a change, a cut or a wrong passphrase is found in
// the chunk where it happens. The format is in docs/decisions/051-backups-that-restore.md:
//
//   header  "SGBKENC1" (8 bytes), 1 (the KDF: scrypt), log2 N, r, p (1 byte each), salt (16),
//           nonce prefix (7)                                                       = 35 bytes
//   chunks  length (4 bytes, big-endian; the top bit set on the last chunk), then that many
//           bytes of ciphertext and a 16-byte tag. Nonce: prefix (7) ‖ counter (4, big-endian)
//           ‖ 1 on the last chunk, else 0. Each chunk authenticates the header as its AAD.
//
// The key is scrypt(passphrase, salt) and new for every archive (a new salt), so no nonce repeats
// under one key; the last-chunk flag in the nonce makes a cut archive fail (the STREAM construction).

export const ENCRYPTED_MAGIC = Buffer.from("SGBKENC1");
const HEADER_BYTES = 35;
const KDF_SCRYPT = 1;
const LOG2_N = 15;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
/** Plaintext bytes per chunk. */
export const CHUNK_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const LAST_FLAG = 0x8000_0000;

export class ArchiveDecryptError extends Error {}

function deriveKey(passphrase: string, salt: Buffer, log2n: number, r: number, p: number): Promise<Buffer> {
  if (log2n < 10 || log2n > 20 || r < 1 || r > 32 || p < 1 || p > 4)
    return Promise.reject(new ArchiveDecryptError("its encryption header is damaged"));
  const N = 2 ** log2n;
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

function nonce(prefix: Buffer, counter: number, last: boolean): Buffer {
  const value = Buffer.alloc(12);
  prefix.copy(value, 0);
  value.writeUInt32BE(counter, 7);
  value[11] = last ? 1 : 0;
  return value;
}

/** Encrypts a stream into the format above. */
export function encryptStream(passphrase: string): Transform {
  const salt = randomBytes(16);
  const prefix = randomBytes(7);
  const header = Buffer.concat([ENCRYPTED_MAGIC, Buffer.from([KDF_SCRYPT, LOG2_N, SCRYPT_R, SCRYPT_P]), salt, prefix]);
  const keyReady = deriveKey(passphrase, salt, LOG2_N, SCRYPT_R, SCRYPT_P);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let counter = 0;
  let started = false;

  const seal = (key: Buffer, plain: Buffer, last: boolean): Buffer => {
    if (counter >= 0xffff_ffff) throw new Error("The archive is too large to encrypt");
    const cipher = createCipheriv("aes-256-gcm", key, nonce(prefix, counter, last));
    cipher.setAAD(header);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE((plain.length | (last ? LAST_FLAG : 0)) >>> 0);
    counter += 1;
    return Buffer.concat([length, body, cipher.getAuthTag()]);
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      keyReady.then((key) => {
        if (!started) {
          this.push(header);
          started = true;
        }
        pending.push(chunk);
        pendingBytes += chunk.length;
        // Keep back at least one byte, so that the last chunk is the one flush() seals.
        if (pendingBytes > CHUNK_BYTES) {
          let all = Buffer.concat(pending);
          while (all.length > CHUNK_BYTES) {
            this.push(seal(key, all.subarray(0, CHUNK_BYTES), false));
            all = all.subarray(CHUNK_BYTES);
          }
          pending = [all];
          pendingBytes = all.length;
        }
        callback();
      }, callback);
    },
    flush(callback: TransformCallback) {
      keyReady.then((key) => {
        if (!started) this.push(header);
        this.push(seal(key, Buffer.concat(pending), true));
        callback();
      }, callback);
    },
  });
}

/** True when `start` (the first bytes of a file) is an encrypted archive's. */
export function isEncryptedArchive(start: Buffer): boolean {
  return start.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC);
}

/**
 * Decrypts the format above; fails with ArchiveDecryptError (a sentence) on a wrong passphrase,
 * a changed byte, a cut, or bytes after the last chunk. What it passes on before a failure was
 * authenticated chunk by chunk, so a reader sees no forged byte, but may see a prefix.
 */
export function decryptStream(passphrase: string): Transform {
  let buffered: Buffer = Buffer.alloc(0);
  let header: Buffer | undefined;
  let key: Buffer | undefined;
  let prefix: Buffer | undefined;
  let counter = 0;
  let ended = false;

  const open = (length: number, last: boolean, body: Buffer): Buffer => {
    if (!key || !header || !prefix) throw new ArchiveDecryptError("its encryption header is missing");
    const decipher = createDecipheriv("aes-256-gcm", key, nonce(prefix, counter, last));
    decipher.setAAD(header);
    decipher.setAuthTag(body.subarray(length));
    try {
      const plain = Buffer.concat([decipher.update(body.subarray(0, length)), decipher.final()]);
      counter += 1;
      return plain;
    } catch {
      throw new ArchiveDecryptError(
        counter === 0
          ? "the passphrase is wrong, or its first bytes were changed"
          : `its bytes were changed near byte ${HEADER_BYTES + counter * (CHUNK_BYTES + 20)} of the file`,
      );
    }
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      const work = async () => {
        if (!header) {
          if (buffered.length < HEADER_BYTES) return;
          header = buffered.subarray(0, HEADER_BYTES);
          if (!isEncryptedArchive(header)) throw new ArchiveDecryptError("it is not an encrypted archive");
          if (header[8] !== KDF_SCRYPT) throw new ArchiveDecryptError("its encryption header is damaged");
          key = await deriveKey(passphrase, header.subarray(12, 28), header[9]!, header[10]!, header[11]!);
          prefix = header.subarray(28, 35);
          buffered = buffered.subarray(HEADER_BYTES);
        }
        while (buffered.length >= 4) {
          if (ended) throw new ArchiveDecryptError("it has bytes after its end");
          const field = buffered.readUInt32BE(0);
          const last = (field & LAST_FLAG) !== 0;
          const length = field & ~LAST_FLAG;
          if (length > CHUNK_BYTES) throw new ArchiveDecryptError("its bytes were changed (a chunk is too long)");
          if (buffered.length < 4 + length + TAG_BYTES) return;
          this.push(open(length, last, buffered.subarray(4, 4 + length + TAG_BYTES)));
          buffered = buffered.subarray(4 + length + TAG_BYTES);
          if (last) ended = true;
        }
      };
      work().then(() => callback(), callback);
    },
    flush(callback: TransformCallback) {
      if (!header) return callback(new ArchiveDecryptError("it is cut short (no encryption header)"));
      if (buffered.length > 0 && ended) return callback(new ArchiveDecryptError("it has bytes after its end"));
      if (!ended) return callback(new ArchiveDecryptError("it is cut short"));
      callback();
    },
  });
}

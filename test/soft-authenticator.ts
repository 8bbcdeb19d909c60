import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

// A passkey authenticator in software, for tests that talk to the back office through inject():
// it answers WebAuthn registration and authentication options as a browser with a platform
// authenticator would (attestation "none", ES256 keys, user present and verified), and can be
// made to misbehave (another origin, a replayed counter) to test what the server refuses.

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

// Just enough CBOR (RFC 8949) for an attestation object and a COSE key.
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const head = Buffer.alloc(3);
  head[0] = (major << 5) | 25;
  head.writeUInt16BE(length, 1);
  return head;
}
type Cbor = number | string | Uint8Array | CborMap | { [key: string]: Cbor };
// An interface, not a type alias: a type alias cannot refer to itself through Map.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
interface CborMap extends Map<Cbor, Cbor> {}
function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), Buffer.from(value)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([cborHead(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

type Credential = { id: Buffer; privateKey: KeyObject; publicKey: KeyObject; userHandle: string; counter: number };

export type SoftAuthenticatorOptions = { origin: string; rpId: string };

type CreationOptions = {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
  excludeCredentials?: { id: string }[];
};
type RequestOptions = { challenge: string; rpId?: string };

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  constructor(private readonly options: SoftAuthenticatorOptions) {}

  private authenticatorData(flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(this.options.rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** Answers registration options: makes a new key pair and returns the response JSON. */
  register(options: CreationOptions, overrides: { origin?: string; type?: string; credentialId?: Buffer } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const id = overrides.credentialId ?? randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cbor(coseKey)]);
    // User present, user verified, attested credential data included.
    const authData = this.authenticatorData(0x01 | 0x04 | 0x40, 0, attested);
    const clientData = JSON.stringify({
      type: overrides.type ?? "webauthn.create",
      challenge: options.challenge,
      origin: overrides.origin ?? this.options.origin,
      crossOrigin: false,
    });
    this.credentials.push({ id, privateKey, publicKey, userHandle: options.user.id, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(Buffer.from(clientData)),
        attestationObject: b64url(cbor({ fmt: "none", attStmt: {}, authData })),
        transports: ["internal"],
      },
    };
  }

  /** Answers authentication options with a credential (the newest by default): a signed assertion. */
  authenticate(
    options: RequestOptions,
    overrides: { credential?: Credential; origin?: string; counter?: number; userVerified?: boolean } = {},
  ) {
    const credential = overrides.credential ?? this.credentials.at(-1);
    if (!credential) throw new Error("the soft authenticator has no credential");
    credential.counter = overrides.counter ?? credential.counter + 1;
    const flags = 0x01 | (overrides.userVerified === false ? 0 : 0x04);
    const authData = this.authenticatorData(flags, credential.counter);
    const clientData = Buffer.from(
      JSON.stringify({
        type: "webauthn.get",
        challenge: options.challenge,
        origin: overrides.origin ?? this.options.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}

import { createServer } from "node:net";
import { SMTPServer } from "smtp-server";

// A real SMTP server for the tests (the smtp-server package), listening on loopback. It keeps
// every message it accepts, with its envelope and parsed headers.

export type ReceivedMail = {
  from: string;
  to: string[];
  headers: Map<string, string[]>;
  body: string;
  raw: string;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function parseMessage(raw: string): { headers: Map<string, string[]>; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string[]>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  const body = raw.slice(split + 4);
  const encoding = headers.get("content-transfer-encoding")?.[0]?.toLowerCase();
  return {
    headers,
    body:
      encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : encoding === "base64"
          ? Buffer.from(body, "base64").toString("utf8")
          : body,
  };
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

export type SmtpPeerOptions = {
  /** Refuse every recipient with this SMTP answer (550: for good; 450: try later), quoting the address. */
  rejectRecipients?: { responseCode: number; message: string };
};

export class SmtpPeer {
  readonly messages: ReceivedMail[] = [];
  /** Recipients refused because of `rejectRecipients`. */
  readonly rejected: string[] = [];
  private server: SMTPServer | undefined;
  private waiters: (() => void)[] = [];

  constructor(
    readonly port: number,
    private readonly options: SmtpPeerOptions = {},
  ) {}

  static async start(port?: number, options: SmtpPeerOptions = {}): Promise<SmtpPeer> {
    const peer = new SmtpPeer(port ?? (await freePort()), options);
    await peer.listen();
    return peer;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const reject = this.options.rejectRecipients;
        if (!reject) return callback();
        this.rejected.push(address.address);
        callback(
          Object.assign(new Error(`<${address.address}>: ${reject.message}`), { responseCode: reject.responseCode }),
        );
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
            ...parseMessage(raw),
          });
          this.waiters.splice(0).forEach((wake) => wake());
          callback();
        });
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once `count` messages have arrived; rejects after `timeoutMs`. */
  async waitForMessages(count: number, timeoutMs = 20_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.messages.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} messages, got ${this.messages.length} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.messages;
  }
}

import { createServer, type Server, type Socket, connect } from "node:net";

// A loopback TCP proxy in front of PostgreSQL that a test can cut and restore, to make the
// database unreachable without touching the server itself.

export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
  }

  /** Refuses new connections and cuts the open ones. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A TCP server that accepts every connection and never says a word: a database that hangs. */
export class SilentTcpServer {
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((socket) => {
    this.sockets.add(socket);
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.sockets.delete(socket));
  });

  get port(): number {
    const address = this.server.address();
    return typeof address === "object" && address ? address.port : 0;
  }

  static async start(): Promise<SilentTcpServer> {
    const silent = new SilentTcpServer();
    await new Promise<void>((resolve, reject) => {
      silent.server.once("error", reject);
      silent.server.listen(0, "127.0.0.1", () => resolve());
    });
    return silent;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL (PGlite's socket or a real server) that a test can cut: `cut()` drops every
 * open connection at once (as a server restart or pg_terminate_backend does to the client) and refuses new ones
 * until `restore()`. Nothing is mocked: the service talks the real wire protocol through it.
 */
export class FaultProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private down = false;
  private target!: { host: string; port: number } | { path: string };
  /** Connections accepted and forwarded (for figures). */
  accepted = 0;
  /** Connections refused while down. */
  refused = 0;

  private constructor() {
    this.server = net.createServer((client) => this.accept(client));
  }

  /** Starts a proxy to the server of `url` on a free local port. */
  static async start(url: string): Promise<FaultProxy> {
    const proxy = new FaultProxy();
    const u = new URL(url);
    // `?host=/dir` is a unix socket directory (embedded PGlite), as libpq and `pg` read it.
    const socketDir = u.searchParams.get('host');
    const port = Number(u.port || 5432);
    proxy.target = socketDir?.startsWith('/') ? { path: `${socketDir}/.s.PGSQL.${port}` } : { host: u.hostname, port };
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    u.searchParams.delete('host');
    return u.toString();
  }

  /** Drops every open connection and refuses new ones until restore(). */
  cut(): void {
    this.down = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.down = false;
  }

  get isDown(): boolean {
    return this.down;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.down) {
      this.refused++;
      client.destroy();
      return;
    }
    this.accepted++;
    const upstream = 'path' in this.target ? net.connect(this.target.path) : net.connect(this.target.port, this.target.host);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}

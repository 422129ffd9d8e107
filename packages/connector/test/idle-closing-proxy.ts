/**
 * A TCP proxy in front of the simulator that plays a server closing an idle keep-alive connection
 * at the very moment a request is written to it: once armed, the next request arriving on a
 * connection that has already carried an answer is not passed on, and the connection is reset.
 * (The simulator's own server closes idle connections by a timer, which a test cannot line up with
 * a request; the proxy makes the collision certain, whatever the machine's load.)
 */
import net from 'node:net';

/** A running proxy. */
export interface IdleClosingProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Requests refused by resetting their connection so far. */
  readonly dropped: number;
  /** Resets the next request that arrives on a connection used before. */
  armReset(): void;
  close(): Promise<void>;
}

/**
 * Starts the proxy on a free port of 127.0.0.1.
 *
 * @param target - the simulator's base URL
 */
export async function startIdleClosingProxy(target: string): Promise<IdleClosingProxy> {
  const { hostname, port } = new URL(target);
  let dropped = 0;
  let armed = false;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    open.add(client);
    open.add(upstream);
    let answered = false;
    client.on('data', (chunk) => {
      if (armed && answered) {
        armed = false;
        dropped++;
        upstream.destroy();
        client.resetAndDestroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      answered = true;
      client.write(chunk);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    get dropped() {
      return dropped;
    },
    armReset() {
      armed = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A raw HTTP/1.1 server on 127.0.0.1 (port 0) that answers GETs on a keep-alive connection and drops the connection
 * without a word after reading the first POST — a service that received a write and crashed, or a proxy closing an
 * idle connection as the request arrives. Later POSTs are answered 201. It counts every POST it read, so a test can
 * prove a write was sent exactly once.
 * @module
 */

/** A running dropping server. */
export interface DroppingServer {
  url: string;
  /** POST requests read so far (the first one was dropped). */
  posts(): number;
  close(): Promise<void>;
}

const enc = new TextEncoder();

/** Start it; `getBody` is the JSON a GET answers. */
export function startDroppingServer(getBody = '{"notes":[]}'): DroppingServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  let posts = 0;
  const serve = async (c: Deno.Conn) => {
    conns.add(c);
    const buf = new Uint8Array(64 * 1024);
    try {
      while (true) {
        const n = await c.read(buf);
        if (n === null) break;
        const text = new TextDecoder().decode(buf.subarray(0, n));
        if (text.startsWith("GET")) {
          await c.write(enc.encode(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${getBody.length}\r\n` +
              `connection: keep-alive\r\n\r\n${getBody}`,
          ));
        } else if (text.startsWith("POST")) {
          posts++;
          if (posts === 1) break; // read, then dropped with no answer
          const body = '{"id":"n-2"}';
          await c.write(enc.encode(
            `HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
          ));
        }
      }
    } catch {
      // the client went away
    } finally {
      conns.delete(c);
      try {
        c.close();
      } catch {
        // closed already
      }
    }
  };
  const accepting = (async () => {
    try {
      for await (const c of listener) serve(c);
    } catch {
      // listener closed
    }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    posts: () => posts,
    async close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // closed already
        }
      }
      await accepting;
    },
  };
}

/**
 * The client address of an HTTP request, for the failed-auth limiter and the owner key. By default it is the socket
 * peer: `X-Forwarded-For` is client-controlled, so trusting it would let a caller dodge the limiter with a new value
 * per attempt. With `--trusted-proxy CIDR[,CIDR…]` a peer inside those ranges is a reverse proxy ptc believes: the
 * client is then the right-most `X-Forwarded-For` (or `Forwarded: for=`) entry that is not itself a trusted proxy —
 * the address the nearest trusted hop saw — so one bad client behind the proxy cannot lock out everyone else.
 * CIDR parsing and matching use `ipaddr.js`.
 * @module
 */
import ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parsed trusted-proxy ranges. */
export interface TrustedProxies {
  readonly ranges: readonly Range[];
  /** The ranges as given, normalized (`10.0.0.0/8`), for diagnostics. */
  readonly text: readonly string[];
}

/** Most forwarded entries looked at (a longer header is read from its right end only). */
const MAX_HOPS = 16;

/** Parse `CIDR` or bare-address entries; throws an Error naming the bad entry. */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  const ranges: Range[] = [];
  for (const entry of entries) {
    const text = entry.trim();
    try {
      if (text.includes("/")) {
        const [addr, bits] = ipaddr.parseCIDR(text);
        ranges.push([addr, bits]);
      } else {
        const addr = ipaddr.parse(text);
        ranges.push([addr, addr.kind() === "ipv4" ? 32 : 128]);
      }
    } catch {
      throw new Error(`'${text}' is not an IP address or CIDR range (e.g. 10.0.0.0/8, 127.0.0.1, fd00::/8)`);
    }
  }
  return { ranges, text: ranges.map(([a, bits]) => `${a.toString()}/${bits}`) };
}

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let t = text.trim().replace(/^"|"$/g, "");
  if (t.startsWith("[")) t = t.slice(1, t.indexOf("]") > 0 ? t.indexOf("]") : undefined);
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(t)) t = t.slice(0, t.lastIndexOf(":"));
  if (!ipaddr.isValid(t)) return undefined;
  try {
    return ipaddr.process(t); // IPv4-mapped IPv6 (::ffff:10.0.0.1) → IPv4
  } catch {
    return undefined;
  }
}

function trusted(addr: ipaddr.IPv4 | ipaddr.IPv6, proxies: TrustedProxies): boolean {
  return proxies.ranges.some(([range, bits]) => {
    if (addr.kind() !== range.kind()) return false;
    return addr.kind() === "ipv4"
      ? (addr as ipaddr.IPv4).match(range as ipaddr.IPv4, bits)
      : (addr as ipaddr.IPv6).match(range as ipaddr.IPv6, bits);
  });
}

/** Forwarded-for entries, left (original client) to right (nearest hop). */
function forwardedChain(headers: Headers): string[] {
  const xff = headers.get("x-forwarded-for");
  if (xff !== null) return xff.split(",").slice(-MAX_HOPS);
  const fwd = headers.get("forwarded");
  if (fwd === null) return [];
  return fwd.split(",").slice(-MAX_HOPS).map((element) => {
    const pair = element.split(";").map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("for="));
    return pair ? pair.slice(4) : "";
  });
}

/**
 * The client address for `peer` (the socket's remote address). Without trusted proxies, or when the peer is not one,
 * the peer itself; otherwise the right-most forwarded entry outside the trusted ranges (a missing or unreadable
 * entry stops the walk at the proxy, which is then the client: never an address the request could invent).
 */
export function clientAddress(peer: string, headers: Headers, proxies: TrustedProxies | undefined): string {
  if (!proxies || proxies.ranges.length === 0) return peer;
  const peerAddr = parseAddress(peer);
  if (!peerAddr || !trusted(peerAddr, proxies)) return peer;
  let client = peerAddr;
  for (const entry of forwardedChain(headers).reverse()) {
    const addr = parseAddress(entry);
    if (!addr) break;
    client = addr;
    if (!trusted(addr, proxies)) break;
  }
  return client.toString();
}

/**
 * Whether a request was made on this machine, for this machine: the demo key is well known,
 * so it must not work for anyone else (decisions.md, "Shapefiles and keys"). Listening on
 * loopback is not enough. A web page on another site, open in the developer's browser, can
 * send requests to 127.0.0.1 (its `Origin` says where it comes from), and a DNS-rebinding
 * page can do so under its own host name (its `Host` says which name it used): the hole
 * dev servers such as Vite closed by checking both (CVE-2025-24010). A reverse proxy on the
 * same host passes on requests from anywhere (it adds `Forwarded` or `X-Forwarded-For`).
 */
import { echo } from '../errors.ts';

/** A host name or address that only this machine answers to: localhost, ::1, 127.x.y.z. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A request a reverse proxy passed on: a proxy on the same host would otherwise open the demo key to the world. */
function fromProxy(headers: Headers): boolean {
  return headers.has('forwarded') || headers.has('x-forwarded-for');
}

/** `host[:port]` or `[v6]:port`, as the Host header and an origin's authority spell them; nothing else. */
const AUTHORITY = /^(?:\[([\da-f:.]+)\]|([^\s:/?#@[\]]+))(?::\d{1,5})?$/i;

/** Whether a Host header value (`127.0.0.1:3000`, `localhost`, `[::1]:8080`) names loopback. */
function isLoopbackAuthority(authority: string): boolean {
  const match = AUTHORITY.exec(authority);
  return match !== null && isLoopbackHost((match[1] ?? match[2]).toLowerCase());
}

/**
 * Whether an Origin header names a page served from this machine (`http://127.0.0.1:5173`,
 * `https://localhost`). `null` (a sandboxed frame, a page opened from a file) does not: any
 * file the browser was made to download could be such a page.
 */
function isLoopbackOrigin(origin: string): boolean {
  const match = /^https?:\/\/(.*)$/i.exec(origin);
  return match !== null && isLoopbackAuthority(match[1]);
}

const CONFIGURE_KEYS = 'configure an access key (`keys` in the configuration) to serve anyone else.';

/**
 * Why the demo key may not serve this request, as a sentence for the 401; undefined when it
 * may. The host is checked twice: the Host header, and the URL the runtime built (which an
 * absolute request target, `GET http://evil.example/… HTTP/1.1`, may name instead).
 */
export function demoKeyRefusal(url: string, headers: Headers): string | undefined {
  const local = 'The demo key works only for requests to and from this machine';
  if (fromProxy(headers)) {
    return `${local}; this request came through a proxy (it has a Forwarded or X-Forwarded-For header): ${CONFIGURE_KEYS}`;
  }
  const hosts = [headers.get('host'), new URL(url).host].filter((host): host is string => !!host);
  const foreignHost = hosts.find((host) => !isLoopbackAuthority(host));
  if (foreignHost !== undefined) {
    return `${local} (Host 127.0.0.1, localhost or [::1]); this request was sent to Host '${echo(foreignHost)}': ${CONFIGURE_KEYS}`;
  }
  const origin = headers.get('origin');
  if (origin !== null && !isLoopbackOrigin(origin)) {
    return `${local} (pages served from 127.0.0.1, localhost or [::1]); this request comes from a page of Origin '${echo(origin)}': ${CONFIGURE_KEYS}`;
  }
  return undefined;
}

/**
 * The start-up key (docs/configuration.md, "The start-up key"): a random key the server makes
 * when it starts with no keys configured, and prints in its start-up URLs, as Jupyter prints
 * its token. Being random, it is the real defence: nobody who has not seen the terminal knows
 * it. The rules here keep it from being used by someone else's page in the browser of the one
 * who has it. A page of another site can make that browser send requests to this server (an
 * `<img>` answering or failing is a yes/no oracle over the data), and the browser marks them
 * `Sec-Fetch-Site: cross-site`. While the server listens on loopback, a DNS-rebinding page
 * reaches it under its own host name (its `Host` says which) and a page of another machine's
 * origin says so in its `Origin`: the hole dev servers such as Vite closed by checking both
 * (CVE-2025-24010).
 */
import { randomBytes } from 'node:crypto';
import { echo } from '../errors.ts';

/** A host name or address that only this machine answers to: localhost, ::1, 127.x.y.z. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * 192 random bits as 48 hexadecimal digits, as Jupyter's token: safe in a URL and a shell, and
 * selected whole by a double click in a terminal (base64url's `-` and `_` break that).
 */
export function makeStartUpKey(): string {
  return randomBytes(24).toString('hex');
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
export function isLoopbackOrigin(origin: string): boolean {
  const match = /^https?:\/\/(.*)$/i.exec(origin);
  return match !== null && isLoopbackAuthority(match[1]);
}

const CONFIGURE_KEYS = 'configure an access key (`keys` in the configuration) to serve anyone else.';

/**
 * Why the start-up key may not serve this request, as the 403's sentence (it names the rule,
 * never the key); undefined when it may. While listening on loopback the host is checked
 * twice: the Host header, and the URL the runtime built (which an absolute request target,
 * `GET http://evil.example/… HTTP/1.1`, may name instead).
 */
export function startUpKeyRefusal(url: string, headers: Headers, listensOnLoopback: boolean): string | undefined {
  if (listensOnLoopback) {
    const local = 'The start-up key of a server on loopback serves only requests to and from this machine';
    const hosts = [headers.get('host'), new URL(url).host].filter((host): host is string => !!host);
    const foreignHost = hosts.find((host) => !isLoopbackAuthority(host));
    if (foreignHost !== undefined) {
      return `${local} (Host 127.0.0.1, localhost or [::1]); this request was sent to Host '${echo(foreignHost)}': ${CONFIGURE_KEYS}`;
    }
    const origin = headers.get('origin');
    if (origin !== null && !isLoopbackOrigin(origin)) {
      return `${local} (pages served from 127.0.0.1, localhost or [::1]); this request comes from a page of Origin '${echo(origin)}': ${CONFIGURE_KEYS}`;
    }
  }
  if (headers.get('sec-fetch-site') === 'cross-site') {
    return `The start-up key serves no page of another site, and the browser marked this request Sec-Fetch-Site: cross-site: ${CONFIGURE_KEYS}`;
  }
  return undefined;
}

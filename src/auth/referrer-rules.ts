/**
 * A key's `referrers` rule: the pages that may use the key, told by the Referer and Origin
 * headers browsers send (docs/configuration.md, "Allowed sites"). A key in a public page is
 * public; this keeps other sites' pages, in a visitor's browser, from using it. It does not
 * hold off a client that writes its own headers (curl): that is what signed URLs are for.
 */
import { echo } from '../errors.ts';
import { REFERRER_PATTERN } from '../config/schema.ts';

export interface ReferrerRule {
  patterns: readonly ReferrerPattern[];
  /** Whether a request with neither Referer nor Origin is served. */
  allowNoReferrer: boolean;
}

/** One pattern, in three parts that are matched apart, so that no `*` runs from one into another. */
interface ReferrerPattern {
  scheme: (text: string) => boolean;
  host: (text: string) => boolean;
  path: (text: string) => boolean;
}

/** The rule a key's configuration states; patterns are valid by the configuration's schema (REFERRER_PATTERN). */
export function compileReferrerRule(patterns: readonly string[], allowNoReferrer = false): ReferrerRule {
  return {
    allowNoReferrer,
    patterns: patterns.map((pattern) => {
      const { scheme, host, path } = REFERRER_PATTERN.exec(pattern)!.groups!;
      // Schemes and hosts are case-insensitive, and URL gives them in lower case; paths are not.
      return { scheme: wildcard(scheme.toLowerCase()), host: wildcard(host.toLowerCase()), path: wildcard(path ?? '/*') };
    }),
  };
}

/**
 * A matcher of `*` (any run of characters, none included) and literal text. Each literal
 * piece is found at the leftmost place after the one before, which is right for `*` alone
 * and takes time linear in the text for each piece: no pattern and no header can make it
 * backtrack.
 */
export function wildcard(pattern: string): (text: string) => boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return (text) => text === pattern;
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  const middle = pieces.slice(1, -1);
  return (text) => {
    if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
    const end = text.length - last.length;
    let at = first.length;
    for (const piece of middle) {
      const found = text.indexOf(piece, at);
      if (found < 0 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return true;
  };
}

/**
 * Why the rule refuses a request with these headers, as a sentence for the 403; undefined
 * when it allows it. Each header that came must be allowed. A Referer is matched on its
 * scheme, host and path (its query is not looked at); an Origin, which has no path, on its
 * scheme and host. Browsers send a page on another site only its origin as Referer
 * (`https://a.example.org/`, path `/`) unless the page's Referrer-Policy says otherwise.
 */
export function referrerRefusal(rule: ReferrerRule, referer: string | undefined, origin: string | undefined): string | undefined {
  if (!referer && !origin) {
    return rule.allowNoReferrer
      ? undefined
      : "This key's referrers rule allows only the pages it lists, and this request has neither a Referer nor an Origin header " +
          '(allowNoReferrer is not set).';
  }
  for (const [name, header] of [['Referer', referer], ['Origin', origin]] as const) {
    if (!header) continue;
    const page = pageOf(header, name === 'Referer');
    if (page === undefined || !rule.patterns.some((pattern) => matches(pattern, page))) {
      // The page as the rule saw it: never a Referer's query, which may hold what the page's visitor typed.
      const shown = page === undefined ? header : `${page.scheme}://${page.host}${page.path ?? ''}`;
      return `This key's referrers rule does not allow ${echo(shown)} (the request's ${name} header).`;
    }
  }
  return undefined;
}

/** What the rule looks at in a header; a path only for a Referer. */
interface Page {
  scheme: string;
  host: string;
  path?: string;
}

/** Undefined for what names no page: not a URL, or an opaque origin (`null`: a sandboxed frame, a file). */
function pageOf(header: string, withPath: boolean): Page | undefined {
  const url = header === 'null' ? null : URL.parse(header);
  if (url === null) return undefined;
  const page = { scheme: url.protocol.slice(0, -1), host: url.host };
  return withPath ? { ...page, path: url.pathname } : page;
}

function matches(pattern: ReferrerPattern, page: Page): boolean {
  return pattern.scheme(page.scheme) && pattern.host(page.host) && (page.path === undefined || pattern.path(page.path));
}

/**
 * Signed URLs (docs/configuration.md, "Signed URLs"): a key in a public page is public, so a
 * key may ask that each of its URLs carry `signature`, the HMAC-SHA256 of the URL's path and
 * query made with a secret the page's author keeps, as Google's Static Maps signs URLs. A
 * copied key then draws only the pictures its author signed.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export interface UrlSigning {
  /** The secret's UTF-8 bytes, as a KeyObject: it prints as no bytes if a grant is ever logged. */
  secret: KeyObject;
  /** Whether a request without a signature is refused; otherwise a signature is checked when one comes. */
  required: boolean;
}

export function urlSigning(secret: string, required = false): UrlSigning {
  return { secret: createSecretKey(Buffer.from(secret, 'utf8')), required };
}

/** 32 bytes of HMAC-SHA256 in unpadded URL-safe base64. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The path and query of a URL, and the signature when it is its last parameter: what was
 * signed is what comes before `&signature=` (or `?signature=`, its only parameter).
 */
export function splitSignature(pathAndQuery: string): { signed: string; signature: string } | undefined {
  const query = pathAndQuery.indexOf('?');
  if (query < 0) return undefined;
  const last = Math.max(pathAndQuery.lastIndexOf('&'), query);
  const parameter = pathAndQuery.slice(last + 1);
  // Parameter names are case-insensitive everywhere in the interface (docs/api.md, "Requests").
  if (parameter.slice(0, 10).toLowerCase() !== 'signature=') return undefined;
  return { signed: pathAndQuery.slice(0, last), signature: parameter.slice(10) };
}

/**
 * The forms the request's path and query may have been signed in. The runtimes hand the app
 * a URL parsed as WHATWG's URL standard says, which leaves a well-formed target as it was
 * sent but for dot segments (`/./`, `/../`: no route has them) and for `'` in the query, which
 * RFC 3986 allows unencoded and WHATWG writes `%27`. Node's adapter passes a plain target on
 * as it came but parses one with a `%` in it, and encodeURIComponent leaves `'` alone, so
 * `where=NAME%20LIKE%20'Ne%25'` is sent that way. Both forms are the same URL.
 */
function formsAsSent(signed: string): string[] {
  const query = signed.indexOf('?');
  if (query < 0 || !signed.includes('%27', query)) return [signed];
  return [signed, signed.slice(0, query) + signed.slice(query).replaceAll('%27', "'")];
}

/**
 * Why the signing rule refuses a request (its path and query as the runtime gives them), as
 * a sentence for the 403; undefined when the signature is valid, or absent and not required.
 * The comparison takes the same time however close a forged signature comes.
 */
export function signatureRefusal(signing: UrlSigning, pathAndQuery: string): string | undefined {
  const split = splitSignature(pathAndQuery);
  if (split === undefined) {
    if (/[?&]signature=/i.test(pathAndQuery)) return "Parameter 'signature' must be the last parameter of the URL.";
    return signing.required
      ? "This key accepts only signed URLs: add the parameter 'signature', last, made with the key's signing secret " +
          '(the unpadded URL-safe base64 of the HMAC-SHA256 of the path and query; see "Signed URLs" in docs/configuration.md).'
      : undefined;
  }
  if (!SIGNATURE.test(split.signature)) {
    return `Parameter 'signature' must be 43 characters of URL-safe base64 (A-Z, a-z, 0-9, '-', '_') without '=' padding; got ${split.signature.length} characters.`;
  }
  const given = Buffer.from(split.signature, 'base64url');
  const valid = formsAsSent(split.signed).some((signed) => timingSafeEqual(given, createHmac('sha256', signing.secret).update(signed, 'utf8').digest()));
  return valid
    ? undefined
    : "Parameter 'signature' does not match this URL: sign its path and query as sent, up to the signature, with this key's signing secret.";
}

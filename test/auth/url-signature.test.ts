/**
 * The signature rule alone (auth/url-signature.ts): what is signed, where the signature must
 * stand, what it must look like, and that one changed character refuses it. The recipes that
 * make signatures are run against the server in signed-urls.test.ts.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureRefusal, splitSignature, urlSigning } from '../../src/auth/url-signature.ts';

const SECRET = 'a-signing-secret-for-tests';
const PATH = '/REST/v1/shapefiles/images?file=countries&fid=0&format=png&key=some-key-0123';

/** Signed here the way docs/configuration.md's recipes sign, so that the rule is tested apart from them. */
const sign = (pathAndQuery: string, secret = SECRET) =>
  `${pathAndQuery}&signature=${createHmac('sha256', secret).update(pathAndQuery).digest('base64url')}`;

describe('splitSignature', () => {
  it('takes the last parameter out with the separator before it', () => {
    expect(splitSignature('/a?x=1&signature=abc')).toEqual({ signed: '/a?x=1', signature: 'abc' });
    expect(splitSignature('/a?signature=abc')).toEqual({ signed: '/a', signature: 'abc' });
    expect(splitSignature('/a?x=1&Signature=abc')).toEqual({ signed: '/a?x=1', signature: 'abc' });
  });

  it('finds none unless it is the last parameter', () => {
    expect(splitSignature('/a')).toBeUndefined();
    expect(splitSignature('/a?x=1')).toBeUndefined();
    expect(splitSignature('/a?signature=abc&x=1')).toBeUndefined();
    expect(splitSignature('/a?x=1&mysignature=abc')).toBeUndefined();
  });
});

describe('signatureRefusal', () => {
  const optional = urlSigning(SECRET);
  const required = urlSigning(SECRET, true);

  it('accepts a signature over the path and query, required or not', () => {
    expect(signatureRefusal(required, sign(PATH))).toBeUndefined();
    expect(signatureRefusal(optional, sign(PATH))).toBeUndefined();
  });

  it('refuses a changed parameter, another secret, another path, and a signature moved from its place', () => {
    const signed = sign(PATH);
    const wrong = /^Parameter 'signature' does not match this URL/;
    expect(signatureRefusal(required, signed.replace('fid=0', 'fid=1'))).toMatch(wrong);
    expect(signatureRefusal(required, signed.replace('/images?', '/map?'))).toMatch(wrong);
    expect(signatureRefusal(required, `${signed.replace('&signature', '&format=json&signature')}`)).toMatch(wrong);
    expect(signatureRefusal(required, sign(PATH, 'another-signing-secret'))).toMatch(wrong);
    const moved = PATH.replace('?', `?${signed.slice(signed.indexOf('signature='))}&`);
    expect(signatureRefusal(required, moved)).toBe("Parameter 'signature' must be the last parameter of the URL.");
  });

  it('needs a signature only when required', () => {
    expect(signatureRefusal(optional, PATH)).toBeUndefined();
    expect(signatureRefusal(required, PATH)).toMatch(/^This key accepts only signed URLs: add the parameter 'signature', last/);
  });

  it('takes only unpadded URL-safe base64 of 32 bytes', () => {
    const signature = createHmac('sha256', SECRET).update(PATH).digest();
    for (const written of [signature.toString('base64'), signature.toString('base64url') + '=', signature.toString('hex'), '']) {
      expect(signatureRefusal(required, `${PATH}&signature=${written}`), written).toMatch(/^Parameter 'signature' must be 43 characters of URL-safe base64/);
    }
  });

  it("accepts a query signed with ' that the runtime hands over as %27, and the reverse is the URL as sent", () => {
    const raw = "/REST/v1/shapefiles/images?file=countries&where=NAME%20LIKE%20'Ne%25'&key=k";
    const signed = sign(raw);
    expect(signatureRefusal(required, signed.replaceAll("'", '%27'))).toBeUndefined();
    expect(signatureRefusal(required, sign(raw.replaceAll("'", '%27')))).toBeUndefined();
  });

  it('never quotes the secret or the signature', () => {
    const refusals = [PATH, sign(PATH).replace('fid=0', 'fid=2'), `${PATH}&signature=${SECRET}`].map((url) => signatureRefusal(required, url) ?? '');
    for (const refusal of refusals) {
      expect(refusal).not.toBe('');
      expect(refusal).not.toContain(SECRET);
      expect(refusal).not.toContain(createHmac('sha256', SECRET).update(PATH).digest('base64url'));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { byteList } from '../../src/envelope/byte-list.ts';

/** byteList's text on its own. */
function byteListJson(bytes: Uint8Array): Uint8Array {
  const list = byteList(bytes);
  const text = new Uint8Array(list.length);
  list.writeInto(text);
  return text;
}

describe('byteList', () => {
  it('writes what join(",") writes, as ASCII bytes', () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919 + (i >> 3)) % 256);
    expect(new TextDecoder().decode(byteListJson(bytes))).toBe(Array.from(bytes).join(','));
    expect(JSON.parse(`[${new TextDecoder().decode(byteListJson(bytes))}]`)).toEqual(Array.from(bytes));
  });

  it('writes nothing for no bytes, and one number for one', () => {
    expect(byteListJson(new Uint8Array(0))).toEqual(new Uint8Array(0));
    expect(new TextDecoder().decode(byteListJson(Uint8Array.of(255)))).toBe('255');
  });
});

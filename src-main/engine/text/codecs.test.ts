import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { CODE_PAGES } from './codecs.ts';

describe('the code pages mojibake is read with', () => {
  it("map each upper-half byte's char (a C1 control where the page has none) back to the byte", () => {
    for (const page of CODE_PAGES) {
      for (let byte = 0x80; byte <= 0xff; byte++) {
        // The page's char for the byte alone, decoded by itself.
        const alone = iconv.decode(Buffer.from([byte]), page.name);
        const char = alone === '\ufffd' ? String.fromCharCode(byte) : alone;
        expect([page.name, byte, page.toByte.get(char)]).toEqual([page.name, byte, byte]);
      }
      expect(page.lead2.length + page.lead3.length + page.lead4.length).toBe(0xf4 - 0xc2 + 1);
    }
  });
});

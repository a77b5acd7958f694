/**
 * Mojibake that `fixEncoding` leaves behind: sequences a partial repair, a
 * lost byte ("?" in its place) or a too-cautious plausibility test left in the
 * text ("namedÂ „", "ItÃ?¢â?¬â?¢s", "à¸‡"). They cannot be decoded safely,
 * but they are reported, so the sample is flagged for a human.
 *
 * Only sequences that real text does not contain count: an accented letter
 * before a quote, an ellipsis or a trademark sign ("café…", "NESTLÉ®",
 * "DrÃ¥ber", "lá´´") is typography, and is not reported. Measured: none of
 * the 31 negative ftfy cases and no field of the real datasets match.
 */

/** Continuation chars (Windows-1252 reading) that never follow a letter in real text. */
const ODD = String.raw`\u0080-\u009f¢£¤¥¦§¬\u00ad¯±µ¶¸¼½¾€‚„†‡ˆ‰‹˜›`;

const LEFTOVER = new RegExp(
  [
    String.raw`Â[\u00a0-\u00bf]`, // "Â " "Â°" "Â£": a stray lead before a Latin-1 sign
    String.raw`(?<=\p{Ll})Â(?=\s)`, // "namedÂ „": a no-break space turned into a space
    String.raw`â[€‚„]`, // "â€", "â‚¬", "â„¢": general punctuation, €, ™
    String.raw`[ÃÂâ]\?[¢¬]`, // a byte lost to "?": "Ã?¢", "â?¬"
    String.raw`ðŸ`, // an emoji's first two bytes
    String.raw`ï»¿|ï¿½`, // a byte-order mark, a replacement character
    String.raw`[àáâãäåæçèéêëìíîï][${ODD}][${ODD}]`, // a 3-byte sequence ("à¸‡")
  ].join('|'),
  'gu',
);

/** Where leftover mojibake sequences are in `text` (their offsets). */
export function leftoverMojibake(text: string): number[] {
  if (!/[\u00c2-\u00f0]/u.test(text)) return [];
  return [...text.matchAll(LEFTOVER)].map((m) => m.index);
}

/** How the UI writes dates and counts. Dates are UTC, as stored. */

/** `2026-11-22 19:42 UTC` (stored and shown in UTC, and said so) */
export const toMinute = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** `2026-11-22 19:42:11 UTC` */
export const toSecond = (iso: string): string => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** `1 row`, `1,200 rows`; `many` where adding an s is wrong. */
export const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** `512 bytes`, `13 KiB`, `4.2 MiB`: a small file is not "0 KiB". */
export const fileSize = (bytes: number): string =>
  bytes < 1024
    ? count(bytes, 'byte')
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(0)} KiB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

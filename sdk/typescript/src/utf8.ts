// UTF-8 for the file API: StarlingMonkey has `TextEncoder`/`TextDecoder`,
// the default QuickJS engine has neither, so the codec is here for it.

interface Codecs {
  TextEncoder?: new () => { encode(text: string): Uint8Array };
  TextDecoder?: new () => { decode(bytes: Uint8Array): string };
}
const { TextEncoder: Encoder, TextDecoder: Decoder } = globalThis as Codecs;

/** `text` as UTF-8 (a lone surrogate becomes U+FFFD, as `TextEncoder` does). */
export function encodeUtf8(text: string): Uint8Array {
  if (Encoder) return new Encoder().encode(text);
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let point = text.charCodeAt(i);
    if (point >= 0xd800 && point <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        point = 0x10000 + ((point - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (point >= 0xd800 && point <= 0xdfff) point = 0xfffd;
    if (point < 0x80) out.push(point);
    else if (point < 0x800) out.push(0xc0 | (point >> 6), 0x80 | (point & 63));
    else if (point < 0x10000) out.push(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 63), 0x80 | (point & 63));
    else out.push(0xf0 | (point >> 18), 0x80 | ((point >> 12) & 63), 0x80 | ((point >> 6) & 63), 0x80 | (point & 63));
  }
  return Uint8Array.from(out);
}

/** UTF-8 `bytes` as text (a malformed sequence becomes U+FFFD, as `TextDecoder` does). */
export function decodeUtf8(bytes: Uint8Array): string {
  if (Decoder) return new Decoder().decode(bytes);
  const units: number[] = [];
  let text = '';
  for (let i = 0; i < bytes.length; ) {
    const [point, length] = codePointAt(bytes, i);
    i += length;
    if (point < 0x10000) units.push(point);
    else units.push(0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff));
    // In slices: `fromCharCode` takes its arguments on the stack.
    if (units.length >= 8192) text += String.fromCharCode(...units.splice(0));
  }
  return text + String.fromCharCode(...units);
}

/** The code point that starts at `i`, and how many bytes it took (one for a malformed byte). */
function codePointAt(bytes: Uint8Array, i: number): [number, number] {
  const lead = bytes[i];
  if (lead < 0x80) return [lead, 1];
  const [length, min] = lead >= 0xf0 && lead < 0xf5 ? [4, 0x10000] : lead >= 0xe0 ? [3, 0x800] : lead >= 0xc2 ? [2, 0x80] : [0, 0];
  if (length === 0 || lead >= 0xf5 || i + length > bytes.length) return [0xfffd, 1];
  let point = lead & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) {
    const next = bytes[i + k];
    if ((next & 0xc0) !== 0x80) return [0xfffd, 1];
    point = (point << 6) | (next & 63);
  }
  if (point < min || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return [0xfffd, 1];
  return [point, length];
}

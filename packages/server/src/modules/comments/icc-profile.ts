// An ICC colour profile as a stored image keeps it: what drawing its colours needs, nothing that
// names anyone. A profile tells a viewer how the pixels' numbers map to colours (a phone's
// photo in Display P3 shows dull without it), but its header and its tags can also carry text
// and traces: the device's maker and model, the software that made it, when, a description
// and a copyright of anyone's choosing, a calibration's date, a target's name. So the profile
// is rewritten: its header keeps the fields that say what the numbers mean, the rest zeroed;
// its tags are kept by an allow-list of colour data (primaries, tone curves, white and black
// points, lookup tables), every text tag dropped and the description the format requires
// written as a neutral one. A profile that does not read as one is dropped whole: the image
// then shows as sRGB, as any untagged image does.

/** The tags that say what colour the pixels' numbers are, by the ICC specification (v2 and v4). */
const COLOUR_TAGS = new Set([
  'rXYZ',
  'gXYZ',
  'bXYZ',
  'rTRC',
  'gTRC',
  'bTRC',
  'kTRC',
  'wtpt',
  'bkpt',
  'chad',
  'chrm',
  'lumi',
  'cicp',
  'meas',
  'gamt',
  'A2B0',
  'A2B1',
  'A2B2',
  'B2A0',
  'B2A1',
  'B2A2',
  'D2B0',
  'D2B1',
  'D2B2',
  'D2B3',
  'B2D0',
  'B2D1',
  'B2D2',
  'B2D3',
  'pre0',
  'pre1',
  'pre2',
]);

const HEADER = 128;
/** More tags than any real profile has: a table past it is no profile's. */
const MOST_TAGS = 200;

/**
 * The header's fields kept, by their byte ranges: size (rewritten), version, device class,
 * colour space, connection space, the 'acsp' signature, flags, rendering intent and the
 * connection space's illuminant. Zeroed: the preferred CMM, the date, the platform, the
 * device's maker, model and attributes, the creator and the profile's digest (zero: "not
 * computed", as the specification allows).
 */
const HEADER_KEPT: readonly [number, number][] = [
  [8, 24],
  [36, 40],
  [44, 48],
  [64, 80],
];

/** The profile with only what colour needs, or null when it does not read as a profile. */
export function colourOnlyProfile(profile: Buffer): Buffer | null {
  if (profile.length < HEADER + 4) return null;
  const size = profile.readUInt32BE(0);
  if (size > profile.length || size < HEADER + 4) return null;
  if (profile.subarray(36, 40).toString('latin1') !== 'acsp') return null;
  const count = profile.readUInt32BE(HEADER);
  if (count > MOST_TAGS || HEADER + 4 + count * 12 > size) return null;
  const tags: { signature: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const at = HEADER + 4 + i * 12;
    const signature = profile.subarray(at, at + 4).toString('latin1');
    const offset = profile.readUInt32BE(at + 4);
    const length = profile.readUInt32BE(at + 8);
    if (offset + length > size || offset < HEADER) return null;
    if (COLOUR_TAGS.has(signature)) tags.push({ signature, data: profile.subarray(offset, offset + length) });
  }
  const major = profile[8] as number;
  tags.push({ signature: 'desc', data: major >= 4 ? multiLocalized('ICC profile') : textDescription('ICC profile') });
  return written(profile, tags);
}

/** A profile of `tags` (their data laid out in order, each on a 4-byte boundary) under `source`'s kept header. */
function written(source: Buffer, tags: { signature: string; data: Buffer }[]): Buffer {
  const table = HEADER + 4 + tags.length * 12;
  const pad = (n: number) => (4 - (n % 4)) % 4;
  let at = table + pad(table);
  // Tags that shared their data (red, green and blue curves often do) share it again.
  const placed = new Map<Buffer, number>();
  const offsets = tags.map(({ data }) => {
    const same = [...placed.keys()].find((other) => other.equals(data));
    if (same) return placed.get(same) as number;
    const offset = at;
    placed.set(data, offset);
    at += data.length + pad(data.length);
    return offset;
  });
  const out = Buffer.alloc(at);
  for (const [from, to] of HEADER_KEPT) source.copy(out, from, from, to);
  out.writeUInt32BE(at, 0);
  out.writeUInt32BE(tags.length, HEADER);
  tags.forEach(({ signature, data }, i) => {
    const entry = HEADER + 4 + i * 12;
    out.write(signature, entry, 'latin1');
    out.writeUInt32BE(offsets[i] as number, entry + 4);
    out.writeUInt32BE(data.length, entry + 8);
  });
  for (const [data, offset] of placed) data.copy(out, offset);
  return out;
}

/** A description as ICC v2 writes it (textDescriptionType): ASCII, no Unicode, no Macintosh script. */
function textDescription(text: string): Buffer {
  const ascii = Buffer.from(`${text}\0`, 'latin1');
  const out = Buffer.alloc(12 + ascii.length + 4 + 4 + 2 + 1 + 67);
  out.write('desc', 0, 'latin1');
  out.writeUInt32BE(ascii.length, 8);
  ascii.copy(out, 12);
  return out;
}

/** A text as ICC v4 writes it (multiLocalizedUnicodeType): one record, English. */
export function multiLocalized(text: string): Buffer {
  const utf16 = Buffer.from(text, 'utf16le').swap16();
  const out = Buffer.alloc(16 + 12 + utf16.length);
  out.write('mluc', 0, 'latin1');
  out.writeUInt32BE(1, 8);
  out.writeUInt32BE(12, 12);
  out.write('enUS', 16, 'latin1');
  out.writeUInt32BE(utf16.length, 20);
  out.writeUInt32BE(28, 24);
  utf16.copy(out, 28);
  return out;
}

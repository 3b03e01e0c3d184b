/**
 * The check after a re-seal: no personal value that the old identity store held in clear is in any
 * file of the new data directory (its bytes, as UTF-8 and as a JSON string writes it), whatever
 * service's file it is. The values are named by their field in what is reported, never shown.
 */
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { accountStream } from '../account';
import { NeedleSet } from './needles';
import { clearPersonalFields } from './reseal-event';

/**
 * Values shorter than this are not looked for: two or three bytes (a unit "HR", a name "Li") turn up
 * by chance in any store or blob, so finding them would say nothing.
 */
export const MIN_SCAN_BYTES = 4;
const CHUNK_BYTES = 1 << 20;

/** Every personal value the old identity store holds in clear, with the field it was found in. */
export function clearValuesOf(eventsFile: string): Map<string, string> {
  const db = new Database(eventsFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[string], { stream_id: string; type: string; data: string }>(
        'SELECT stream_id, type, data FROM events WHERE stream_id LIKE ? ORDER BY position',
      )
      .iterate(`${accountStream('')}%`);
    const values = new Map<string, string>();
    for (const row of rows)
      for (const [field, value] of Object.entries(
        clearPersonalFields(row.stream_id, row.type, JSON.parse(row.data)),
      ))
        values.set(value, field);
    return values;
  } finally {
    db.close();
  }
}

export interface Finding {
  /** The file, relative to the directory scanned. */
  file: string;
  field: string;
}

export interface ScanResult {
  files: number;
  bytes: number;
  /** Values looked for, and those too short to look for. */
  scanned: number;
  tooShort: number;
  found: Finding[];
}

/** Looks for every value of `values` in every file under `root`. */
export async function scanForValues(root: string, values: Map<string, string>): Promise<ScanResult> {
  const needles: Array<{ bytes: Buffer; label: string }> = [];
  let tooShort = 0;
  for (const [value, field] of values) {
    const forms = new Set([value, JSON.stringify(value).slice(1, -1)]);
    const long = [...forms].map((form) => Buffer.from(form)).filter((b) => b.length >= MIN_SCAN_BYTES);
    if (long.length === 0) tooShort++;
    for (const bytes of long) needles.push({ bytes, label: field });
  }
  const set = new NeedleSet(needles);
  const overlap = Math.max(0, set.longest - 1);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const found: Finding[] = [];
  let bytes = 0;
  for (const file of files.sort()) {
    const fields = new Set<string>();
    // Each chunk is searched with the end of the one before, so a value across two chunks is found.
    let tail = Buffer.alloc(0);
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
      const window = Buffer.concat([tail, chunk as Buffer]);
      set.labelsIn(window, fields);
      tail = window.subarray(Math.max(0, window.length - overlap));
      bytes += (chunk as Buffer).length;
    }
    for (const field of [...fields].sort()) found.push({ file: relative(root, file), field });
  }
  return { files: files.length, bytes, scanned: values.size - tooShort, tooShort, found };
}

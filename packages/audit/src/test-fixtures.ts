/**
 * An export bundle's parts for the audit package's tests: a chained two-event history (a document
 * created with one attachment, then its total corrected), the document it folds to (written out by
 * hand, so the fold is checked too), and archives written entry by entry, forged ones included.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { BUNDLE_FORMAT, BUNDLE_MANIFEST, type BundleManifest } from '@docflow/contracts';
import { type Header, pack } from 'tar-stream';
import { eventHash, GENESIS_HASH, HASHING } from './chain';

export const FILE = Buffer.from('the attachment');
export const FILE_ID = '6b04e41bbb86ad8e68ce8569';
export const FILE_PATH = `attachments/${FILE_ID}`;
const SHA = createHash('sha256').update(FILE).digest('hex');
const DOC_ID = '6b04e41bbb86ad8e68ce8560';
const CREATED = '2026-11-24T01:00:00.000Z';
const CORRECTED = '2026-11-24T01:00:01.000Z';
const AUTHOR = 'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b01';

/** A fresh manifest (tests change their copy). */
export function manifest(): BundleManifest {
  const file = { id: FILE_ID, fileName: 'a.txt', size: FILE.length, sha256: SHA, contentType: 'text/plain' };
  const events = [
    {
      revision: 1,
      type: 'DocumentCreated',
      data: {
        id: DOC_ID,
        form: 'invoice',
        formsystype: 1,
        author: AUTHOR,
        valuesByTags: { total: '100.00' },
        tags: ['invoice'],
        files: [file],
        datedue: '',
      },
      time: CREATED,
    },
    {
      revision: 2,
      type: 'DocumentFieldsUpdated',
      data: { valuesByTags: { total: '120.00' }, tags: ['invoice'] },
      time: CORRECTED,
    },
  ];
  const webId = Buffer.from(DOC_ID, 'hex').toString('base64url');
  // What each event changed in the document as a reader sees it (GET plus recoData), keys sorted.
  const changes = [
    [
      { path: '/_id', after: DOC_ID },
      { path: '/_id_web', after: webId },
      { path: '/_tags', after: ['invoice'] },
      { path: '/author', after: AUTHOR },
      { path: '/datecreated', after: CREATED },
      { path: '/datedue', after: '' },
      { path: '/filesList', after: [{ id: FILE_ID, fileName: 'a.txt' }] },
      { path: '/form', after: 'invoice' },
      { path: '/formsystype', after: 1 },
      { path: '/iteration', after: 0 },
      { path: '/recoData', after: [] },
      { path: '/recoStatus', after: 'none' },
      { path: '/state', after: 0 },
      { path: '/status', after: 1 },
      { path: '/step', after: 0 },
      { path: '/valuesByTags/total', after: '100.00' },
    ],
    [{ path: '/valuesByTags/total', before: '100.00', after: '120.00' }],
  ];
  let prev = GENESIS_HASH;
  const history = events.map((e, i) => {
    const hash = eventHash(prev, e);
    const entry = {
      rev: e.revision,
      type: e.type,
      time: e.time,
      data: e.data,
      hash,
      prevHash: prev,
      changes: changes[i]!,
    };
    prev = hash;
    return entry;
  });
  return {
    format: BUNDLE_FORMAT,
    exportedAt: '2026-11-24T02:00:00.000Z',
    hashing: HASHING,
    document: {
      _id: DOC_ID,
      _id_web: webId,
      _meta: { _created: CREATED, _lastmodified: CORRECTED, _rev: 2 },
      form: 'invoice',
      author: AUTHOR,
      state: 0,
      step: 0,
      iteration: 0,
      status: 1,
      formsystype: 1,
      datecreated: CREATED,
      datedue: '',
      valuesByTags: { total: '120.00' },
      _tags: ['invoice'],
      filesList: [{ id: FILE_ID, fileName: 'a.txt' }],
      recoStatus: 'none',
    },
    history,
    attachments: [{ ...file, revision: 1, path: FILE_PATH }],
  };
}

export interface TarEntry {
  header: Partial<Header> & Pick<Header, 'name'>;
  content?: Buffer | string;
}

/** The manifest's entry and the attachment's, as a bundle holds them. */
export const bundleEntries = (m: BundleManifest = manifest()): TarEntry[] => [
  { header: { name: BUNDLE_MANIFEST }, content: JSON.stringify(m, null, 2) },
  { header: { name: FILE_PATH }, content: FILE },
];

/** `entries` as a tar archive, headers as given (links, devices, any name). */
export async function tarOf(entries: readonly TarEntry[]): Promise<Buffer> {
  const archive = pack();
  // A copy of each header: pack() writes the size into the one it is given.
  for (const { header, content } of entries)
    if (content === undefined) archive.entry({ ...header });
    else archive.entry({ ...header }, content);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Writes `entries` as a tar archive to `path` (tarOf). */
export async function writeTar(path: string, entries: readonly TarEntry[]): Promise<string> {
  writeFileSync(path, await tarOf(entries));
  return path;
}

/**
 * What auditors read (DESIGN.md, "Events and consistency"; README "For auditors"): the verdict on a
 * document's hash chain, the export bundle's manifest, the checkpoints of the audit stream.
 */
import { z } from '@hono/zod-openapi';
import { StoredFile } from './document-events';
import { BundleHistoryEntry } from './documents';
import { Timestamp } from './ids';

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** What verification found of an attachment's bytes. */
export const ATTACHMENT_STATUSES = ['valid', 'missing', 'changed', 'unreadable'] as const;
export type AttachmentStatus = (typeof ATTACHMENT_STATUSES)[number];

export const AttachmentVerdict = z
  .object({
    id: z.string(),
    fileName: z.string(),
    sha256: Sha256Hex.openapi({ description: 'As the event that attached it records it.' }),
    size: z.number().int().min(0),
    /** The revision of the event that records the attachment. */
    revision: z.number().int().min(1),
    valid: z.boolean(),
    status: z.enum(ATTACHMENT_STATUSES).openapi({
      description:
        '`valid`: the bytes are those recorded; `missing`: the blob store has no bytes for it; ' +
        '`changed`: other bytes (SHA-256 or size); `unreadable`: they could not be read now (try again).',
    }),
    reason: z.string().nullable(),
  })
  .openapi('AttachmentVerdict');

export const AuditVerdict = z
  .object({
    valid: z.boolean(),
    revisions: z.number().int().min(0).openapi({ description: 'How many events the stream holds.' }),
    head: Sha256Hex.nullable().openapi({ description: 'The hash of the newest event.' }),
    firstBadRevision: z
      .number()
      .int()
      .min(1)
      .nullable()
      .openapi({ description: 'The first revision that fails verification; null when all pass.' }),
    reason: z.string().nullable().openapi({ description: 'Why it fails; null when all pass.' }),
    attachments: z.array(AttachmentVerdict),
  })
  .openapi('AuditVerdict');
export type AuditVerdict = z.infer<typeof AuditVerdict>;

export const BUNDLE_FORMAT = 'docflow-audit-bundle/1';
/** The archive's entries: the manifest first, then each attachment under this folder by its id. */
export const BUNDLE_MANIFEST = 'manifest.json';
export const BUNDLE_ATTACHMENTS_DIR = 'attachments/';

export const BundleAttachment = StoredFile.extend({
  path: z.string(),
  revision: z.number().int().min(1),
}).openapi('BundleAttachment');
export type BundleAttachment = z.infer<typeof BundleAttachment>;

export const BundleManifest = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    exportedAt: Timestamp,
    hashing: z.string().openapi({ description: 'How each event hash is computed.' }),
    document: z.record(z.string(), z.unknown()).openapi({ description: 'The document (DocForm) as it is.' }),
    history: z.array(BundleHistoryEntry),
    attachments: z.array(BundleAttachment),
  })
  .openapi('BundleManifest');
export type BundleManifest = z.infer<typeof BundleManifest>;

export const StreamHeadSchema = z.object({
  streamId: z.string(),
  revision: z.number().int().min(1),
  hash: Sha256Hex,
});

/**
 * The data of an `AuditCheckpointed` event: one part of a checkpoint — the heads of the document streams
 * changed since the previous checkpoint (named by its id; null for the first), the number of document
 * streams and the root over every head (README, "For auditors") — split into parts so that each fits
 * one append; the parts of a checkpoint share its id.
 */
export const AuditCheckpoint = z.object({
  checkpointId: z.uuid(),
  previousCheckpointId: z.uuid().nullable(),
  part: z.number().int().min(1),
  parts: z.number().int().min(1),
  root: Sha256Hex,
  streams: z.number().int().min(0),
  heads: z.array(StreamHeadSchema),
  /**
   * Only on a checkpoint of the layouts before the bucketed root (upcast, upcasters/audit-checkpointed.ts):
   * it holds every head (in its parts), its root is `merkleRoot` over them, and it names no previous one.
   */
  full: z.literal(true).optional(),
});
export type AuditCheckpoint = z.infer<typeof AuditCheckpoint>;

/** The stream the document service appends its checkpoints to. */
export const AUDIT_CHECKPOINT_STREAM = 'audit-checkpoints';

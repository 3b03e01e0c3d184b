/** Roles of DESIGN.md ("Roles"). */
import { z } from '@hono/zod-openapi';

export const ROLES = [
  'svcAdminSysRW',
  'svcAdminDocsRW',
  'svcAdminDocRW',
  'svcAdminDocRWD',
  'svcAuditR',
] as const;
export const Role = z.enum(ROLES).openapi({
  description:
    'svcAdminSysRW: accounts, forms, person updates. svcAdminDocsRW: act on documents of any author. ' +
    'svcAdminDocRW: workflow management of documents not one\u2019s own. svcAdminDocRWD: the same plus delete. ' +
    'svcAuditR: read any document, its history, verify and export it; changes nothing.',
});
export type Role = z.infer<typeof Role>;

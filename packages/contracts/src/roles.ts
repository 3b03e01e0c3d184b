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

/**
 * The role behind each capability: the checks that enforce them (the gateway's admin routes, the
 * document service's readers and writers, the workflow service's management) and `GET /api/v2/me`
 * read this one table.
 */
export const CAPABILITY_ROLES = {
  /** Accounts, persons, forms, webhooks, the views' rebuild: every `/api/admin/*` route. */
  administer: 'svcAdminSysRW',
  /** Read and act on documents of any author. */
  actOnAnyDocument: 'svcAdminDocsRW',
  /** Read any document, its history, verification and export; changes nothing. */
  auditAnyDocument: 'svcAuditR',
  /** Workflow management of documents not one's own (111 delete needs the second). */
  manageOthersWorkflows: ['svcAdminDocRW', 'svcAdminDocRWD'],
  deleteOthersDocuments: 'svcAdminDocRWD',
} as const satisfies Record<string, Role | readonly Role[]>;

export const Capabilities = z
  .object({
    createDocuments: z.boolean().openapi({ description: 'Every principal creates documents of every form.' }),
    administer: z.boolean().openapi({ description: 'Accounts, persons, forms, webhooks (svcAdminSysRW).' }),
    actOnAnyDocument: z.boolean(),
    auditAnyDocument: z.boolean(),
    manageOthersWorkflows: z.boolean().openapi({
      description:
        'POST docResponse on documents not one\u2019s own (a service account without run-as needs svcAdminDocsRW too).',
    }),
    deleteOthersDocuments: z.boolean(),
  })
  .openapi('Capabilities');
export type Capabilities = z.infer<typeof Capabilities>;

/** Who holds roles: the effective principal's, and whether a service account acts without run-as. */
export interface CapabilityHolder {
  roles: readonly string[];
  isServiceAccount: boolean;
}

export function capabilitiesOf(holder: CapabilityHolder): Capabilities {
  const has = (role: Role) => holder.roles.includes(role);
  // Contract, Authentication 4: a service account acting for itself on others' documents needs svcAdminDocsRW.
  const onOthers = !holder.isServiceAccount || has(CAPABILITY_ROLES.actOnAnyDocument);
  return {
    createDocuments: true,
    administer: has(CAPABILITY_ROLES.administer),
    actOnAnyDocument: has(CAPABILITY_ROLES.actOnAnyDocument),
    auditAnyDocument: has(CAPABILITY_ROLES.auditAnyDocument),
    manageOthersWorkflows: CAPABILITY_ROLES.manageOthersWorkflows.some(has) && onOthers,
    deleteOthersDocuments: has(CAPABILITY_ROLES.deleteOthersDocuments) && onOthers,
  };
}

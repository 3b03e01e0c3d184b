/** Identity's events as the bus delivers them, for the gateway's tests. */
import { randomUUID } from 'node:crypto';
import type { DeliveredMessage } from '@docflow/bus';

/** An identity event as the bus delivers it. */
export function delivered(
  account: string,
  revision: number,
  type: string,
  data: Record<string, unknown>,
): DeliveredMessage {
  return {
    id: randomUUID(),
    key: account,
    topic: 'test.identity',
    value: {
      id: randomUUID(),
      type,
      version: 1,
      streamId: `account-${account}`,
      revision,
      recordedAt: new Date().toISOString(),
      data,
      metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
    },
  };
}
export const created = (id: string, kind: 'person' | 'service', roles: string[] = []) =>
  delivered(id, 1, 'AccountCreated', { id, kind, roles, active: true });
export const deactivated = (id: string, revision: number) =>
  delivered(id, revision, 'AccountActivationChanged', { active: false });
